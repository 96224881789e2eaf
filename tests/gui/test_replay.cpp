// Replay in the main window: a real recording opens, the charts hold bounded point counts, seeking
// and 16× playback move the position, and CSV / JSON Lines / PNG / SVG exports write what they should.
#include <QChartView>
#include <QImage>
#include <QPlainTextEdit>
#include <QProcess>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

#include "engine/telemetry/recording_export.h"
#include "ui/widgets/charts_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/replay_bar.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

constexpr int kRepaintTimeoutMs = 5'000;
const QString kSamples = QStringLiteral("Samples/s per worker");
const QString kLoss = QStringLiteral("Training loss");

qsizetype lineCount(const QByteArray& text) { return text.count('\n'); }

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

int chartWidth(const ChartsPanel& charts, const QString& title) {
    for (QChartView* view : charts.chartViews())
        if (view->chart()->title() == title) return view->width();
    return 0;
}

}  // namespace

class TestReplay : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void chartsHoldBoundedPointCounts();
    void seekingBackShowsFewerTicks();
    void playbackAt16xAdvances();
    void exportsMatchTheEngineExporters();
    void exportsChartsAsPngAndSvg();
    void missingFileGivesAMessage();
    void truncatedCopyWarnsAndOpens();

private:
    QTemporaryDir m_dir;
    QString m_recording;
    std::unique_ptr<MainWindow> m_window;
};

