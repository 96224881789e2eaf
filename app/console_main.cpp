// syncscope: the desktop console. Attaches to a coordinator (--attach), replays a recording (--open),
// starts a local cluster (--local N), plays a classroom scenario (--scenario), shows an experiment (--results), or asks with the start dialog. Its translations
// (translations/*.ts) are compiled in under :/i18n; the locale picks one, --lang overrides. --screenshot grabs
// the window (--window-size) after a stretch of real run and exits (the README's screenshots come from it).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QPixmap>
#include <QScreen>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

#include "app/quit_on_signal.h"
#include "engine/net/credentials.h"
#include "engine/plan/mode_catalog.h"
#include "ui/scenario/scenario_catalog.h"
#include "ui/scenario/scenario_parser.h"
#include "ui/widgets/compare_window.h"
#include "ui/widgets/connect_dialog.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/results_window.h"

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitScreenshotFailed = 3;
constexpr double kDefaultScreenshotAfterSeconds = 10.0;
constexpr QSize kDefaultWindowSize(1400, 900);
constexpr QSize kMinimumWindowSize(640, 480);

int failUsage(const QString& message) {
    std::fprintf(stderr, "syncscope: %s\n%s\n", qPrintable(message),
                 qPrintable(QApplication::translate("main", "Run 'syncscope --help' for the flags.")));
    return kExitUsage;
}

// --help and --version need no window: they print on the offscreen platform, so they work on a
// headless machine and help2man can read them at build time.
bool onlyPrints(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        for (const char* flag : {"-h", "--help", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], flag) == 0) return true;
    return false;
}

// Qt aborts inside QApplication when no display is reachable; say so first, and what to do instead.
bool displayAvailable() {
    return qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY") ||
           qEnvironmentVariableIsSet("QT_QPA_PLATFORM");
}

// --lang has to be known before the first translated string (the parser's own help texts among
// them), so it is read from argv ahead of QCommandLineParser, which later only checks it is there.
// Empty optional: not given. Accepts "--lang X", "--lang=X" and the single-dash forms.
std::optional<QString> languageFromArguments(int argc, char** argv) {
    std::optional<QString> language;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "--") break;
        for (const std::string_view flag : {std::string_view("--lang"), std::string_view("-lang")}) {
            if (arg == flag) language = QString::fromLocal8Bit(i + 1 < argc ? argv[i + 1] : "");
            else if (arg.size() > flag.size() && arg.substr(0, flag.size() + 1) == std::string(flag) + "=")
                language = QString::fromLocal8Bit(argv[i] + flag.size() + 1);
        }
    }
    return language;
}

QString sizeText(QSize size) { return QStringLiteral("%1x%2").arg(size.width()).arg(size.height()); }

// "1280x720" → that size; empty when unreadable or below kMinimumWindowSize.
std::optional<QSize> sizeFromText(const QString& text) {
    const QStringList parts = text.toLower().split(QLatin1Char('x'));
    bool okWidth = false, okHeight = false;
    const QSize size = parts.size() == 2 ? QSize(parts[0].toInt(&okWidth), parts[1].toInt(&okHeight)) : QSize();
    if (!okWidth || !okHeight || size.width() < kMinimumWindowSize.width() || size.height() < kMinimumWindowSize.height())
        return std::nullopt;
    return size;
}

const QStringList& knownLanguages() {
    static const QStringList languages{QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("zh_CN")};
    return languages;
}

// Loads the console's translation for `language` (or, without one, for the system locale) into
// `translator`. English is the source language: nothing to load.
bool loadTranslation(QTranslator& translator, const std::optional<QString>& language) {
    const QString directory = QStringLiteral(":/i18n");
    if (!language) return translator.load(QLocale::system(), QStringLiteral("syncscope"), QStringLiteral("_"), directory);
    if (*language == QLatin1String("en")) return false;
    return translator.load(QStringLiteral("syncscope_") + *language, directory);
}

}  // namespace

