// The console's telemetry, filled from the network thread and read by the GUI as immutable
// frames; each series is capped in length by reduction, so the whole run stays visible.
#pragma once

#include <QObject>

#include <memory>
#include <mutex>
#include <optional>

#include "ui/model/telemetry_frame.h"
#include "ui/model/telemetry_sink.h"

namespace syncscope::ui {

class TelemetryStore : public QObject, public TelemetrySink {
    Q_OBJECT

public:
    static constexpr int kDefaultMaxPointsPerSeries = 4096;
    static constexpr int kMinPointsPerSeries = 8;
    // The per-worker series (WorkerSeries has kSeriesPerWorker) share this many points in all, so
    // 64 workers keep a few MB of history, not 25 MB (and the GUI's frame holds a second copy).
    static constexpr int kWorkerPointBudget = 256 * 1024;
    static constexpr int kSeriesPerWorker = 6;

    // A series that reaches its cap is reduced to about half of it, evenly over the whole run: its
    // first and last points and each column's min and max. The run's own series are capped at
    // maxPointsPerSeries (at least kMinPointsPerSeries); a worker's at workerSeriesCap().
    explicit TelemetryStore(int maxPointsPerSeries = kDefaultMaxPointsPerSeries, QObject* parent = nullptr);

    // Any thread. Each emits changed() once, after the data is in. Ticks arrive in time order.
    void setHeader(const wire::RecordingHeader& header);
    void ingestTick(const wire::Tick& tick) override;
    // An event from a control reply, shown before the tick that also carries it arrives (that
    // copy is then skipped): a change the user made appears at once, not a tick later.
    void ingestEvent(const wire::Event& event);
    // Replaces everything: the snapshot's header, its ticks in order, then its events.
    void ingestSnapshot(const wire::Snapshot& snapshot) override;
    void clear();

    // GUI side: the current data; the same object until the store changes again.
    std::shared_ptr<const TelemetryFrame> frame() const;

    int maxPointsPerSeries() const { return m_maxPoints; }
    // maxPointsPerSeries, or less once `workers` workers' series would pass kWorkerPointBudget.
    int workerSeriesCap(int workers) const;

signals:
    // Payload-free and emitted from the ingesting thread: connect it queued and coalesce.
    void changed();

private:
    void resetLocked();
    void appendTickLocked(const wire::Tick& tick);
    void appendWhatIfLocked(double t, const wire::Tick& tick);
    static void append(QVector<QPointF>& series, double x, double y, int cap);
    bool haveRecentEventLocked(const wire::Event& event) const;

    const int m_maxPoints;
    mutable std::mutex m_mutex;
    TelemetryFrame m_live;
    std::optional<uint64_t> m_lastTestVersion;  // empty until the first evaluation arrives
    mutable std::shared_ptr<const TelemetryFrame> m_published;
};

}  // namespace syncscope::ui
