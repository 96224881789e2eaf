// ResultsTable: the medians `syncscope-engine experiment` wrote to results.csv, by mode and delay,
// for the plots. Qt Core only.
#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace syncscope::ui {

class ResultsTable {
public:
    /// Reads results.csv; on failure returns nothing and says why in *error.
    static std::optional<ResultsTable> read(const QString& path, QString* error);

    QStringList modes() const { return m_modes; }  ///< in file order
    QList<int> delays() const;                      ///< sorted, distinct
    /// The value of `column` for a mode at a delay; empty when missing or blank (e.g. not reached).
    std::optional<double> value(const QString& mode, int delay, const QString& column) const;
    /// A value the whole file shares, such as target_percent; empty when absent.
    std::optional<double> shared(const QString& column) const;

private:
    QStringList m_header, m_modes;
    QMap<QPair<QString, int>, QStringList> m_rows;
};

}  // namespace syncscope::ui
