// ExperimentFolder: what an `experiment --out` folder holds, for the results window: a reproduction's
// claims (claims.json) and the grids' medians (results.csv), the folder's own or each part's
// (OUT/PART/results.csv). Qt Core only.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

#include "ui/plot/claims_report.h"
#include "ui/plot/results_table.h"

namespace syncscope::ui {

struct ExperimentGrid {
    QString name;  ///< the part's name; empty for the folder's own results.csv
    QString csvPath;
    ResultsTable table;
};

struct ExperimentFolder {
    QString path;
    std::optional<ClaimsReport> claims;
    QList<ExperimentGrid> grids;  ///< in the spec's part order where claims.json names them
    QStringList problems;         ///< files found but not read (a corrupt claims.json), each with the reason

    /// Reads the folder. Fails (nothing, and *error says what to open instead) when it holds neither
    /// a readable claims.json nor any results.csv; a file that fails while others read is a problem.
    static std::optional<ExperimentFolder> open(const QString& dir, QString* error);
};

}  // namespace syncscope::ui
