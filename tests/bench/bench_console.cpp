// bench_console: the console under load, through the real telemetry path. A feeder thread publishes
// 64 workers' ticks over ZeroMQ; the real NetworkWorker, TelemetryStore and chart panels draw them
// on MainWindow's coalescing timer. Then the control round trip against a real 2-worker cluster.
#include <QEventLoop>
#include <QFile>
#include <QSlider>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>

#include "tests/bench/console_tick_feeder.h"
#include "tests/bench/console_under_test.h"
#include "tests/integration/cluster_fixture.h"
#include "ui/net/control_requests.h"
#include "ui/widgets/steering_panel.h"

using namespace syncscope;
using namespace syncscope::bench;
using Clock = std::chrono::steady_clock;

namespace {

struct LoadFigures {
    std::vector<double> frameMs, frameCpuMs, paintMs, storeMs, chartsMs, steeringMs;
    double busyCpuFraction = 0;
    double busyFraction = 0, wallSeconds = 0, rssWarm = 0, rssEnd = 0, publishHz = 0;
    int sent = 0, received = 0;
    QString loadAverage;  // /proc/loadavg at the end: other processes on the machine skew every time here
};

struct RoundTripFigures {
    std::vector<double> replyMs, shownMs;
    int failed = 0;
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return -1.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

// Runs the event loop until `done` holds or `timeoutMs` passes; false on timeout.
bool spinUntil(const std::function<bool()>& done, int timeoutMs) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done() || Clock::now() > deadline) loop.quit();
    });
    poll.start();
    if (!done()) loop.exec();
    return done();
}

