// A claim's runs as a strip chart and its comparisons as a forest plot (Qt Charts: scatter series for
// points, two-point line series for bars and whiskers, category axes for the cells and rows).
#include "ui/plot/claim_charts.h"

#include <QCategoryAxis>
#include <QChart>
#include <QCoreApplication>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QSet>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/plot/chart_png.h"
#include "ui/plot/plot_palette.h"

namespace syncscope::ui {
namespace {

const QColor kKept(0x59a14f), kMissed(0xe15759), kNoLimit(0x4e79a7), kLimit(0x444444), kGuide(0x9a9a9a);

// A series whose legend entry is hidden (a bar or whisker after the first of its kind).
void hideFromLegend(QChart* chart, QAbstractSeries* series) {
    for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(false);
}

QLineSeries* segment(QChart* chart, QPointF a, QPointF b, const QPen& pen, const QString& name) {
    auto* line = new QLineSeries;
    line->append(a);
    line->append(b);
    line->setPen(pen);
    line->setName(name);
    chart->addSeries(line);
    if (name.isEmpty()) hideFromLegend(chart, line);
    return line;
}

void attach(QChart* chart, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

// Cells are named by mode and delay (a line each), and by part too where that alone would repeat a
// name. Axis labels take HTML.
QStringList cellNames(const Claim& claim) {
    QStringList names;
    for (const ClaimCellRuns& cell : claim.runs) {
        QString mode = cell.mode.toHtmlEscaped();
        if (const qsizetype dash = mode.indexOf(QLatin1Char('-')); mode.size() > 10 && dash > 0)
            mode.replace(dash, 1, QStringLiteral("-<br>"));  // softsync-<br>n4-fixed
        names << (cell.delayPercent ? QStringLiteral("%1<br>+%2%").arg(mode).arg(*cell.delayPercent) : mode);
    }
    const QSet<QString> distinct(names.begin(), names.end());
    if (distinct.size() != names.size())
        for (qsizetype i = 0; i < names.size(); ++i) names[i] += QStringLiteral("<br>") + claim.runs[i].part;
    return names;
}

// QCategoryAxis wants distinct labels: a repeated one gets a space more.
QString distinctLabel(QString label, QSet<QString>& used) {
    while (used.contains(label)) label += QLatin1Char(' ');
    used.insert(label);
    return label;
}

}  // namespace

QString verdictLabel(Claim::Verdict verdict) {
    switch (verdict) {
        case Claim::Verdict::Reproduced: return QCoreApplication::translate("ExperimentPlots", "reproduced");
        case Claim::Verdict::NotReproduced: return QCoreApplication::translate("ExperimentPlots", "not reproduced");
        case Claim::Verdict::NotEvaluated: return QCoreApplication::translate("ExperimentPlots", "not evaluated");
    }
    return {};
}

QChart* makeClaimRunsChart(const ClaimsReport& report, const Claim& claim) {
    auto* chart = new QChart;
    chart->setTitle(QCoreApplication::translate("ExperimentPlots", "Time to target per seed (line: median over seeds)"));
    double cap = 0, top = 0;
    for (const ClaimCellRuns& cell : claim.runs)
        if (const ClaimsPart* part = report.part(cell.part)) cap = std::max(cap, part->maxSeconds);
    QList<qulonglong> seeds;
    for (const ClaimCellRuns& cell : claim.runs)
        for (auto it = cell.secondsBySeed.begin(); it != cell.secondsBySeed.end(); ++it)
            if (!seeds.contains(it.key())) seeds.append(it.key());
    std::sort(seeds.begin(), seeds.end());
    QList<QScatterSeries*> bySeed;
    for (qsizetype k = 0; k < seeds.size(); ++k) {
        auto* s = new QScatterSeries;
        s->setName(QCoreApplication::translate("ExperimentPlots", "seed %1").arg(seeds[k]));
        s->setColor(plotColor(int(k)));
        s->setBorderColor(plotColor(int(k)).darker(130));
        s->setMarkerSize(11);
        bySeed.append(s);
    }
    auto* notReached = new QScatterSeries;
    notReached->setName(QCoreApplication::translate("ExperimentPlots", "not reached (at the %1 s cap)").arg(cap));
    notReached->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    notReached->setColor(Qt::white);
    notReached->setBorderColor(kMissed);
    notReached->setMarkerSize(13);
    const double spread = seeds.size() > 1 ? 0.36 / double(seeds.size() - 1) : 0;  // seeds side by side within a cell
    for (qsizetype i = 0; i < claim.runs.size(); ++i) {
        const ClaimCellRuns& cell = claim.runs[i];
        for (auto it = cell.secondsBySeed.begin(); it != cell.secondsBySeed.end(); ++it) {
            const qsizetype k = seeds.indexOf(it.key());
            const double x = double(i) - 0.18 + spread * double(k);
            if (it.value()) bySeed[k]->append(x, *it.value()), top = std::max(top, *it.value());
            else notReached->append(x, cap);
        }
    }
    for (QScatterSeries* s : bySeed) chart->addSeries(s);
    if (notReached->count()) {  // with the cap they are drawn at (the legend names it through them)
        chart->addSeries(notReached);
        segment(chart, {-0.5, cap}, {double(claim.runs.size()) - 0.5, cap}, QPen(kGuide, 1.5, Qt::DashLine), QString());
        top = std::max(top, cap);
    } else {
        delete notReached;
    }
    for (qsizetype i = 0; i < claim.runs.size(); ++i)  // the medians (the title says so: no legend entry)
        if (const auto m = claim.runs[i].medianSeconds)
            segment(chart, {double(i) - 0.32, *m}, {double(i) + 0.32, *m}, QPen(Qt::black, 3), QString());
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    x->setStartValue(-0.5);  // the first cell's category begins there, not at 0
    x->setRange(-0.5, std::max<double>(0.5, double(claim.runs.size()) - 0.5));
    QSet<QString> used;
    const QStringList names = cellNames(claim);
    for (qsizetype i = 0; i < names.size(); ++i) x->append(distinctLabel(names[i], used), double(i) + 0.5);
    x->setGridLineVisible(false);
    auto* y = new QValueAxis;
    y->setTitleText(QCoreApplication::translate("ExperimentPlots", "seconds to the target"));
    y->setRange(0, top > 0 ? top * 1.08 : 1.0);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.6g"));
    attach(chart, x, y);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QChart* makeClaimIntervalsChart(const Claim& claim, const QString& unit) {
    auto* chart = new QChart;
    chart->setTitle(QCoreApplication::translate("ExperimentPlots", "Median over seeds (dot), 95% interval (bar)"));
    QList<const ClaimComparison*> rows;
    for (const ClaimComparison& c : claim.comparisons)
        if (c.unit == unit) rows.append(&c);
    // The right edge: past every finite end and limit; an end at +infinity is drawn there.
    double right = unit == QLatin1String("x") ? 1.0 : 0.0, left = 0;
    for (const ClaimComparison* c : rows) {
        for (const auto& v : {c->value, c->low, c->high, c->atMost, c->atLeast})
            if (v) right = std::max(right, *v), left = std::min(left, *v);
    }
    right = right > 0 ? right * 1.15 : 1.0;
    auto* medians = new QScatterSeries;
    medians->setColor(Qt::black);
    medians->setMarkerSize(10);
    bool namedKept = false, namedMissed = false, namedLimit = false;
    const qsizetype n = rows.size();
    for (qsizetype i = 0; i < n; ++i) {
        const ClaimComparison& c = *rows[i];
        const double y = double(n - 1 - i);  // the first comparison on top
        const double value = c.infiniteValue ? right : c.value.value_or(std::nan(""));
        if (std::isnan(value)) continue;  // n/a: neither side reached the target
        const double low = c.low.value_or(value), high = c.infiniteHigh ? right : c.high.value_or(value);
        const bool banded = c.atMost || c.atLeast;
        const bool kept = (!c.atMost || value <= *c.atMost) && (!c.atLeast || value >= *c.atLeast);
        QString name;
        if (banded && kept && !namedKept) name = QCoreApplication::translate("ExperimentPlots", "within the limit"), namedKept = true;
        if (banded && !kept && !namedMissed) name = QCoreApplication::translate("ExperimentPlots", "past the limit"), namedMissed = true;
        segment(chart, {low, y}, {high, y}, QPen(!banded ? kNoLimit : kept ? kKept : kMissed, 4), name);
        medians->append(value, y);
        for (const auto& limit : {c.atMost, c.atLeast})
            if (limit) {
                segment(chart, {*limit, y - 0.3}, {*limit, y + 0.3}, QPen(kLimit, 2.5, Qt::DashLine),
                        namedLimit ? QString() : QCoreApplication::translate("ExperimentPlots", "limit"));
                namedLimit = true;
            }
    }
    chart->addSeries(medians);
    hideFromLegend(chart, medians);  // the title says what the dots are
    if (unit == QLatin1String("x"))
        segment(chart, {1, -0.5}, {1, std::max<double>(0.5, double(n) - 0.5)}, QPen(kGuide, 1.5, Qt::DotLine), QString());
    auto* x = new QValueAxis;
    x->setTitleText(unit == QLatin1String("x") ? QCoreApplication::translate("ExperimentPlots", "ratio (x)") : QCoreApplication::translate("ExperimentPlots", "points"));
    x->setRange(left, right);
    x->applyNiceNumbers();
    x->setLabelFormat(QStringLiteral("%.6g"));
    auto* y = new QCategoryAxis;
    y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    y->setStartValue(-0.5);
    y->setRange(-0.5, std::max<double>(0.5, double(n) - 0.5));
    QSet<QString> used;
    for (qsizetype i = n - 1; i >= 0; --i) {  // appended bottom to top
        const ClaimComparison& c = *rows[i];
        QString label = c.label.toHtmlEscaped();
        if (label.size() > 24) label.replace(QStringLiteral(" / "), QStringLiteral("<br>/ "));  // axis labels take HTML
        if (c.infiniteValue || c.infiniteHigh) label += QStringLiteral(" (→ ∞)");
        y->append(distinctLabel(label, used), double(n - 1 - i) + 0.5);
    }
    y->setGridLineVisible(false);
    attach(chart, x, y);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QString claimFigureFile(const Claim& claim, int index) {
    return QStringLiteral("claim_%1_%2.png").arg(index + 1).arg(claim.kind.isEmpty() ? QStringLiteral("claim") : claim.kind);
}

bool renderClaimFigure(const ClaimsReport& report, const Claim& claim, const QString& path, QString* error, int width,
                       int height) {
    const QString caption = QStringLiteral("%1\n%2: %3").arg(claim.title, verdictLabel(claim.verdict), claim.why);
    return saveChartsPng({makeClaimRunsChart(report, claim), makeClaimIntervalsChart(claim)}, caption, path, error, width,
                         height);
}

}  // namespace syncscope::ui
