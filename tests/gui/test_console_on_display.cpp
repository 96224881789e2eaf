// The real console on a real X server (Xvfb with the openbox window manager), as a class sees it
// on a projector: every shipped scenario, --local, --attach, --open, --compare, --results and the presentation
// view, at 1280x720, 1920x1080 and 1024x768, windowed, maximised and full-screen, in en, de and
// zh_CN. Each console opens its window in the state asked for, runs 6 s without dying (a local
// cluster trains from about 2 s), and quits through the keyboard as a person does (Ctrl+Q; Return in
// the dialog that stops a local cluster):
// exit code 0, no engine process of it left. Offscreen runs hid a crash at start whenever the window
// filled the screen (issue 25). CI runs a covering set, every pair of entry, size, state and
// language (27 consoles); SYNCSCOPE_DISPLAY_MATRIX=full runs all 243. The three sizes of a row run
// side by side, one X server each. SYNCSCOPE_DISPLAY_SHOTS=DIR keeps a screenshot of each. Needs Xvfb, openbox, xdotool and xprop (setup.sh installs them).
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

#include "process_tree.h"

#include <map>
#include <memory>
#include <vector>

using syncscope::test::alive;
using syncscope::test::engineChildren;

namespace {

constexpr int kRunMs = 6'000;          // how long each console runs before it is quit (CI's 30 minutes)
constexpr int kWindowTimeoutMs = 30'000;
constexpr int kQuitTimeoutMs = 20'000;  // a local cluster stops within its 3 s grace, then the window closes
constexpr int kDialogAfterMs = 2'000;   // Ctrl+Q, then Return for the stop-the-cluster question

const QStringList kTools{QStringLiteral("Xvfb"), QStringLiteral("openbox"), QStringLiteral("xdotool"), QStringLiteral("xprop")};
const QList<QSize> kSizes{QSize(1280, 720), QSize(1920, 1080), QSize(1024, 768)};
const QStringList kStates{QStringLiteral("windowed"), QStringLiteral("maximized"), QStringLiteral("fullscreen")};
const QStringList kLanguages{QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("zh_CN")};
const QStringList kEntries{QStringLiteral("straggler-bsp"), QStringLiteral("bsp-vs-asp"), QStringLiteral("grouping-rescue"),
                           QStringLiteral("local"),         QStringLiteral("attach"),     QStringLiteral("open"),
                           QStringLiteral("compare"),       QStringLiteral("presentation"), QStringLiteral("results")};

QString sizeName(QSize size) { return QStringLiteral("%1x%2").arg(size.width()).arg(size.height()); }

// A program's output, run to its end (a few seconds at most): the X tools.
QString run(const QString& program, const QStringList& arguments, const QString& display) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display);
    process.setProcessEnvironment(env);
    process.start(program, arguments);
    if (!process.waitForFinished(10'000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
}

// One X server of one screen size, with a window manager on it.
struct XDisplay {
    std::unique_ptr<QProcess> server, manager;
    QString name;  // ":N"
};

// An engine process for --attach: the endpoints line a `serve` prints first.
std::unique_ptr<QProcess> startEngine(const QStringList& arguments) {
    auto process = std::make_unique<QProcess>();
    process->setProcessChannelMode(QProcess::SeparateChannels);
    process->start(QStringLiteral(SYNCSCOPE_ENGINE_BINARY), arguments);
    return process;
}

}  // namespace

class TestConsoleOnDisplay : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void opensRunsAndQuits_data();
    void opensRunsAndQuits();

private:
    bool startDisplay(QSize size, XDisplay& display);
    QStringList entryArguments(const QString& entry);
    void startAttachTarget();
    void stopAttachTarget();

    QTemporaryDir m_dir;
    std::map<QString, XDisplay> m_displays;  // by size name
    QString m_recordingA, m_recordingB;
    QString m_results;  ///< an experiment folder for --results: the full reproduction's claims, a part's figures
    std::unique_ptr<QProcess> m_coordinator;
    std::vector<std::unique_ptr<QProcess>> m_workers;
    QString m_control, m_credentials;
};

