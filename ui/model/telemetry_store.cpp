// TelemetryStore: ticks become series under one mutex; frames are copies made on demand, cheap
// because QVector shares its data until the next append; full series are min/max-reduced.
#include "ui/model/telemetry_store.h"

#include <algorithm>
#include <cmath>

#include "ui/model/series_reducer.h"
#include "ui/model/worker_selection.h"

namespace syncscope::ui {
namespace {

// A full series is reduced over its whole time span to its first and last points plus the min
// and max of each of maxPoints/4 - 1 columns: at most half the cap, evenly covering the run,
// spikes kept. (Thinning only the older half each time would halve the oldest points again and
// again, until the start of a long run shrank to a single point.)
QVector<QPointF> thinned(const QVector<QPointF>& series, int maxPoints) {
    const int columns = std::max(1, maxPoints / 4 - 1);
    QVector<QPointF> out{series.first()};
    out += reduceMinMax(series.mid(1, series.size() - 2), series.first().x(), series.last().x(), columns);
    out.append(series.last());
    return out;
}

}  // namespace

TelemetryStore::TelemetryStore(int maxPointsPerSeries, QObject* parent)
    : QObject(parent), m_maxPoints(std::max(maxPointsPerSeries, kMinPointsPerSeries)) {}

void TelemetryStore::setHeader(const wire::RecordingHeader& header) {
    {
        std::lock_guard lock(m_mutex);
        m_live.header = header;
        ++m_live.revision;
    }
    emit changed();
}

void TelemetryStore::ingestTick(const wire::Tick& tick) {
    {
        std::lock_guard lock(m_mutex);
        appendTickLocked(tick);
        ++m_live.revision;
    }
    emit changed();
}

void TelemetryStore::ingestSnapshot(const wire::Snapshot& snapshot) {
    {
        std::lock_guard lock(m_mutex);
        resetLocked();
        m_live.header = snapshot.header();
        if (snapshot.has_catalog()) m_live.catalog = std::make_shared<const wire::Catalog>(snapshot.catalog());
        m_live.clientRole = snapshot.client_role();
        m_live.authentication = snapshot.authentication();
        for (const wire::Tick& tick : snapshot.ticks()) appendTickLocked(tick);
        for (const wire::Event& event : snapshot.events()) m_live.events.append(event);
    }
    emit changed();
}

void TelemetryStore::clear() {
    {
        std::lock_guard lock(m_mutex);
        resetLocked();
    }
    emit changed();
}

std::shared_ptr<const TelemetryFrame> TelemetryStore::frame() const {
    std::shared_ptr<TelemetryFrame> next;
    {
        std::lock_guard lock(m_mutex);
        if (m_published && m_published->revision == m_live.revision) return m_published;
        next = std::make_shared<TelemetryFrame>(m_live);  // series shared, not copied
    }
    // Outside the lock: the network thread goes on ingesting while the frame's lag is worked out.
    next->lag = lagOf(*next);
    std::lock_guard lock(m_mutex);
    if (!m_published || m_published->revision < next->revision) m_published = std::move(next);
    return m_published;
}

void TelemetryStore::resetLocked() {
    // The revision keeps growing, so a frame from before the reset never looks current.
    const quint64 revision = m_live.revision + 1;
    m_live = TelemetryFrame{};
    m_live.revision = revision;
    m_lastTestVersion.reset();
}

void TelemetryStore::appendTickLocked(const wire::Tick& tick) {
    const double t = tick.time_s();
    append(m_live.trainLoss, t, tick.train_loss(), m_maxPoints);
    append(m_live.updatesPerSecond, t, tick.updates_per_s(), m_maxPoints);
    append(m_live.version, t, static_cast<double>(tick.version()), m_maxPoints);
    // Every tick repeats the last evaluation; only a newly evaluated version is a new point.
    if (tick.test_accuracy() >= 0 && m_lastTestVersion != tick.test_version()) {
        append(m_live.testAccuracy, t, 100.0 * tick.test_accuracy(), m_maxPoints);
        m_lastTestVersion = tick.test_version();
    }
    const int cap = workerSeriesCap(std::max(int(m_live.workers.size()), tick.workers_size()));
    double samplesSum = 0;
    int samplesCount = 0;
    for (const wire::WorkerStats& stats : tick.workers()) {
        if (std::isfinite(stats.samples_per_s())) {
            samplesSum += stats.samples_per_s();
            ++samplesCount;
        }
        WorkerSeries& w = m_live.workers[stats.worker_id()];
        w.id = stats.worker_id();
        append(w.samplesPerSecond, t, stats.samples_per_s(), cap);
        append(w.stalenessMean, t, stats.staleness_mean(), cap);
        append(w.computeMs, t, stats.compute_ms(), cap);
        append(w.commMs, t, stats.comm_ms(), cap);
        append(w.waitMs, t, stats.wait_ms(), cap);
        append(w.batchSize, t, stats.batch_size(), cap);
        w.latest = stats;
    }
    if (samplesCount) append(m_live.meanSamplesPerSecond, t, samplesSum / samplesCount, m_maxPoints);
    if (tick.has_what_if()) appendWhatIfLocked(t, tick);
    for (const wire::Event& event : tick.events())
        if (!haveRecentEventLocked(event)) m_live.events.append(event);
    m_live.latest = tick;
}

void TelemetryStore::appendWhatIfLocked(double t, const wire::Tick& tick) {
    const auto participants = std::count_if(tick.workers().begin(), tick.workers().end(), [](const wire::WorkerStats& w) {
        return w.state() == wire::WORKER_COMPUTING || w.state() == wire::WORKER_WAITING;
    });
    if (participants == 0) return;
    for (const wire::AutoCandidate& option : tick.what_if().options()) {
        // A figure the charts cannot place (an engine's NaN) is not a point: Qt Charts fails on it.
        if (!std::isfinite(option.samples_per_s()) || !std::isfinite(option.mean_staleness())) continue;
        WhatIfSeries& series = m_live.whatIf[option.label()];
        append(series.samplesPerWorker, t, option.samples_per_s() / double(participants), m_maxPoints);
        append(series.staleness, t, option.mean_staleness(), m_maxPoints);
        series.latest = option;
    }
    m_live.latestWhatIf = tick.what_if();
}

bool TelemetryStore::haveRecentEventLocked(const wire::Event& event) const {
    // A reply's event reaches the store at most a tick or two before the tick's copy.
    const qsizetype from = std::max<qsizetype>(0, m_live.events.size() - 16);
    for (qsizetype i = m_live.events.size() - 1; i >= from; --i) {
        const wire::Event& e = m_live.events[i];
        if (e.unix_ms() == event.unix_ms() && e.kind() == event.kind() && e.detail() == event.detail()) return true;
    }
    return false;
}

void TelemetryStore::ingestEvent(const wire::Event& event) {
    {
        std::lock_guard lock(m_mutex);
        if (haveRecentEventLocked(event)) return;
        m_live.events.append(event);
        ++m_live.revision;
    }
    emit changed();
}

int TelemetryStore::workerSeriesCap(int workers) const {
    if (workers <= 0) return m_maxPoints;
    return std::clamp(kWorkerPointBudget / (kSeriesPerWorker * workers), kMinPointsPerSeries, m_maxPoints);
}

void TelemetryStore::append(QVector<QPointF>& series, double x, double y, int cap) {
    if (series.size() >= cap) {
        series = thinned(series, cap);
        series.reserve(cap);  // one allocation until the next reduction, not a doubling that overshoots the cap
    }
    series.append(QPointF(x, y));
}

}  // namespace syncscope::ui
