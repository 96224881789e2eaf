// ResultsTable: a plain CSV reader; `experiment` writes no quoted fields.
#include "ui/plot/results_table.h"

#include <QFile>
#include <QTextStream>
#include <algorithm>

namespace syncscope::ui {

std::optional<ResultsTable> ResultsTable::read(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QTextStream in(&file);
    ResultsTable table;
    table.m_header = in.readLine().split(',');
    const qsizetype modeColumn = table.m_header.indexOf(QStringLiteral("mode"));
    const qsizetype delayColumn = table.m_header.indexOf(QStringLiteral("delay_percent"));
    if (modeColumn < 0 || delayColumn < 0) {
        *error = QStringLiteral("%1 is not a results.csv of `syncscope-engine experiment` (no mode or delay_percent column)").arg(path);
        return std::nullopt;
    }
    while (!in.atEnd()) {
        const QStringList fields = in.readLine().split(',');
        if (fields.size() != table.m_header.size()) continue;
        const QString mode = fields[modeColumn];
        if (!table.m_modes.contains(mode)) table.m_modes.append(mode);
        table.m_rows.insert({mode, fields[delayColumn].toInt()}, fields);
    }
    if (table.m_rows.isEmpty()) {
        *error = QStringLiteral("%1 holds no results yet").arg(path);
        return std::nullopt;
    }
    return table;
}

QList<int> ResultsTable::delays() const {
    QList<int> out;
    for (auto it = m_rows.keyBegin(); it != m_rows.keyEnd(); ++it)
        if (!out.contains(it->second)) out.append(it->second);
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<double> ResultsTable::value(const QString& mode, int delay, const QString& column) const {
    const qsizetype index = m_header.indexOf(column);
    const auto it = m_rows.find({mode, delay});
    if (index < 0 || it == m_rows.end()) return std::nullopt;
    bool ok = false;
    const double v = it->at(index).toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

std::optional<double> ResultsTable::shared(const QString& column) const {
    if (m_rows.isEmpty()) return std::nullopt;
    const auto first = m_rows.constBegin();
    return value(first.key().first, first.key().second, column);
}

}  // namespace syncscope::ui