bool TestConsoleOnDisplay::startDisplay(QSize size, XDisplay& display) {
    display.server = std::make_unique<QProcess>();
    // -displayfd 1: the server picks a free display and prints its number once it listens.
    display.server->start(QStringLiteral("Xvfb"), {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"),
                                                  QStringLiteral("0"), sizeName(size) + QStringLiteral("x24"),
                                                  QStringLiteral("-nolisten"), QStringLiteral("tcp")});
    QDeadlineTimer deadline(15'000);
    while (!display.server->canReadLine() && !deadline.hasExpired()) display.server->waitForReadyRead(100);
    const QString number = QString::fromUtf8(display.server->readLine()).trimmed();
    if (number.isEmpty()) return false;
    display.name = QLatin1Char(':') + number;
    display.manager = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display.name);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("wm-config")));
    display.manager->setProcessEnvironment(env);
    display.manager->start(QStringLiteral("openbox"), {QStringLiteral("--sm-disable")});
    // Managed once the window manager announces itself on the root window.
    while (!deadline.hasExpired()) {
        if (run(QStringLiteral("xprop"), {QStringLiteral("-root"), QStringLiteral("_NET_SUPPORTING_WM_CHECK")}, display.name)
                .contains(QStringLiteral("window id")))
            return true;
        QTest::qWait(100);
    }
    return false;
}

