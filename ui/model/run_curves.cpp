// RunCurves (see run_curves.h).
#include "ui/model/run_curves.h"

#include <QFileInfo>

#include "engine/telemetry/event_kind.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::ui {

std::optional<double> RunCurves::firstEvent(wire::EventKind kind) const {
    for (const wire::Event& e : events)
        if (engine::eventKindOf(e) == kind) return e.time_s();
    return std::nullopt;
}

std::optional<RunCurves> loadRunCurves(const QString& path, double targetPercent, QString* error) {
    RunCurves run;
    run.path = path;
    run.name = QFileInfo(path).fileName();
    run.targetPercent = targetPercent;
    std::optional<double> start;
    QVector<wire::Event> events;
    QVector<wire::Tick> ticks;
    const auto note = [&](const wire::Event& e) {
        events.append(e);
        if (!start && engine::eventKindOf(e) == wire::EVENT_START) start = e.time_s();
    };
    engine::RunMetricsScan figures;  // the same pass feeds the run's figures
    auto scan = engine::forEachRecord(path.toStdString(), [&](wire::Record&& record) {
        figures.add(record);
        if (record.has_event()) note(record.event());
        if (!record.has_tick()) return;
        wire::Tick& tick = *record.mutable_tick();
        for (const auto& e : tick.events()) note(e);
        tick.clear_workers();
        tick.clear_events();
        ticks.append(std::move(tick));
    });
    if (!scan) {
        *error = QString::fromStdString(scan.status().message());
        return std::nullopt;
    }
    run.warning = QString::fromStdString(scan->warning);
    auto metrics = figures.finish(path.toStdString(), targetPercent / 100.0, 0);
    if (!metrics) {
        *error = QString::fromStdString(metrics.status().message());
        return std::nullopt;
    }
    run.metrics = *metrics;
    const double t0 = start.value_or(0);
    uint64_t evaluated = 0;
    for (const wire::Tick& t : ticks) {
        const double x = t.time_s() - t0;
        if (x < 0) continue;
        run.loss.append({x, t.train_loss()});
        run.updatesPerSecond.append({x, t.updates_per_s()});
        if (t.test_accuracy() >= 0 && t.test_version() != evaluated) {
            evaluated = t.test_version();
            run.accuracy.append({x, 100.0 * t.test_accuracy()});
        }
    }
    // Events recorded both as records and inside ticks appear once.
    QVector<wire::Event> unique;
    for (wire::Event e : events) {
        const bool seen = std::any_of(unique.begin(), unique.end(), [&](const wire::Event& u) {
            return u.unix_ms() == e.unix_ms() && u.kind() == e.kind() && u.detail() == e.detail();
        });
        if (seen) continue;
        e.set_time_s(e.time_s() - t0);
        unique.append(e);
    }
    run.events = std::move(unique);
    return run;
}

QString runComparisonCsv(const QVector<RunCurves>& runs) {
    const auto quoted = [](QString s) { return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"'); };
    QString csv = QStringLiteral("run,target_percent,time_to_target_s,final_accuracy_percent,samples_per_s,"
                                 "staleness_mean,staleness_p99,dropped\n");
    for (const RunCurves& r : runs) {
        const engine::RunMetrics& m = r.metrics;
        csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8\n")
                   .arg(quoted(r.name))
                   .arg(r.targetPercent)
                   .arg(m.timeToTarget ? QString::number(*m.timeToTarget, 'f', 2) : QString())
                   .arg(m.finalAccuracy >= 0 ? QString::number(100 * m.finalAccuracy, 'f', 2) : QString())
                   .arg(m.samplesPerSecond, 0, 'f', 1)
                   .arg(m.stalenessMean, 0, 'f', 3)
                   .arg(m.stalenessP99, 0, 'f', 0)
                   .arg(m.dropped);
    }
    return csv;
}

}  // namespace syncscope::ui
