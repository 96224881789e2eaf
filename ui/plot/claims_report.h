// ClaimsReport: a reproduction's claims.json (written by `syncscope-engine experiment`, see
// engine/cli/claims_report.h) read for the plots and the console's results window. Qt Core only.
#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace syncscope::ui {

struct ClaimCellRuns {
    QString part, mode;
    std::optional<int> delayPercent;                     ///< empty: every delay of the part
    QMap<qulonglong, std::optional<double>> secondsBySeed;  ///< empty value: the target not reached
    std::optional<double> medianSeconds;                 ///< the engine's median over seeds; empty: not reached
    QString label() const;                               ///< "grouped-g2 +400%"
};

/// A figure the claim is decided on: median over seeds and its 95% interval; an empty end is
/// unbounded (+infinity: a run that never reached the target), and `at...` is the band it must keep.
struct ClaimComparison {
    QString label, unit;  ///< unit "x" (ratio of times) or "points"
    std::optional<double> value, low, high, atLeast, atMost;
    bool infiniteValue = false, infiniteHigh = false;
};

struct Claim {
    enum class Verdict { Reproduced, NotReproduced, NotEvaluated };
    QString title, kind, paper, why;
    QStringList parts, figures;  ///< figures: ours, a line each (as in claims.md)
    Verdict verdict = Verdict::NotEvaluated;
    QList<ClaimCellRuns> runs;
    QList<ClaimComparison> comparisons;
};

struct ClaimsPart {
    QString name, model;
    double targetPercent = 0, maxSeconds = 0, fixedTimeSeconds = 0;
};

class ClaimsReport {
public:
    /// Reads claims.json; on failure returns nothing and says what is wrong in *error.
    static std::optional<ClaimsReport> read(const QString& path, QString* error);

    QString spec, description, command;
    bool quick = false;
    QList<ClaimsPart> parts;
    QList<Claim> claims;

    /// The part named `name` (its cap and target), or nothing.
    const ClaimsPart* part(const QString& name) const;
};

}  // namespace syncscope::ui
