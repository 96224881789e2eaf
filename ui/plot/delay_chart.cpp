// renderDelayChart: a QChartView never shown, grabbed into a pixmap (works offscreen). Points a
// mode lacks (the target not reached) are left out of its line and named in its legend entry.
#include "ui/plot/delay_chart.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <iterator>

namespace syncscope::ui {
namespace {

// Ten modes, ten colours (Tableau 10): Qt's default theme repeats its colours after five.
const QColor kPalette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                           0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};

}  // namespace

bool renderDelayChart(const ResultsTable& table, const DelayFigure& figure, const QString& path, QString* error,
                      int width, int height) {
    auto* chart = new QChart;
    chart->setTitle(figure.title);
    double top = 0;
    const QList<int> delays = table.delays();
    for (const QString& mode : table.modes()) {
        auto* series = new QLineSeries;
        series->setPointsVisible(true);
        series->setPen(QPen(kPalette[chart->series().size() % std::size(kPalette)], 2.5));
        QStringList missing;
        for (int delay : delays) {
            if (const auto v = table.value(mode, delay, figure.column); v && *v >= 0) {  // -1: no evaluation yet
                series->append(delay, *v * figure.scale);
                top = std::max(top, *v * figure.scale);
            } else if (table.value(mode, delay, QStringLiteral("runs"))) {
                missing << QString::number(delay) + QLatin1Char('%');
            }
        }
        series->setName(missing.isEmpty() ? mode : QStringLiteral("%1 (%2 at %3)").arg(mode, figure.missing, missing.join(", ")));
        chart->addSeries(series);
    }
    auto* x = new QValueAxis;
    x->setTitleText(QStringLiteral("extra delay of the straggler (%)"));
    x->setRange(delays.isEmpty() ? 0 : delays.first(), delays.isEmpty() ? 1 : std::max(delays.last(), delays.first() + 1));
    x->setTickCount(std::clamp(int(delays.size()), 2, 11));
    x->setLabelFormat(QStringLiteral("%d"));
    auto* y = new QValueAxis;
    y->setTitleText(figure.yLabel);
    y->setRange(0, top > 0 ? top * 1.1 : 1.0);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto* series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    chart->legend()->setAlignment(Qt::AlignRight);
    QChartView view(chart);  // owns the chart
    view.setRenderHint(QPainter::Antialiasing);
    view.resize(width, height);
    if (!view.grab().save(path, "PNG")) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

}  // namespace syncscope::ui