// The feeder's run shown by `view`: attach, warm up, then measure to the last tick.
using ViewFactory = std::function<FrameView*(ConsoleUnderTest&)>;
std::optional<LoadFigures> runLoad(BenchApplication& app, const FeederSettings& feed, const ViewFactory& makeView,
                                   int warmupTicks, const QString& pngPath = {}) {
    TickFeeder feeder(feed);
    ConsoleUnderTest console;
    console.setView(makeView(console));
    console.connection().attach(QString::fromStdString(feeder.controlEndpoint()), QString::fromStdString(feeder.telemetryEndpoint()));
    if (!spinUntil([&] { return console.attached(); }, 10'000)) {
        std::fprintf(stderr, "bench_console: the console did not attach to the feeder at %s\n", feeder.telemetryEndpoint().c_str());
        return std::nullopt;
    }
    const int before = console.ticksReceived();  // the feeder's time-0 "waiting" ticks
    feeder.begin();
    spinUntil([&] { return console.ticksReceived() - before >= warmupTicks; }, 600'000);
    LoadFigures f;
    f.rssWarm = residentMegabytes();
    console.setMeasuring(true);
    app.resetBusy();
    const double cpuStart = threadCpuSeconds();
    const auto start = Clock::now();
    spinUntil([&] { return feeder.finished(); }, 3'600'000);
    // Whatever is still in flight: until every tick arrived or 2 s of nothing new.
    int seen = -1;
    while (console.ticksReceived() - before < feeder.sent() && seen != console.ticksReceived()) {
        seen = console.ticksReceived();
        spinUntil([&] { return console.ticksReceived() - before >= feeder.sent(); }, 2'000);
    }
    spinUntil([] { return false; }, 100);  // the last coalesced frame
    f.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    f.busyFraction = app.busySeconds() / f.wallSeconds;
    f.busyCpuFraction = (threadCpuSeconds() - cpuStart) / f.wallSeconds;
    f.frameCpuMs = console.frameCpuMs();
    f.rssEnd = residentMegabytes();
    if (QFile loadavg(QStringLiteral("/proc/loadavg")); loadavg.open(QIODevice::ReadOnly))
        f.loadAverage = QString::fromLatin1(loadavg.readAll()).section(QLatin1Char(' '), 0, 2);
    f.frameMs = console.frameMs();
    if (!pngPath.isEmpty() && !console.view()->grab().save(pngPath))
        std::fprintf(stderr, "bench_console: could not write %s\n", qPrintable(pngPath));
    f.paintMs = console.paintMs();
    f.storeMs = console.storeMs();
    if (auto* real = dynamic_cast<RealConsoleView*>(console.view())) {
        const size_t skip = real->chartsMs.size() - std::min(real->chartsMs.size(), f.frameMs.size());  // warm-up frames
        f.chartsMs.assign(real->chartsMs.begin() + long(skip), real->chartsMs.end());
        f.steeringMs.assign(real->steeringMs.begin() + long(skip), real->steeringMs.end());
    }
    f.sent = feeder.sent();
    f.received = console.ticksReceived() - before;
    f.publishHz = feeder.publishSeconds() > 0 ? (feeder.sent() - 1) / feeder.publishSeconds() : 0.0;
    return f;
}

// Moves a worker's slowdown slider (even samples) or sends a learning rate (odd samples) through the
// console's connection; times the reply (with its event) and the frame that first draws the event.
std::optional<RoundTripFigures> runRoundTrip(int samples) {
    testing::ClusterFixture cluster;
    if (engine::Status s = cluster.startCoordinator({"--workers", "2", "--max-seconds", "600"}); !s) {
        std::fprintf(stderr, "bench_console: cannot start the coordinator: %s\n", s.message().c_str());
        return std::nullopt;
    }
    cluster.startWorker();
    cluster.startWorker();
    ConsoleUnderTest console;
    auto* view = new RealConsoleView(console.connection());
    console.setView(view);
    console.connection().attach(QString::fromStdString(cluster.endpoints().control),
                                QString::fromStdString(cluster.endpoints().telemetry),
                                cluster.credentialsPath());  // the cluster's keys: its endpoints authenticate
    std::vector<uint32_t> workers;
    const auto countControlEvents = [](const ui::TelemetryFrame& frame) {
        return std::count_if(frame.events.begin(), frame.events.end(), [](const wire::Event& e) {
            return e.kind() == wire::EVENT_SLOWDOWN || e.kind() == wire::EVENT_LEARNING_RATE;
        });
    };
    qsizetype controlEvents = 0;
    Clock::time_point sentAt, shownAt;
    bool waitingForShown = false;
    console.afterFrame = [&](const ui::TelemetryFrame& frame) {
        workers.clear();
        for (const auto& [id, w] : frame.workers) workers.push_back(id);
        const qsizetype now = countControlEvents(frame);
        if (waitingForShown && now > controlEvents) {
            shownAt = Clock::now();
            waitingForShown = false;
        }
        controlEvents = now;
    };
    quint64 awaitedReply = 0;
    Clock::time_point repliedAt;
    bool replyOk = false;
    QObject::connect(&console.connection(), &ui::ConsoleConnection::commandReplied, &console,
                     [&](quint64 id, bool ok, const QString& error, const QByteArray&) {
                         if (id != awaitedReply) return;
                         repliedAt = Clock::now();
                         replyOk = ok;
                         if (!ok) std::fprintf(stderr, "bench_console: command refused: %s\n", qPrintable(error));
                         awaitedReply = 0;
                     });
    if (!spinUntil([&] { return console.attached() && workers.size() >= 2 && view->steering()->slowdownSlider(workers[1]); }, 60'000)) {
        std::fprintf(stderr, "bench_console: the console did not see 2 workers with their sliders (attached: %s, workers "
                             "in its frames: %zu, slider of the second: %s):\n%s\n",
                     console.attached() ? "yes" : "no", workers.size(),
                     workers.size() >= 2 && view->steering()->slowdownSlider(workers[1]) ? "yes" : "no",
                     qPrintable(cluster.logs()));
        return std::nullopt;
    }
    RoundTripFigures f;
    std::mt19937 random(7);
    std::uniform_int_distribution<int> pause(30, 250);  // not in step with the engine's 10 Hz tick
    for (int i = 0; i < samples; ++i) {
        spinUntil([] { return false; }, pause(random));
        waitingForShown = true;
        sentAt = Clock::now();
        if (i % 2 == 0) {
            QSlider* slider = view->steering()->slowdownSlider(workers[size_t(i / 2) % workers.size()]);
            slider->setValue(slider->value() == 11 ? 12 : 11);  // factor 1.1 <-> 1.2: sends set_slowdown
            awaitedReply = view->lastRequestId();
        } else {
            awaitedReply = console.connection().sendCommand(ui::setLearningRateRequest(i % 4 == 1 ? 0.04f : 0.05f));
        }
        const bool done = spinUntil([&] { return awaitedReply == 0 && !waitingForShown; }, 5'000);
        if (!done || !replyOk) {
            ++f.failed;
            waitingForShown = false;
            awaitedReply = 0;
            continue;
        }
        f.replyMs.push_back(std::chrono::duration<double, std::milli>(repliedAt - sentAt).count());
        f.shownMs.push_back(std::chrono::duration<double, std::milli>(shownAt - sentAt).count());
    }
    return f;
}

const char* verdict(bool pass) { return pass ? "PASS" : "MISS"; }

// The host's CPU, named beside every figure: hosts differ (an AMD EPYC, a slower 2.5 GHz Intel Xeon).
QString cpuModel() {
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (!cpuinfo.open(QIODevice::ReadOnly)) return QStringLiteral("unknown CPU");
    int cpus = 0;
    QString model, mhz;
    const auto value = [](const QByteArray& line) { return QString::fromLatin1(line.mid(line.indexOf(':') + 1)).trimmed(); };
    for (const QByteArray& line : cpuinfo.readAll().split('\n')) {
        if (line.startsWith("processor")) ++cpus;
        if (model.isEmpty() && line.startsWith("model name")) model = value(line);
        if (mhz.isEmpty() && line.startsWith("cpu MHz")) mhz = value(line);
    }
    if (model.isEmpty()) model = QStringLiteral("unknown CPU");
    // A virtual machine's model name may carry no clock ("Intel(R) Xeon(R) Processor"): add the kernel's.
    if (!model.contains(QStringLiteral("Hz")) && !mhz.isEmpty())
        model += QStringLiteral(" at %1 MHz").arg(qRound(mhz.toDouble()));
    return QStringLiteral("%1 x %2").arg(cpus).arg(model);
}

void printFigures(const FeederSettings& feed, const LoadFigures& load, const std::optional<LoadFigures>& peer,
                  const std::optional<RoundTripFigures>& rt) {
    const double p50 = percentile(load.frameMs, 0.5), p95 = percentile(load.frameMs, 0.95), max = percentile(load.frameMs, 1.0);
    const double growth = load.rssEnd - load.rssWarm;
    std::printf("\nbench_console: %d workers, %d ticks (%.0f s of run time) at %.3g x real time, an event every %d ticks; "
                "%zu frames measured; load average %s; CPU %s\n",
                feed.workers, feed.ticks, feed.ticks / 10.0, feed.speedup, feed.eventEvery, load.frameMs.size(),
                qPrintable(load.loadAverage), qPrintable(cpuModel()));
    std::printf("%-44s %12s %12s %6s\n", "figure", "measured", "target", "");
    std::printf("%-44s %9.2f ms %12s %6s\n", "frame time p50", p50, "", "");
    std::printf("%-44s %9.2f ms %9s ms %6s\n", "frame time p95", p95, "<= 33", verdict(p95 <= 33.0));
    std::printf("%-44s %9.2f ms %12s %6s\n", "frame time max", max, "", "");
    const double fps = load.wallSeconds > 0 ? double(load.frameMs.size()) / load.wallSeconds : 0.0;
    std::printf("%-44s %9.1f /s %9s /s %6s\n", "frames drawn per second", fps, ">= 10", verdict(fps >= 10.0));
    const double c95 = percentile(load.frameCpuMs, 0.95);
    std::printf("%-44s %9.2f ms %12s %6s\n", "frame GUI-thread CPU time p50", percentile(load.frameCpuMs, 0.5), "", "");
    std::printf("%-44s %9.2f ms %9s ms %6s\n", "frame GUI-thread CPU time p95", c95, "<= 33", verdict(c95 <= 33.0));
    std::printf("%-44s %9.2f ms %12s %6s\n", "  of which TelemetryStore::frame(), p50", percentile(load.storeMs, 0.5), "", "");
    std::printf("%-44s %9.2f ms %12s %6s\n", "  of which TelemetryStore::frame(), max", percentile(load.storeMs, 1.0), "", "");
    std::printf("%-44s %9.2f ms %12s %6s\n", "  of which ChartsPanel::showFrame, p50", percentile(load.chartsMs, 0.5), "", "");
    std::printf("%-44s %9.2f ms %12s %6s\n", "  of which SteeringPanel::showFrame, p50", percentile(load.steeringMs, 0.5), "", "");
    std::printf("%-44s %9.2f ms %12s %6s\n", "  of which layout + paint, p50", percentile(load.paintMs, 0.5), "", "");
    std::printf("%-44s %10.1f %% %10s %% %6s\n", "GUI thread busy (notify() time / wall)", 100 * load.busyFraction, "<= 30",
                verdict(load.busyFraction <= 0.30));
    std::printf("%-44s %10.1f %% %10s %% %6s\n", "GUI thread CPU time / wall", 100 * load.busyCpuFraction, "<= 30",
                verdict(load.busyCpuFraction <= 0.30));
    std::printf("%-44s %9.1f MB %9s MB %6s\n", "memory growth (VmRSS end - after warm-up)", growth, "<= 20", verdict(growth <= 20.0));
    std::printf("%-44s %9.1f MB %12s %6s\n", "  VmRSS after warm-up", load.rssWarm, "", "");
    std::printf("%-44s %9.1f MB %12s %6s\n", "  VmRSS at the end", load.rssEnd, "", "");
    std::printf("%-44s %9.1f Hz %9.1f Hz %6s\n", "feeder publish rate", load.publishHz, 10.0 * feed.speedup, "");
    std::printf("%-44s %6d / %-5d %12s %6s\n", "ticks received / sent", load.received, load.sent, "", "");
    if (rt) {
        const double r95 = percentile(rt->replyMs, 0.95), s95 = percentile(rt->shownMs, 0.95);
        std::printf("%-44s %9.2f ms %12s %6s\n", "control: reply with its event, p50", percentile(rt->replyMs, 0.5), "", "");
        std::printf("%-44s %9.2f ms %9s ms %6s\n", "control: reply with its event, p95", r95, "<= 100", verdict(r95 <= 100.0));
        std::printf("%-44s %9.2f ms %12s %6s\n", "control: event drawn on the charts, p50", percentile(rt->shownMs, 0.5), "", "");
        std::printf("%-44s %9.2f ms %9s ms %6s\n", "control: event drawn on the charts, p95", s95, "<= 100", verdict(s95 <= 100.0));
        std::printf("%-44s %6zu (%d failed)\n", "control samples", rt->shownMs.size(), rt->failed);
    }
    if (peer) {
        std::printf("%-44s %9.2f ms %12s %6s\n", "peer (naive append, 1 chart): frame p50", percentile(peer->frameMs, 0.5), "", "");
        std::printf("%-44s %9.2f ms %12s %6s\n", "peer (naive append, 1 chart): frame p95", percentile(peer->frameMs, 0.95), "", "");
        std::printf("%-44s %9.2f ms %12s %6s\n", "peer (naive append, 1 chart): frame max", percentile(peer->frameMs, 1.0), "", "");
        std::printf("%-44s %9.2f ms %12s %6s\n", "peer (naive append, 1 chart): frame CPU p95", percentile(peer->frameCpuMs, 0.95), "", "");
        std::printf("%-44s %10.1f %% %12s %6s\n", "peer (naive append, 1 chart): GUI busy", 100 * peer->busyFraction, "", "");
        std::printf("%-44s %9.1f MB %12s %6s\n", "peer (naive append, 1 chart): memory growth", peer->rssEnd - peer->rssWarm, "", "");
    }
    // One machine-readable line.
    std::printf("\nBENCH console workers=%d ticks=%d speedup=%g frames=%zu fps=%.2f frame_p50_ms=%.3f frame_p95_ms=%.3f frame_max_ms=%.3f "
                "busy=%.4f busy_cpu=%.4f frame_cpu_p95_ms=%.3f rss_growth_mb=%.2f received=%d sent=%d control_reply_p50_ms=%.3f control_reply_p95_ms=%.3f "
                "control_shown_p50_ms=%.3f control_shown_p95_ms=%.3f peer_frame_p95_ms=%.3f peer_busy=%.4f cpu=\"%s\"\n",
                feed.workers, feed.ticks, feed.speedup, load.frameMs.size(), fps, p50, p95, max, load.busyFraction, load.busyCpuFraction, c95, growth,
                load.received, load.sent, rt ? percentile(rt->replyMs, 0.5) : -1.0, rt ? percentile(rt->replyMs, 0.95) : -1.0,
                rt ? percentile(rt->shownMs, 0.5) : -1.0, rt ? percentile(rt->shownMs, 0.95) : -1.0,
                peer ? percentile(peer->frameMs, 0.95) : -1.0, peer ? peer->busyFraction : -1.0, qPrintable(cpuModel()));
}

}  // namespace

int main(int argc, char** argv) {
    BenchApplication app(argc, argv);
    CLI::App cli{"The console's GUI benchmark: 64 simulated workers through the real telemetry path, and the control round trip"};
    FeederSettings feed;
    bool realTime = false, skipPeer = false, skipControl = false;
    int warmupTicks = 300, samples = 60;
    std::string pngPath;
    cli.add_option("--workers", feed.workers, "Simulated workers")->capture_default_str()->check(CLI::Range(1, 1024));
    cli.add_option("--ticks", feed.ticks, "Ticks of run time (10 a second)")->capture_default_str()->check(CLI::Range(10, 1'000'000));
    cli.add_option("--speedup", feed.speedup, "Replay speed over real time")->capture_default_str()->check(CLI::Range(0.1, 1000.0));
    cli.add_option("--event-every", feed.eventEvery, "Ticks between events (each is a marker on every chart)")
        ->capture_default_str()->check(CLI::Range(1, 10'000'000));
    cli.add_flag("--real-time", realTime, "Publish at the engine's real 10 Hz (same as --speedup 1)");
    cli.add_option("--warmup-ticks", warmupTicks, "Ticks before measuring starts")->capture_default_str()->check(CLI::Range(0, 100'000));
    cli.add_option("--control-samples", samples, "Control round trips to time")->capture_default_str()->check(CLI::Range(1, 10'000));
    cli.add_option("--png", pngPath, "Save the console's window at the end of the load as this PNG");
    cli.add_flag("--skip-peer", skipPeer, "Do not run the naive append() peer");
    cli.add_flag("--skip-control", skipControl, "Do not start a cluster for the control round trip");
    CLI11_PARSE(cli, argc, argv);
    if (realTime) feed.speedup = 1.0;
    warmupTicks = std::min(warmupTicks, feed.ticks / 2);

    std::printf("bench_console: load, %d workers x %d ticks at %gx real time ...\n", feed.workers, feed.ticks, feed.speedup);
    std::fflush(stdout);
    const auto realView = [](ConsoleUnderTest& console) -> FrameView* { return new RealConsoleView(console.connection()); };
    const std::optional<LoadFigures> load = runLoad(app, feed, realView, warmupTicks, QString::fromStdString(pngPath));
    if (!load) return 1;
    std::optional<LoadFigures> peer;
    if (!skipPeer) {
        std::printf("bench_console: peer, the same load drawn by one chart fed with append() per sample ...\n");
        std::fflush(stdout);
        peer = runLoad(app, feed, [](ConsoleUnderTest&) -> FrameView* { return new NaiveSamplesView; }, warmupTicks);
        if (!peer) return 1;
    }
    std::optional<RoundTripFigures> roundTrip;
    if (!skipControl) {
        std::printf("bench_console: control round trip against a local cluster of 2 workers, %d samples ...\n", samples);
        std::fflush(stdout);
        roundTrip = runRoundTrip(samples);
        if (!roundTrip) return 1;
    }
    printFigures(feed, *load, peer, roundTrip);
    return 0;
}
