// A claim's figures: its runs (each cell's time to target per seed) and its comparisons (median over
// seeds with the 95% interval, against the claim's limit). syncscope-plot saves both as one PNG per
// claim; the console's results window shows them.
#pragma once

#include <QString>

#include "ui/plot/claims_report.h"

class QChart;

namespace syncscope::ui {

/// Each cell the claim read, its time to target per seed (one colour per seed, so a seed can be
/// followed from cell to cell: the claims pair cells by seed), the median as a bar, and runs that
/// did not reach the target drawn at the run cap. The caller owns the chart.
QChart* makeClaimRunsChart(const ClaimsReport& report, const Claim& claim);

/// The claim's comparisons in `unit` ("x": ratios of times to target) as a forest plot: per row the
/// median and its 95% interval, coloured by whether the median keeps the claim's limit, which is
/// marked. Ends at +infinity run to the right edge. The caller owns the chart.
QChart* makeClaimIntervalsChart(const Claim& claim, const QString& unit = QStringLiteral("x"));

/// The verdict as shown: "reproduced", "not reproduced", "not evaluated" (translated).
QString verdictLabel(Claim::Verdict verdict);

/// Both charts side by side under the claim's title and verdict, into a PNG; false and *error on failure.
bool renderClaimFigure(const ClaimsReport& report, const Claim& claim, const QString& path, QString* error,
                       int width = 1600, int height = 640);

/// The PNG name of claim `index` (0-based): "claim_1_straggler-rescue.png".
QString claimFigureFile(const Claim& claim, int index);

}  // namespace syncscope::ui