int main(int argc, char** argv) {
    if (!displayAvailable() && onlyPrints(argc, argv)) qputenv("QT_QPA_PLATFORM", "offscreen");
    if (!displayAvailable()) {
        std::fprintf(stderr,
                     "syncscope: no display (neither DISPLAY nor WAYLAND_DISPLAY is set). On a headless machine run "
                     "'syncscope-engine run --workers N ...' for training with a progress bar, or set "
                     "QT_QPA_PLATFORM=offscreen.\n");
        return kExitUsage;
    }
    const std::optional<QString> language = languageFromArguments(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("syncscope"));
    QApplication::setApplicationVersion(QStringLiteral(SYNCSCOPE_VERSION));
    // Installed before any widget (and any translated string) exists.
    QTranslator translator;
    if (language && !knownLanguages().contains(*language))
        return failUsage(QStringLiteral("--lang '%1' is not one of %2").arg(*language, knownLanguages().join(QStringLiteral(", "))));
    if (loadTranslation(translator, language)) QApplication::installTranslator(&translator);
    if (language) QLocale::setDefault(QLocale(*language));  // numbers as the chosen language writes them

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "SyncScope console: watch and steer distributed training"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption attach(QStringLiteral("attach"),
                                    QApplication::translate("main", "Attach to a coordinator's control endpoint (telemetry: port + 1)."),
                                    QStringLiteral("tcp://HOST:PORT"));
    const QCommandLineOption local(QStringLiteral("local"), QApplication::translate("main", "Start a local cluster with N workers."),
                                   QStringLiteral("N"));
    const QCommandLineOption engine(QStringLiteral("engine"),
                                    QApplication::translate("main", "The syncscope-engine binary for local clusters."),
                                    QStringLiteral("PATH"), QDir(QApplication::applicationDirPath()).filePath(QStringLiteral("syncscope-engine")));
    const QCommandLineOption lang(QStringLiteral("lang"),
                                  QApplication::translate("main", "Language of the console: de, zh_CN or en (default: the system locale)."),
                                  QStringLiteral("LANG"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QApplication::translate("main", "Save a PNG of the window to FILE after a while of running, stop a local cluster, and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption screenshotAfter(
        QStringLiteral("screenshot-after"),
        QApplication::translate("main", "Seconds of running before --screenshot grabs the window (default: 10)."),
        QStringLiteral("SECONDS"), QString::number(kDefaultScreenshotAfterSeconds));
    const QCommandLineOption windowSize(
        QStringLiteral("window-size"),
        QApplication::translate("main", "Size of the window in pixels (default: %1, at most the screen's).").arg(sizeText(kDefaultWindowSize)),
        QStringLiteral("WIDTHxHEIGHT"));
    const QCommandLineOption open(QStringLiteral("open"),
                                  QApplication::translate("main", "Open a run recording for replay and export."),
                                  QStringLiteral("FILE"));
    const QCommandLineOption scenario(
        QStringLiteral("scenario"),
        QApplication::translate("main", "Play a classroom scenario on a local cluster: a scenario file, or the name of a shipped one "
                                        "(straggler-bsp, bsp-vs-asp, grouping-rescue)."),
        QStringLiteral("FILE"));
    const QCommandLineOption credentials(
        QStringLiteral("credentials"),
        QApplication::translate("main", "With --attach: a credentials file holding a steer or view key (default: %1).")
            .arg(QString::fromStdString(syncscope::engine::defaultCredentialsPath())),
        QStringLiteral("FILE"), QString::fromStdString(syncscope::engine::defaultCredentialsPath()));
    const QCommandLineOption insecure(
        QStringLiteral("insecure"),
        QApplication::translate("main", "With --attach: connect without authentication (a coordinator run with --insecure)."));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QApplication::translate("main", "Compare run recordings on the same charts, in a window of their own (give it once per "
                                        "recording; File → Compare runs… adds more)."),
        QStringLiteral("FILE"));
    const QCommandLineOption results(
        QStringLiteral("results"),
        QApplication::translate("main", "Open an experiment's results (the --out folder of syncscope-engine experiment: its "
                                        "claims and figures) in a window of their own."),
        QStringLiteral("DIR"));
    const QCommandLineOption maximized(QStringLiteral("maximized"), QApplication::translate("main", "Open the window maximised."));
    const QCommandLineOption fullScreen(QStringLiteral("fullscreen"),
                                        QApplication::translate("main", "Open the window full-screen (a projector: F11 leaves it)."));
    const QCommandLineOption presentation(
        QStringLiteral("presentation"),
        QApplication::translate("main", "Start in the presentation view: large type, the fine controls hidden (F5 toggles it)."));
    parser.addOptions({attach, credentials, insecure, local, open, scenario, compare, results, engine, lang, windowSize, maximized, fullScreen,
                       presentation, screenshot, screenshotAfter});
    if (!parser.parse(QApplication::arguments())) return failUsage(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version"))) parser.showVersion();
    if (!parser.positionalArguments().isEmpty())
        return failUsage(QApplication::translate("main", "unexpected argument '%1'").arg(parser.positionalArguments().first()));
    if (int(parser.isSet(attach)) + int(parser.isSet(local)) + int(parser.isSet(open)) + int(parser.isSet(scenario)) > 1)
        return failUsage(QApplication::translate("main", "give one of --attach, --local, --open and --scenario"));

    syncscope::ui::AttachSettings attachSettings;
    if (parser.isSet(attach)) {
        attachSettings = {parser.value(attach), syncscope::ui::ConnectDialog::telemetryEndpointFor(parser.value(attach)),
                          parser.isSet(insecure) ? QString() : parser.value(credentials)};
        if (attachSettings.telemetryEndpoint.isEmpty())
            return failUsage(QApplication::translate("main", "--attach '%1' is not tcp://HOST:PORT (e.g. tcp://127.0.0.1:5556)").arg(parser.value(attach)));
    }
    syncscope::ui::LocalClusterSettings localSettings;
    std::optional<syncscope::ui::Scenario> lesson;
    if (parser.isSet(scenario)) {
        const QString path = syncscope::ui::resolveScenarioPath(parser.value(scenario));
        if (path.isEmpty()) {
            QStringList shipped;
            for (const QString& resource : syncscope::ui::shippedScenarioPaths()) shipped << QFileInfo(resource).completeBaseName();
            return failUsage(QApplication::translate("main", "--scenario '%1' is neither a file nor a shipped scenario (%2)")
                                 .arg(parser.value(scenario), shipped.join(QStringLiteral(", "))));
        }
        const syncscope::ui::ScenarioLoad load = syncscope::ui::ScenarioParser::load(path);
        if (!load.scenario) return failUsage(load.error);
        lesson = load.scenario;
    }
    if (parser.isSet(local) || lesson) {
        bool ok = !parser.isSet(local);
        if (parser.isSet(local)) localSettings.workers = parser.value(local).toInt(&ok);
        const int maxWorkers = int(syncscope::engine::runLimits().max_workers());
        if (!ok || localSettings.workers < 1 || localSettings.workers > maxWorkers)
            return failUsage(QApplication::translate("main", "--local '%1' must be a number of workers from 1 to %2")
                                 .arg(parser.value(local))
                                 .arg(maxWorkers));
        const QFileInfo binary(parser.value(engine));
        if (!binary.isFile() || !binary.isExecutable())
            return failUsage(QApplication::translate("main", "no syncscope-engine at '%1'; give its path with --engine PATH").arg(binary.filePath()));
    }
    double screenshotSeconds = kDefaultScreenshotAfterSeconds;
    if (parser.isSet(screenshot)) {
        if (!parser.isSet(attach) && !parser.isSet(local) && !lesson && !parser.isSet(compare) && !parser.isSet(results))
            return failUsage(QApplication::translate(
                "main", "--screenshot needs --local N, --scenario FILE, --attach tcp://HOST:PORT, --compare FILE or --results DIR"));
        bool ok = false;
        screenshotSeconds = parser.value(screenshotAfter).toDouble(&ok);
        if (!ok || screenshotSeconds < 0.0 || screenshotSeconds > 24 * 3600)
            return failUsage(QApplication::translate("main", "--screenshot-after '%1' must be a number of seconds from 0 to 86400")
                                 .arg(parser.value(screenshotAfter)));
        // The picture is of a run in progress: --local trains until stopped, and the grab stops it.
    } else if (parser.isSet(screenshotAfter)) {
        return failUsage(QApplication::translate("main", "--screenshot-after needs --screenshot FILE"));
    }

    if (parser.isSet(maximized) && parser.isSet(fullScreen))
        return failUsage(QApplication::translate("main", "give one of --maximized and --fullscreen"));

    QSize size = kDefaultWindowSize;
    if (parser.isSet(windowSize)) {
        const std::optional<QSize> given = sizeFromText(parser.value(windowSize));
        if (!given)
            return failUsage(QApplication::translate("main", "--window-size '%1' is not WIDTHxHEIGHT of at least %2 (e.g. 1280x720)")
                                 .arg(parser.value(windowSize), sizeText(kMinimumWindowSize)));
        size = *given;
    } else if (const QScreen* screen = QGuiApplication::primaryScreen()) {
        size = size.boundedTo(screen->availableSize());  // a given size is taken as asked: screenshots need it
    }

    syncscope::ui::MainWindow window(parser.value(engine));
    window.resize(size);
    if (parser.isSet(presentation)) window.setPresentationView(true);
    if (parser.isSet(fullScreen)) window.showFullScreen();
    else if (parser.isSet(maximized)) window.showMaximized();
    else window.show();
    // A signal closes the window as Quit does: the local cluster stops, its recording is finished.
    QuitOnSignal quitOnSignal([&window] {
        window.setStopClusterAnswer(true);
        window.close();
    });
    if (parser.isSet(attach)) window.attach(attachSettings);
    else if (parser.isSet(local)) window.startLocalCluster(localSettings);
    else if (parser.isSet(open)) window.openRecordingInBackground(parser.value(open));  // errors: status bar and log
    else if (lesson) window.runScenario(*lesson);
    else if (!parser.isSet(compare) && !parser.isSet(results))
        QTimer::singleShot(0, &window, [&window] { window.openConnectDialog(true); });
    // Recordings compared beside whatever the window shows; alone, the comparison is what a screenshot grabs.
    QWidget* shown = &window;
    if (parser.isSet(compare)) {
        QWidget* comparison = window.compareRuns(parser.values(compare));
        comparison->resize(size);
        if (!parser.isSet(attach) && !parser.isSet(local) && !lesson) shown = comparison;
    }
    if (parser.isSet(results)) {  // the same: alone, the results window is what a screenshot grabs
        QWidget* resultsWindow = window.openResults(parser.value(results));
        resultsWindow->resize(size);
        if (!parser.isSet(attach) && !parser.isSet(local) && !lesson && !parser.isSet(compare)) shown = resultsWindow;
    }

    if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        QTimer::singleShot(static_cast<int>(screenshotSeconds * 1000.0), &window, [&window, shown, file] {
            const QPixmap image = shown->grab();
            const bool saved = !image.isNull() && image.save(file, "PNG");
            if (saved)
                std::fprintf(stdout, "%s\n", qPrintable(QApplication::translate("main", "syncscope: saved the window to '%1'").arg(file)));
            else
                std::fprintf(stderr, "syncscope: %s\n",
                             qPrintable(QApplication::translate("main", "could not save the screenshot to '%1' (is the folder there and writable?)")
                                            .arg(file)));
            window.setStopClusterAnswer(true);  // a screenshot run leaves nothing behind
            window.close();
            QApplication::exit(saved ? 0 : kExitScreenshotFailed);
        });
    }
    return QApplication::exec();
}
