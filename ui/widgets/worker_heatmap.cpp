// WorkerHeatmap (see worker_heatmap.h).
#include "ui/widgets/worker_heatmap.h"

#include <QFontMetrics>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace syncscope::ui {
namespace {

// Viridis at nine stops (matplotlib's, public domain): dark purple to yellow, even in lightness.
constexpr std::array<QRgb, 9> kStops{0xff440154, 0xff472d7b, 0xff3b528b, 0xff2c728e, 0xff21918c,
                                     0xff28ae80, 0xff5ec962, 0xffaadc32, 0xfffde725};

// The first point at or after time t (points sorted by time).
qsizetype firstAtOrAfter(const QVector<QPointF>& points, double t) {
    return std::lower_bound(points.begin(), points.end(), t, [](const QPointF& p, double x) { return p.x() < x; }) -
           points.begin();
}

}  // namespace

WorkerHeatmap::WorkerHeatmap(HeatmapMetric metric, QWidget* parent) : QWidget(parent), m_metric(metric) {
    setMouseTracking(false);
    setCursor(Qt::PointingHandCursor);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_deferred.setSingleShot(true);
    connect(&m_deferred, &QTimer::timeout, this, [this] { showFrame(TelemetryFrame(m_pending)); });
    setToolTip(tr("Click a row to show that worker's lines"));
}

QString WorkerHeatmap::title() const {
    switch (m_metric) {
        case HeatmapMetric::SamplesPerSecond: return tr("Samples/s per worker");
        case HeatmapMetric::Staleness: return tr("Staleness per worker");
        case HeatmapMetric::WaitShare: return tr("Share of time waiting");
    }
    return {};
}