void TestReplay::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_recording = m_dir.filePath(QStringLiteral("r.ssrec"));
    QProcess engine;
    engine.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    engine.start(QStringLiteral(SYNCSCOPE_ENGINE_BINARY),
                 {QStringLiteral("run"), QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--model"),
                  QStringLiteral("mlp"), QStringLiteral("--max-seconds"), QStringLiteral("6"), QStringLiteral("--data"),
                  QStringLiteral(SYNCSCOPE_FASHION_MNIST_DIR), QStringLiteral("--record"), m_recording});
    QVERIFY2(engine.waitForFinished(120'000), "the engine run did not finish in 120 s");
    QCOMPARE(engine.exitCode(), 0);
    QVERIFY(QFileInfo(m_recording).size() > 0);
}

void TestReplay::init() {
    m_window = std::make_unique<MainWindow>(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
    m_window->resize(1400, 900);
    m_window->show();
}

void TestReplay::cleanup() { m_window.reset(); }

void TestReplay::chartsHoldBoundedPointCounts() {
    QVERIFY(m_window->openRecording(m_recording));
    const ChartsPanel& charts = *m_window->parts().charts;
    QTRY_VERIFY_WITH_TIMEOUT(charts.pointCount(kSamples) > 0, kRepaintTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(charts.pointCount(kLoss) > 0, kRepaintTimeoutMs);
    // About two points per pixel column per series (2 workers; 1 loss series), plus the ends.
    QVERIFY(chartWidth(charts, kSamples) > 0);
    QVERIFY(charts.pointCount(kSamples) <= 2 * (2 * chartWidth(charts, kSamples) + 4));
    QVERIFY(charts.pointCount(kLoss) <= 2 * chartWidth(charts, kLoss) + 4);
    QVERIFY(m_window->parts().replayBar->isVisible());
}

void TestReplay::seekingBackShowsFewerTicks() {
    QVERIFY(m_window->openRecording(m_recording));
    ReplayController& replay = *m_window->parts().replay;
    const qsizetype allTicks = replay.ticksShown();
    const double duration = replay.duration();
    QVERIFY(duration > 3.0);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->parts().charts->pointCount(kSamples) > 0, kRepaintTimeoutMs);
    const int allPoints = m_window->parts().charts->pointCount(kSamples);
    replay.seek(duration / 2);
    QCOMPARE(replay.position(), duration / 2);
    QVERIFY(replay.ticksShown() < allTicks);
    QVERIFY(replay.ticksShown() > allTicks / 4);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->parts().charts->pointCount(kSamples) < allPoints, kRepaintTimeoutMs);
    QVERIFY(m_window->parts().charts->pointCount(kSamples) > 0);
}

void TestReplay::playbackAt16xAdvances() {
    QVERIFY(m_window->openRecording(m_recording));
    ReplayController& replay = *m_window->parts().replay;
    replay.seek(0.0);
    replay.setSpeed(16.0);
    QCOMPARE(replay.speed(), 16.0);
    replay.play();
    QVERIFY(replay.isPlaying());
    // 16× for 0.5 s of wall time is 8 s of run time: well past the first second.
    QTRY_VERIFY_WITH_TIMEOUT(replay.position() > 1.0, 2'000);
    QTRY_VERIFY_WITH_TIMEOUT(!replay.isPlaying(), 5'000);  // played to the end and stopped there
    QCOMPARE(replay.position(), replay.duration());
}

void TestReplay::exportsMatchTheEngineExporters() {
    QVERIFY(m_window->openRecording(m_recording));
    const auto recording = engine::readRecording(m_recording.toStdString());
    QVERIFY(recording.isOk());
    std::ostringstream csv, jsonl;
    QVERIFY(engine::exportCsv(recording.value(), csv).isOk());
    QVERIFY(engine::exportJsonLines(recording.value(), jsonl).isOk());
    const QString csvPath = m_dir.filePath(QStringLiteral("r.csv")), jsonlPath = m_dir.filePath(QStringLiteral("r.jsonl"));
    QCOMPARE(m_window->parts().replay->exportRecording(csvPath), QString());
    QCOMPARE(m_window->parts().replay->exportRecording(jsonlPath), QString());
    QVERIFY(lineCount(readAll(csvPath)) > 1);
    QCOMPARE(lineCount(readAll(csvPath)), lineCount(QByteArray::fromStdString(csv.str())));
    QCOMPARE(lineCount(readAll(jsonlPath)), qsizetype(recording.value().records.size() + 1));  // + the header line
    QCOMPARE(lineCount(readAll(jsonlPath)), lineCount(QByteArray::fromStdString(jsonl.str())));
    QVERIFY(!m_window->parts().replay->exportRecording(m_dir.filePath(QStringLiteral("r.txt"))).isEmpty());
}

void TestReplay::exportsChartsAsPngAndSvg() {
    QVERIFY(m_window->openRecording(m_recording));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->parts().charts->pointCount(kLoss) > 0, kRepaintTimeoutMs);
    const QString png = m_dir.filePath(QStringLiteral("charts.png")), svg = m_dir.filePath(QStringLiteral("charts.svg"));
    QVERIFY(m_window->exportCharts(png));
    QVERIFY(m_window->exportCharts(svg));
    const QImage image(png);
    QVERIFY(!image.isNull());
    const QRgb background = image.pixel(0, 0);
    qsizetype drawn = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) drawn += image.pixel(x, y) != background;
    QVERIFY2(drawn > image.width() * image.height() / 400, "the PNG is (almost) all background");
    const QByteArray svgText = readAll(svg);
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.size() > 1000);
    QVERIFY(!m_window->exportCharts(m_dir.filePath(QStringLiteral("charts.bmp"))));
}

void TestReplay::missingFileGivesAMessage() {
    QVERIFY(!m_window->openRecording(m_dir.filePath(QStringLiteral("missing.ssrec"))));
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("missing.ssrec")));
    QVERIFY(m_window->parts().log->toPlainText().contains(QStringLiteral("missing.ssrec")));
    QVERIFY(!m_window->parts().replay->isOpen());
    QVERIFY(!m_window->parts().replayBar->isVisible());
}

void TestReplay::truncatedCopyWarnsAndOpens() {
    QByteArray bytes = readAll(m_recording);
    bytes.chop(10);
    const QString cut = m_dir.filePath(QStringLiteral("cut.ssrec"));
    QFile out(cut);
    QVERIFY(out.open(QIODevice::WriteOnly));
    QCOMPARE(out.write(bytes), bytes.size());
    out.close();
    QVERIFY(m_window->openRecording(cut));
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("warning")));
    QVERIFY(m_window->parts().replay->duration() > 3.0);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->parts().charts->pointCount(kSamples) > 0, kRepaintTimeoutMs);
}

QTEST_MAIN(TestReplay)
#include "test_replay.moc"
