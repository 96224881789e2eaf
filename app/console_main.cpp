// syncscope: the desktop console. Attaches to a coordinator (--attach), starts a local cluster
// (--local N), or asks with the start dialog.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

#include "ui/widgets/connect_dialog.h"
#include "ui/widgets/main_window.h"

namespace {

int failUsage(const QString& message) {
    std::fprintf(stderr, "syncscope: %s\n%s\n", qPrintable(message),
                 qPrintable(QApplication::translate("main", "Run 'syncscope --help' for the flags.")));
    return 2;
}

// Qt aborts inside QApplication when no display is reachable; say so first, and what to do instead.
bool displayAvailable() {
    return qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY") ||
           qEnvironmentVariableIsSet("QT_QPA_PLATFORM");
}

}  // namespace

int main(int argc, char** argv) {
    if (!displayAvailable()) {
        std::fprintf(stderr,
                     "syncscope: no display (neither DISPLAY nor WAYLAND_DISPLAY is set). On a headless machine run "
                     "'syncscope-engine run --workers N ...' for training with a progress bar, or set "
                     "QT_QPA_PLATFORM=offscreen.\n");
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("syncscope"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "SyncScope console: watch and steer distributed training"));
    parser.addHelpOption();
    const QCommandLineOption attach(QStringLiteral("attach"),
                                    QApplication::translate("main", "Attach to a coordinator's control endpoint (telemetry: port + 1)."),
                                    QStringLiteral("tcp://HOST:PORT"));
    const QCommandLineOption local(QStringLiteral("local"), QApplication::translate("main", "Start a local cluster with N workers."),
                                   QStringLiteral("N"));
    const QCommandLineOption engine(QStringLiteral("engine"),
                                    QApplication::translate("main", "The syncscope-engine binary for local clusters."),
                                    QStringLiteral("PATH"), QDir(QApplication::applicationDirPath()).filePath(QStringLiteral("syncscope-engine")));
    parser.addOptions({attach, local, engine});
    if (!parser.parse(QApplication::arguments())) return failUsage(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
    if (!parser.positionalArguments().isEmpty())
        return failUsage(QApplication::translate("main", "unexpected argument '%1'").arg(parser.positionalArguments().first()));
    if (parser.isSet(attach) && parser.isSet(local)) return failUsage(QApplication::translate("main", "give --attach or --local, not both"));

    syncscope::ui::AttachSettings attachSettings;
    if (parser.isSet(attach)) {
        attachSettings = {parser.value(attach), syncscope::ui::ConnectDialog::telemetryEndpointFor(parser.value(attach))};
        if (attachSettings.telemetryEndpoint.isEmpty())
            return failUsage(QApplication::translate("main", "--attach '%1' is not tcp://HOST:PORT (e.g. tcp://127.0.0.1:5556)").arg(parser.value(attach)));
    }
    syncscope::ui::LocalClusterSettings localSettings;
    if (parser.isSet(local)) {
        bool ok = false;
        localSettings.workers = parser.value(local).toInt(&ok);
        if (!ok || localSettings.workers < 1 || localSettings.workers > 1024)
            return failUsage(QApplication::translate("main", "--local '%1' must be a number of workers from 1 to 1024").arg(parser.value(local)));
        const QFileInfo binary(parser.value(engine));
        if (!binary.isFile() || !binary.isExecutable())
            return failUsage(QApplication::translate("main", "no syncscope-engine at '%1'; give its path with --engine PATH").arg(binary.filePath()));
    }

    syncscope::ui::MainWindow window(parser.value(engine));
    window.resize(1400, 900);
    window.show();
    if (parser.isSet(attach)) window.attach(attachSettings);
    else if (parser.isSet(local)) window.startLocalCluster(localSettings);
    else QTimer::singleShot(0, &window, [&window] { window.openConnectDialog(true); });
    return QApplication::exec();
}