QRgb WorkerHeatmap::colorAt(double t) {
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * double(kStops.size() - 1);
    const size_t i = std::min(size_t(t), kStops.size() - 2);
    const double f = t - double(i);
    const auto mix = [f](int a, int b) { return int(std::lround(a + (b - a) * f)); };
    const QRgb a = kStops[i], b = kStops[i + 1];
    return qRgb(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

void WorkerHeatmap::showFrame(const TelemetryFrame& frame) {
    // Samples/s times are every worker's tick times; the window is the last kWindowSeconds of them.
    std::vector<uint32_t> ids;
    double t0 = std::numeric_limits<double>::max(), t1 = std::numeric_limits<double>::lowest();
    for (const auto& [id, w] : frame.workers) {
        ids.push_back(id);
        if (w.samplesPerSecond.isEmpty()) continue;
        t0 = std::min(t0, w.samplesPerSecond.front().x());
        t1 = std::max(t1, w.samplesPerSecond.back().x());
    }
    // Within one slice nothing is worked out or painted again: the picture changes when the newest
    // tick is a slice further on, the workers change, or another run is shown.
    const qint64 run = qint64(frame.header.start_unix_ms());
    const bool sameRun = !m_cells.isNull() && ids == m_rows && run == m_run && t1 >= m_t1;
    if (sameRun && t1 - m_t1 < (m_t1 - m_t0) / m_cells.width()) return;
    // And at most kMaxRedrawsPerSecond (a replay at 16x crosses a slice every few frames): a frame
    // that comes sooner is drawn when that time is up, unless a newer one takes its place.
    if (sameRun && m_sinceDrawn.isValid() && m_sinceDrawn.elapsed() < 1000 / kMaxRedrawsPerSecond) {
        m_pending = frame;
        if (!m_deferred.isActive()) m_deferred.start(int(1000 / kMaxRedrawsPerSecond - m_sinceDrawn.elapsed()));
        return;
    }
    m_deferred.stop();
    m_pending = TelemetryFrame();
    m_sinceDrawn.start();
    m_rows = std::move(ids);
    m_run = run;
    m_t1 = t1;
    m_t0 = std::max(t0, t1 - kWindowSeconds);
    if (m_rows.empty() || m_t1 <= m_t0) {
        m_cells = QImage();
        update();
        return;
    }
    // No more slices than ticks in the window, so a short run leaves no slice between two ticks empty.
    qsizetype ticks = 0;
    for (const auto& [id, w] : frame.workers)
        ticks = std::max(ticks, w.samplesPerSecond.size() - firstAtOrAfter(w.samplesPerSecond, m_t0));
    const int columns = int(std::clamp<qsizetype>(ticks - 1, 1, kColumns));
    const int rows = int(m_rows.size());
    std::vector<double>& sum = m_sum;
    std::vector<int>& count = m_count;
    sum.assign(size_t(rows) * columns, 0.0);
    count.assign(size_t(rows) * columns, 0);
    const double scale = columns / (m_t1 - m_t0);
    const auto add = [&](int r, double x, double y) {
        if (!std::isfinite(y)) return;
        const size_t cell = size_t(r) * columns + size_t(std::clamp(int((x - m_t0) * scale), 0, columns - 1));
        sum[cell] += y;
        ++count[cell];
    };
    int r = 0;
    for (const auto& [id, w] : frame.workers) {
        if (m_metric == HeatmapMetric::WaitShare) {
            // wait / (compute + communication + wait) at each tick
            const qsizetype n = std::min({w.computeMs.size(), w.commMs.size(), w.waitMs.size()});
            for (qsizetype i = firstAtOrAfter(w.waitMs, m_t0); i < n; ++i) {
                const double total = w.computeMs[i].y() + w.commMs[i].y() + w.waitMs[i].y();
                if (total > 0) add(r, w.waitMs[i].x(), w.waitMs[i].y() / total);
            }
        } else {
            const QVector<QPointF>& points =
                m_metric == HeatmapMetric::SamplesPerSecond ? w.samplesPerSecond : w.stalenessMean;
            for (qsizetype i = firstAtOrAfter(points, m_t0); i < points.size(); ++i) add(r, points[i].x(), points[i].y());
        }
        ++r;
    }
    m_low = 0;
    m_high = m_metric == HeatmapMetric::WaitShare ? 1.0 : 0.0;
    if (m_metric != HeatmapMetric::WaitShare)
        for (size_t i = 0; i < sum.size(); ++i)
            if (count[i]) m_high = std::max(m_high, sum[i] / count[i]);
    if (m_high <= m_low) m_high = m_low + 1;
    if (m_cells.width() != columns || m_cells.height() != rows) m_cells = QImage(columns, rows, QImage::Format_ARGB32_Premultiplied);  // drawn as it is, no conversion per paint
    m_cells.fill(Qt::transparent);
    const std::array<QRgb, kPaletteSize>& palette = colorPalette();
    const double toIndex = (kPaletteSize - 1) / (m_high - m_low);
    for (int row = 0; row < rows; ++row) {
        auto* line = reinterpret_cast<QRgb*>(m_cells.scanLine(row));
        for (int c = 0; c < columns; ++c)
            if (const int n = count[size_t(row) * columns + c]) {
                const double index = (sum[size_t(row) * columns + c] / n - m_low) * toIndex + 0.5;
                line[c] = palette[size_t(std::clamp(index, 0.0, double(kPaletteSize - 1)))];
            }
    }
    update();
}

const std::array<QRgb, WorkerHeatmap::kPaletteSize>& WorkerHeatmap::colorPalette() {
    static const std::array<QRgb, kPaletteSize> palette = [] {
        std::array<QRgb, kPaletteSize> colors{};
        for (size_t i = 0; i < kPaletteSize; ++i) colors[i] = colorAt(double(i) / (kPaletteSize - 1));
        return colors;
    }();
    return palette;
}

const QImage& WorkerHeatmap::colorBar() {
    // One column, high values at the top; drawn stretched (one image, not a rectangle per pixel row).
    static const QImage bar = [] {
        QImage image(1, int(kPaletteSize), QImage::Format_RGB32);
        for (size_t i = 0; i < kPaletteSize; ++i) image.setPixel(0, int(kPaletteSize - 1 - i), colorPalette()[i]);
        return image;
    }();
    return bar;
}

QRect WorkerHeatmap::plotRect() const {
    const QFontMetrics fm(font());
    const int left = fm.horizontalAdvance(QStringLiteral("000")) + 8;
    const int top = fm.height() + 4, bottom = fm.height() + 4;
    const int right = 14 + fm.horizontalAdvance(QStringLiteral("00000")) + 4;  // the colour bar and its labels
    return QRect(left, top, std::max(1, width() - left - right), std::max(1, height() - top - bottom));
}

int WorkerHeatmap::workerAt(const QPoint& position) const {
    const QRect plot = plotRect();
    if (m_rows.empty() || !plot.contains(position)) return -1;
    const int row = std::clamp(int((position.y() - plot.top()) * double(m_rows.size()) / plot.height()), 0,
                               int(m_rows.size()) - 1);
    return int(m_rows[size_t(row)]);
}

void WorkerHeatmap::mousePressEvent(QMouseEvent* event) {
    if (const int worker = workerAt(event->position().toPoint()); worker >= 0) emit workerClicked(quint32(worker));
}

void WorkerHeatmap::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Window));  // opaque: the panels behind are not painted first
    const QFontMetrics fm(font());
    const QRect plot = plotRect();
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(0, 0, width(), fm.height() + 2), Qt::AlignHCenter | Qt::AlignTop, title());
    painter.fillRect(plot, palette().color(QPalette::AlternateBase));
    if (m_cells.isNull()) {
        painter.drawText(plot, Qt::AlignCenter, tr("No figures yet"));
        return;
    }
    painter.drawImage(plot, m_cells);  // nearest neighbour: each cell a crisp block
    // Worker ids down the left, as many as fit.
    const int rows = int(m_rows.size());
    const double rowHeight = double(plot.height()) / rows;
    const int every = std::max(1, int(std::ceil(fm.height() / rowHeight)));
    for (int r = 0; r < rows; r += every) {
        const int y = plot.top() + int((r + 0.5) * rowHeight);
        painter.drawText(QRect(0, y - fm.height() / 2, plot.left() - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                         QString::number(m_rows[size_t(r)]));
    }
    // The time span along the bottom: start, middle and end.
    const QLocale locale;
    for (int i = 0; i <= 2; ++i) {
        const double t = m_t0 + (m_t1 - m_t0) * i / 2.0;
        const QString label = tr("%1 s").arg(locale.toString(t, 'f', 0));
        const int x = plot.left() + plot.width() * i / 2;
        const int w = fm.horizontalAdvance(label);
        painter.drawText(QRect(std::clamp(x - w / 2, 0, width() - w), plot.bottom() + 2, w, fm.height()),
                         Qt::AlignCenter, label);
    }
    // The colour bar with its range.
    const QRect bar(plot.right() + 4, plot.top(), 10, plot.height());
    painter.drawImage(bar, colorBar());
    const int digits = m_metric == HeatmapMetric::SamplesPerSecond ? 0 : 1;
    const QRect labels(bar.right() + 3, plot.top(), width() - bar.right() - 3, plot.height());
    painter.drawText(labels, Qt::AlignLeft | Qt::AlignTop, locale.toString(m_high, 'f', digits));
    painter.drawText(labels, Qt::AlignLeft | Qt::AlignBottom, locale.toString(m_low, 'f', digits));
}

}  // namespace syncscope::ui
