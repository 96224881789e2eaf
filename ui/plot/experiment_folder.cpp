// ExperimentFolder: claims.json first (its parts give the order), then results.csv files.
#include "ui/plot/experiment_folder.h"

#include <QDir>
#include <QFileInfo>

namespace syncscope::ui {

std::optional<ExperimentFolder> ExperimentFolder::open(const QString& dir, QString* error) {
    const QDir folder(dir);
    if (!folder.exists()) {
        *error = QStringLiteral("%1 is not a folder").arg(dir);
        return std::nullopt;
    }
    ExperimentFolder out;
    out.path = folder.absolutePath();
    QString problem;
    if (folder.exists(QStringLiteral("claims.json"))) {
        out.claims = ClaimsReport::read(folder.filePath(QStringLiteral("claims.json")), &problem);
        if (!out.claims) out.problems << problem;
    }
    auto addGrid = [&](const QString& name, const QString& csv) {
        if (!QFileInfo::exists(csv)) return;
        if (auto table = ResultsTable::read(csv, &problem)) out.grids.append({name, csv, std::move(*table)});
        else out.problems << problem;
    };
    addGrid(QString(), folder.filePath(QStringLiteral("results.csv")));
    QStringList parts;
    if (out.claims)
        for (const ClaimsPart& p : out.claims->parts) parts << p.name;
    for (const QString& sub : folder.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (!parts.contains(sub) && QFileInfo::exists(folder.filePath(sub + QStringLiteral("/results.csv")))) parts << sub;
    for (const QString& part : parts) addGrid(part, folder.filePath(part + QStringLiteral("/results.csv")));
    if (!out.claims && out.grids.isEmpty()) {
        *error = out.problems.isEmpty()
                     ? QStringLiteral("%1 holds no claims.json or results.csv: open the --out folder of "
                                      "`syncscope-engine experiment`")
                           .arg(out.path)
                     : out.problems.join(QStringLiteral("; "));
        return std::nullopt;
    }
    return out;
}

}  // namespace syncscope::ui
