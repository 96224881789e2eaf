// ClaimsReport: claims.json through QJsonDocument; null numbers are "not reached" / unbounded.
#include "ui/plot/claims_report.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace syncscope::ui {
namespace {

std::optional<double> number(const QJsonValue& v) {
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

QStringList strings(const QJsonValue& v) {
    QStringList out;
    for (const QJsonValue& s : v.toArray()) out << s.toString();
    return out;
}

Claim::Verdict verdictOf(const QString& text, bool* known) {
    *known = true;
    if (text == QLatin1String("reproduced")) return Claim::Verdict::Reproduced;
    if (text == QLatin1String("not reproduced")) return Claim::Verdict::NotReproduced;
    *known = text == QLatin1String("not evaluated");
    return Claim::Verdict::NotEvaluated;
}

ClaimCellRuns cellOf(const QJsonObject& o) {
    ClaimCellRuns cell{o.value(QLatin1String("part")).toString(), o.value(QLatin1String("mode")).toString(), std::nullopt, {},
                       number(o.value(QLatin1String("median_s")))};
    if (const QJsonValue d = o.value(QLatin1String("delay_percent")); d.isDouble()) cell.delayPercent = d.toInt();
    const QJsonObject seeds = o.value(QLatin1String("time_to_target_s")).toObject();
    for (auto it = seeds.begin(); it != seeds.end(); ++it) cell.secondsBySeed.insert(it.key().toULongLong(), number(it.value()));
    return cell;
}

ClaimComparison comparisonOf(const QJsonObject& o) {
    ClaimComparison c;
    c.label = o.value(QLatin1String("label")).toString();
    c.unit = o.value(QLatin1String("unit")).toString();
    c.value = number(o.value(QLatin1String("value")));
    c.low = number(o.value(QLatin1String("low")));
    c.high = number(o.value(QLatin1String("high")));
    c.atLeast = number(o.value(QLatin1String("at_least")));
    c.atMost = number(o.value(QLatin1String("at_most")));
    c.infiniteValue = o.value(QLatin1String("infinite_value")).toBool();
    c.infiniteHigh = o.value(QLatin1String("infinite_high")).toBool();
    return c;
}

}  // namespace

QString ClaimCellRuns::label() const {
    return delayPercent ? QStringLiteral("%1 +%2%").arg(mode).arg(*delayPercent) : mode;
}

std::optional<ClaimsReport> ClaimsReport::read(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
    if (parse.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1 is not valid JSON (%2 at byte %3); run the experiment again to rewrite it")
                     .arg(path, parse.errorString())
                     .arg(parse.offset);
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    if (root.value(QLatin1String("format")).toString() != QLatin1String("syncscope-claims")) {
        *error = QStringLiteral("%1 is not a claims.json of `syncscope-engine experiment --spec` (no \"format\": \"syncscope-claims\")").arg(path);
        return std::nullopt;
    }
    if (const int version = root.value(QLatin1String("version")).toInt(); version != 1) {
        *error = QStringLiteral("%1 has format version %2; this console reads version 1").arg(path).arg(version);
        return std::nullopt;
    }
    ClaimsReport report;
    report.spec = root.value(QLatin1String("spec")).toString();
    report.description = root.value(QLatin1String("description")).toString();
    report.command = root.value(QLatin1String("command")).toString();
    report.quick = root.value(QLatin1String("quick")).toBool();
    for (const QJsonValue& v : root.value(QLatin1String("parts")).toArray()) {
        const QJsonObject p = v.toObject();
        report.parts.append({p.value(QLatin1String("name")).toString(), p.value(QLatin1String("model")).toString(),
                             p.value(QLatin1String("target_percent")).toDouble(), p.value(QLatin1String("max_seconds")).toDouble(),
                             p.value(QLatin1String("fixed_time_s")).toDouble()});
    }
    for (const QJsonValue& v : root.value(QLatin1String("claims")).toArray()) {
        const QJsonObject o = v.toObject();
        Claim claim;
        claim.title = o.value(QLatin1String("title")).toString();
        claim.kind = o.value(QLatin1String("kind")).toString();
        claim.paper = o.value(QLatin1String("paper")).toString();
        claim.why = o.value(QLatin1String("why")).toString();
        claim.parts = strings(o.value(QLatin1String("parts")));
        claim.figures = strings(o.value(QLatin1String("figures")));
        bool known = false;
        const QString verdict = o.value(QLatin1String("verdict")).toString();
        claim.verdict = verdictOf(verdict, &known);
        if (claim.title.isEmpty() || !known) {
            *error = QStringLiteral("%1: claim %2 has no title or an unknown verdict '%3'")
                         .arg(path)
                         .arg(report.claims.size() + 1)
                         .arg(verdict);
            return std::nullopt;
        }
        for (const QJsonValue& r : o.value(QLatin1String("runs")).toArray()) claim.runs.append(cellOf(r.toObject()));
        for (const QJsonValue& c : o.value(QLatin1String("comparisons")).toArray()) claim.comparisons.append(comparisonOf(c.toObject()));
        report.claims.append(claim);
    }
    if (report.claims.isEmpty()) {
        *error = QStringLiteral("%1 holds no claims").arg(path);
        return std::nullopt;
    }
    return report;
}

const ClaimsPart* ClaimsReport::part(const QString& name) const {
    for (const ClaimsPart& p : parts)
        if (p.name == name) return &p;
    return nullptr;
}

}  // namespace syncscope::ui
