// ConsoleUnderTest and its views (see console_under_test.h).
#include "tests/bench/console_under_test.h"

#include <QChart>
#include <QChartView>
#include <QFile>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QThread>
#include <QValueAxis>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "ui/net/control_requests.h"
#include "ui/widgets/charts_panel.h"
#include "ui/widgets/steering_panel.h"

namespace syncscope::bench {
namespace {
constexpr int kSteeringMinimumWidth = 520;
constexpr int kPostedEventPasses = 3;
}  // namespace

bool BenchApplication::notify(QObject* receiver, QEvent* event) {
    // notify() runs on every thread that has events (the network thread too); count the GUI's.
    if (m_depth > 0 || QThread::currentThread() != thread()) return QApplication::notify(receiver, event);
    if (!m_clock.isValid()) m_clock.start();
    const qint64 start = m_clock.nsecsElapsed();
    ++m_depth;
    const bool handled = QApplication::notify(receiver, event);
    --m_depth;
    m_busyNs += m_clock.nsecsElapsed() - start;
    return handled;
}

void CountingSink::ingestTick(const wire::Tick& tick) {
    m_ticks.fetch_add(1);
    m_store.ingestTick(tick);
}

void CountingSink::ingestSnapshot(const wire::Snapshot& snapshot) { m_store.ingestSnapshot(snapshot); }

RealConsoleView::RealConsoleView(ui::ConsoleConnection& connection)
    : m_charts(new ui::ChartsPanel), m_steering(new ui::SteeringPanel) {
    m_steering->setMinimumWidth(kSteeringMinimumWidth);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_charts, 1);
    layout->addWidget(m_steering);
    connect(m_steering, &ui::SteeringPanel::requestReady, this,
            [this, &connection](const wire::ControlRequest& request) { m_lastRequestId = connection.sendCommand(request); });
}

void RealConsoleView::showFrame(const ui::TelemetryFrame& frame) {
    using Ms = std::chrono::duration<double, std::milli>;
    const auto start = std::chrono::steady_clock::now();
    m_charts->showFrame(frame);
    const auto charted = std::chrono::steady_clock::now();
    m_steering->showFrame(frame);
    chartsMs.push_back(Ms(charted - start).count());
    steeringMs.push_back(Ms(std::chrono::steady_clock::now() - charted).count());
}

NaiveSamplesView::NaiveSamplesView() : m_view(new QChartView(new QChart)), m_x(new QValueAxis), m_y(new QValueAxis) {
    m_view->chart()->setTitle(QStringLiteral("Samples/s per worker (naive append)"));
    m_view->chart()->addAxis(m_x, Qt::AlignBottom);
    m_view->chart()->addAxis(m_y, Qt::AlignLeft);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

void NaiveSamplesView::showFrame(const ui::TelemetryFrame& frame) {
    double xMax = 1.0;
    for (const auto& [id, worker] : frame.workers) {
        QLineSeries*& series = m_series[id];
        if (!series) {
            series = new QLineSeries;
            m_view->chart()->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
        }
        const double lastX = series->count() ? series->at(series->count() - 1).x() : -1.0;
        for (const QPointF& p : worker.samplesPerSecond) {
            if (p.x() <= lastX) continue;
            series->append(p);  // one re-layout per sample
            m_yMax = std::max(m_yMax, p.y());
        }
        if (!worker.samplesPerSecond.isEmpty()) xMax = std::max(xMax, worker.samplesPerSecond.last().x());
    }
    m_x->setRange(0.0, xMax);
    m_y->setRange(0.0, m_yMax * 1.05);
}

ConsoleUnderTest::ConsoleUnderTest() {
    connect(&m_store, &ui::TelemetryStore::changed, &m_framePacer, &ui::FramePacer::requestFrame,
            Qt::QueuedConnection);
    // As MainWindow does: a control reply's event goes into the store at once.
    connect(&m_connection, &ui::ConsoleConnection::commandReplied, this,
            [this](quint64, bool ok, const QString&, const QByteArray& serializedEvent) {
                if (const auto event = ok ? ui::eventFromReply(serializedEvent) : std::nullopt) {
                    m_store.ingestEvent(*event);
                    m_framePacer.requestPromptFrame();
                }
            });
    connect(&m_connection, &ui::ConsoleConnection::attached, this, [this] { m_attached = true; });
    connect(&m_connection, &ui::ConsoleConnection::detached, this, [this] { m_attached = false; });
}

ConsoleUnderTest::~ConsoleUnderTest() { delete m_view; }

void ConsoleUnderTest::setView(FrameView* view) {
    delete m_view;
    m_view = view;
    m_view->resize(1600, 1000);
    m_view->show();
}

void ConsoleUnderTest::showLatestFrame() {
    if (!m_view) return;
    const double cpuStart = threadCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    const std::shared_ptr<const ui::TelemetryFrame> frame = m_store.frame();
    const auto taken = std::chrono::steady_clock::now();
    m_view->showFrame(*frame);
    const auto dataIn = std::chrono::steady_clock::now();
    // What the event loop does next, as it would do it: deferred layouts, the charts' scene updates
    // (each paints its chart at once), the paint of every widget the frame changed. Events posted
    // while these run wait for the next pass. (A forced repaint() of the whole window, as this
    // bench once did, paints the unchanged steering boxes too: the console never does that.)
    for (int pass = 0; pass < kPostedEventPasses; ++pass) QCoreApplication::sendPostedEvents();
    using Ms = std::chrono::duration<double, std::milli>;
    const auto end = std::chrono::steady_clock::now();
    if (m_measuring) {
        m_frameMs.push_back(Ms(end - start).count());
        m_paintMs.push_back(Ms(end - dataIn).count());
        m_storeMs.push_back(Ms(taken - start).count());
        m_frameCpuMs.push_back(1e3 * (threadCpuSeconds() - cpuStart));
    }
    if (afterFrame) afterFrame(*frame);
}

double threadCpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

double residentMegabytes() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return -1.0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return -1.0;
}

}  // namespace syncscope::bench