void TestConsoleOnDisplay::initTestCase() {
    for (const QString& tool : kTools)
        if (QStandardPaths::findExecutable(tool).isEmpty())
            QSKIP(qPrintable(QStringLiteral("%1 is not installed (Debian: xvfb openbox xdotool x11-utils; ./setup.sh test installs them)").arg(tool)));
    QVERIFY(m_dir.isValid());
    for (QSize size : kSizes) {
        XDisplay& display = m_displays[sizeName(size)];
        QVERIFY2(startDisplay(size, display), qPrintable(QStringLiteral("Xvfb with openbox at %1 did not start").arg(sizeName(size))));
    }
    // Two short recordings for --open and --compare: bsp and asp on the real data set.
    m_recordingA = m_dir.filePath(QStringLiteral("bsp.ssrec"));
    m_recordingB = m_dir.filePath(QStringLiteral("asp.ssrec"));
    for (const auto& [mode, file] : {std::pair{QStringLiteral("bsp"), m_recordingA}, std::pair{QStringLiteral("asp"), m_recordingB}}) {
        QProcess engine;
        engine.start(QStringLiteral(SYNCSCOPE_ENGINE_BINARY),
                     {QStringLiteral("run"), QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--mode"), mode,
                      QStringLiteral("--max-seconds"), QStringLiteral("4"), QStringLiteral("--data"), QStringLiteral(SYNCSCOPE_FASHION_MNIST_DIR),
                      QStringLiteral("--record"), file});
        QVERIFY(engine.waitForFinished(120'000));
        QVERIFY2(engine.exitCode() == 0 && QFile::exists(file), engine.readAllStandardError().constData());
    }

    // An experiment folder for --results: the claims.json of the full run in docs/, and a grid's
    // results.csv as one part's figures.
    m_results = m_dir.filePath(QStringLiteral("results"));
    QVERIFY(QDir().mkpath(m_results + QStringLiteral("/persistent")));
    const QString docs = QStringLiteral(SYNCSCOPE_SOURCE_DIR "/docs/experiments");
    QVERIFY(QFile::copy(docs + QStringLiteral("/seeds-reproduction/claims.json"), m_results + QStringLiteral("/claims.json")));
    QVERIFY(QFile::copy(docs + QStringLiteral("/results.csv"), m_results + QStringLiteral("/persistent/results.csv")));
}

void TestConsoleOnDisplay::cleanupTestCase() {
    stopAttachTarget();
    for (auto& [size, display] : m_displays)
        for (QProcess* process : {display.manager.get(), display.server.get()})
            if (process) {
                process->terminate();
                if (!process->waitForFinished(5000)) process->kill();
                process->waitForFinished();
            }
}

void TestConsoleOnDisplay::startAttachTarget() {
    m_credentials = m_dir.filePath(QStringLiteral("attach-credentials"));
    QFile::remove(m_credentials);
    m_coordinator = startEngine({QStringLiteral("serve"), QStringLiteral("--workers"), QStringLiteral("2"),
                                 QStringLiteral("--max-seconds"), QStringLiteral("120"), QStringLiteral("--data"),
                                 QStringLiteral(SYNCSCOPE_FASHION_MNIST_DIR), QStringLiteral("--data-port"), QStringLiteral("0"),
                                 QStringLiteral("--control-port"), QStringLiteral("0"), QStringLiteral("--telemetry-port"),
                                 QStringLiteral("0"), QStringLiteral("--credentials"), m_credentials});
    QDeadlineTimer deadline(30'000);
    while (!m_coordinator->canReadLine() && !deadline.hasExpired()) m_coordinator->waitForReadyRead(100);
    QString data;
    for (const QString& word : QString::fromUtf8(m_coordinator->readLine()).trimmed().split(QLatin1Char(' '))) {
        if (word.startsWith(QStringLiteral("data="))) data = word.mid(5);
        if (word.startsWith(QStringLiteral("control="))) m_control = word.mid(8);
    }
    for (int i = 0; i < 2; ++i)
        m_workers.push_back(startEngine({QStringLiteral("work"), QStringLiteral("--connect"), data, QStringLiteral("--backend"),
                                         QStringLiteral("cpu"), QStringLiteral("--credentials"), m_credentials}));
}

void TestConsoleOnDisplay::stopAttachTarget() {
    for (auto& worker : m_workers) worker->kill();
    if (m_coordinator) m_coordinator->terminate();
    if (m_coordinator && !m_coordinator->waitForFinished(10'000)) m_coordinator->kill();
    for (auto& worker : m_workers) worker->waitForFinished();
    m_workers.clear();
    m_coordinator.reset();
}

QStringList TestConsoleOnDisplay::entryArguments(const QString& entry) {
    if (entry == QLatin1String("local")) return {QStringLiteral("--local"), QStringLiteral("4")};
    if (entry == QLatin1String("open")) return {QStringLiteral("--open"), m_recordingA};
    if (entry == QLatin1String("compare")) return {QStringLiteral("--compare"), m_recordingA, QStringLiteral("--compare"), m_recordingB};
    if (entry == QLatin1String("results")) return {QStringLiteral("--results"), m_results};
    if (entry == QLatin1String("presentation"))
        return {QStringLiteral("--scenario"), QStringLiteral("bsp-vs-asp"), QStringLiteral("--presentation")};
    if (entry == QLatin1String("attach")) {
        startAttachTarget();
        return {QStringLiteral("--attach"), m_control, QStringLiteral("--credentials"), m_credentials};
    }
    return {QStringLiteral("--scenario"), entry};
}

// One console on one display, driven a step at a time so that a row's three (one per screen size)
// run side by side: opens its window in the state asked for, runs kRunMs, quits through the keyboard.
class ConsoleOnScreen {
public:
    ConsoleOnScreen(QString tag, QStringList arguments, QString display, QSize size, QString state)
        : m_tag(std::move(tag)), m_arguments(std::move(arguments)), m_display(std::move(display)), m_size(size), m_state(std::move(state)) {}
    ~ConsoleOnScreen() {
        if (m_console.state() != QProcess::NotRunning) {
            m_console.kill();
            m_console.waitForFinished();
        }
    }

    void start() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));  // the X server, not ctest's offscreen
        env.insert(QStringLiteral("DISPLAY"), m_display);
        for (const char* variable : {"XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "TMPDIR"}) env.insert(QString::fromLatin1(variable), m_home.path());
        m_console.setProcessEnvironment(env);
        m_console.start(QStringLiteral(SYNCSCOPE_CONSOLE_BINARY), m_arguments);
        if (!m_console.waitForStarted(10'000)) return fail(QStringLiteral("the console did not start"));
        m_running.start();
    }
    bool done() const { return m_phase == Phase::Done; }
    const QString& failure() const { return m_failure; }
    /// One step of the run; call until done().
    void step() {
        switch (m_phase) {
        case Phase::Window: return findWindow();
        case Phase::Settle:
            if (m_phaseTime.elapsed() >= 1000) checkWindowState();  // the window manager's answer to the state asked for
            return;
        case Phase::Running: return watchRun();
        case Phase::Quitting: return watchQuit();
        case Phase::Reaping: return watchEngines();
        case Phase::Done: return;
        }
    }

private:
    enum class Phase { Window, Settle, Running, Quitting, Reaping, Done };

    void next(Phase phase) {
        m_phase = phase;
        m_phaseTime.start();
    }
    void fail(const QString& why) {
        m_failure = m_tag + QStringLiteral(": ") + why;
        m_phase = Phase::Done;
    }
    QString died() {
        return QStringLiteral("the console ended (exit %1, %2) after %3: %4")
            .arg(m_console.exitCode())
            .arg(m_console.exitStatus() == QProcess::CrashExit ? QStringLiteral("crashed") : QStringLiteral("exited"))
            .arg(m_arguments.join(QLatin1Char(' ')), QString::fromUtf8(m_console.readAllStandardError().right(2000)));
    }
    bool stillRunning() {
        if (m_console.state() == QProcess::Running) return true;
        fail(died());
        return false;
    }
    void findWindow() {
        if (!stillRunning()) return;
        for (const QString& id : run(QStringLiteral("xdotool"), {QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--pid"),
                                                                  QString::number(m_console.processId())}, m_display).split(QLatin1Char('\n')))
            if (!id.isEmpty() && run(QStringLiteral("xdotool"), {QStringLiteral("getwindowname"), id}, m_display) == QLatin1String("SyncScope"))
                m_window = id;
        if (!m_window.isEmpty()) return next(Phase::Settle);
        if (m_running.elapsed() > kWindowTimeoutMs) fail(QStringLiteral("no SyncScope window was shown"));
    }
    void checkWindowState() {
        if (!stillRunning()) return;
        const QString wmState = run(QStringLiteral("xprop"), {QStringLiteral("-id"), m_window, QStringLiteral("_NET_WM_STATE")}, m_display);
        const QString geometry = run(QStringLiteral("xdotool"), {QStringLiteral("getwindowgeometry"), QStringLiteral("--shell"), m_window}, m_display);
        const QRegularExpressionMatch w = QRegularExpression(QStringLiteral("WIDTH=(\\d+)\\s+HEIGHT=(\\d+)")).match(geometry);
        if (!w.hasMatch()) return fail(QStringLiteral("no geometry: ") + geometry);
        const QSize shown(w.captured(1).toInt(), w.captured(2).toInt());
        const bool maximized = wmState.contains(QStringLiteral("_NET_WM_STATE_MAXIMIZED_HORZ")) && wmState.contains(QStringLiteral("_NET_WM_STATE_MAXIMIZED_VERT"));
        if (m_state == QLatin1String("fullscreen") && (!wmState.contains(QStringLiteral("_NET_WM_STATE_FULLSCREEN")) || shown != m_size))
            return fail(QStringLiteral("not full-screen: %1, %2").arg(wmState, sizeName(shown)));
        if (m_state == QLatin1String("maximized") && (!maximized || shown.width() != m_size.width() || shown.height() <= m_size.height() * 9 / 10))
            return fail(QStringLiteral("not maximised: %1, %2").arg(wmState, sizeName(shown)));
        if (m_state == QLatin1String("windowed") &&
            (wmState.contains(QStringLiteral("MAXIMIZED")) || wmState.contains(QStringLiteral("FULLSCREEN")) || shown.width() > m_size.width() ||
             shown.height() > m_size.height()))
            return fail(QStringLiteral("not an ordinary window within the screen: %1, %2").arg(wmState, sizeName(shown)));
        next(Phase::Running);
    }
    // kRunMs of a live run (or a replay) on the screen, then quit as a person does: Ctrl+Q.
    void watchRun() {
        if (!stillRunning()) return;
        for (qint64 pid : engineChildren(m_console.processId()))
            if (!m_engines.contains(pid)) m_engines << pid;
        if (m_running.elapsed() < kRunMs) return;
        if (const QString shots = qEnvironmentVariable("SYNCSCOPE_DISPLAY_SHOTS"); !shots.isEmpty())
            run(QStringLiteral("import"), {QStringLiteral("-window"), QStringLiteral("root"),
                                          QDir(shots).filePath(QString(m_tag).replace(QLatin1Char(' '), QLatin1Char('-')) + QStringLiteral(".png"))},
                m_display);
        run(QStringLiteral("xdotool"), {QStringLiteral("windowactivate"), QStringLiteral("--sync"), m_window, QStringLiteral("key"),
                                        QStringLiteral("--clearmodifiers"), QStringLiteral("ctrl+q")},
            m_display);
        next(Phase::Quitting);
    }
    // Return for "Stop the local cluster?" (its default, Yes), then a clean exit.
    void watchQuit() {
        if (m_console.state() != QProcess::NotRunning && m_phaseTime.elapsed() < kQuitTimeoutMs) {
            if (!m_answered && m_phaseTime.elapsed() > kDialogAfterMs) {
                run(QStringLiteral("xdotool"), {QStringLiteral("key"), QStringLiteral("Return")}, m_display);
                m_answered = true;
            }
            return;
        }
        if (m_console.state() != QProcess::NotRunning) return fail(QStringLiteral("Ctrl+Q (and Return) did not end the console"));
        if (m_console.exitStatus() != QProcess::NormalExit || m_console.exitCode() != 0) return fail(died());
        next(Phase::Reaping);
    }
    void watchEngines() {
        for (qint64 pid : m_engines)
            if (alive(pid)) {
                if (m_phaseTime.elapsed() > 5000) fail(QStringLiteral("engine process %1 outlived the console").arg(pid));
                return;
            }
        m_phase = Phase::Done;
    }

    QString m_tag;
    QStringList m_arguments;
    QString m_display;
    QSize m_size;
    QString m_state;
    QTemporaryDir m_home;
    QProcess m_console;
    Phase m_phase = Phase::Window;
    QElapsedTimer m_running, m_phaseTime;
    QString m_window;
    QList<qint64> m_engines;
    bool m_answered = false;
    QString m_failure;
};

void TestConsoleOnDisplay::opensRunsAndQuits_data() {
    QTest::addColumn<QString>("entry");
    QTest::addColumn<QStringList>("states");     // per size, in kSizes' order
    QTest::addColumn<QStringList>("languages");  // the same
    if (qEnvironmentVariable("SYNCSCOPE_DISPLAY_MATRIX") == QLatin1String("full")) {
        for (const QString& entry : kEntries)
            for (const QString& state : kStates)
                for (const QString& language : kLanguages)
                    QTest::addRow("%s %s %s", qPrintable(entry), qPrintable(state), qPrintable(language))
                        << entry << QStringList{state, state, state} << QStringList{language, language, language};
        return;
    }
    // Every entry at every size; the state and the language by two orthogonal Latin squares, so each
    // pair of values of any two of the four meets in some console.
    for (int e = 0; e < int(kEntries.size()); ++e) {
        QStringList states, languages;
        for (int s = 0; s < int(kSizes.size()); ++s) {
            states << kStates[(s + e) % 3];
            languages << kLanguages[(s + 2 * e) % 3];
        }
        QTest::addRow("%s", qPrintable(kEntries[e])) << kEntries[e] << states << languages;
    }
}

// A row's consoles, one per screen size, run side by side (each on its own X server).
void TestConsoleOnDisplay::opensRunsAndQuits() {
    QFETCH(QString, entry);
    QFETCH(QStringList, states);
    QFETCH(QStringList, languages);
    const QStringList common = entryArguments(entry);
    const auto stopTarget = qScopeGuard([&] {
        if (entry == QLatin1String("attach")) stopAttachTarget();
    });
    std::vector<std::unique_ptr<ConsoleOnScreen>> consoles;
    for (int s = 0; s < int(kSizes.size()); ++s) {
        QStringList arguments = common;
        arguments << QStringLiteral("--lang") << languages[s] << QStringLiteral("--engine") << QStringLiteral(SYNCSCOPE_ENGINE_BINARY);
        if (states[s] != QLatin1String("windowed")) arguments << QStringLiteral("--") + states[s];
        const QString tag = QStringList{entry, sizeName(kSizes[s]), states[s], languages[s]}.join(QLatin1Char(' '));
        consoles.push_back(std::make_unique<ConsoleOnScreen>(tag, arguments, m_displays.at(sizeName(kSizes[s])).name, kSizes[s], states[s]));
        consoles.back()->start();
    }
    for (bool running = true; running;) {
        running = false;
        for (auto& console : consoles) {
            console->step();
            running = running || !console->done();
        }
        if (running) QTest::qWait(200);
    }
    QStringList failures;
    for (auto& console : consoles)
        if (!console->failure().isEmpty()) failures << console->failure();
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestConsoleOnDisplay)
#include "test_console_on_display.moc"
