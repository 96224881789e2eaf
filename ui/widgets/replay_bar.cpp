// ReplayBar (see replay_bar.h).
#include "ui/widgets/replay_bar.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>

#include <cmath>
#include <memory>

#include "ui/widgets/chart_export.h"
#include "ui/widgets/recording_task.h"
#include "ui/widgets/replay_controller.h"

namespace syncscope::ui {

namespace {
constexpr int kSliderStepsPerSecond = 10;
constexpr double kSpeeds[] = {0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0};
constexpr int kDefaultSpeedIndex = 2;
}  // namespace

ReplayBar::ReplayBar(ReplayController& controller, QWidget* parent)
    : QToolBar(tr("Replay"), parent), m_controller(controller), m_slider(new QSlider(Qt::Horizontal, this)),
      m_speed(new QComboBox(this)), m_time(new QLabel(this)) {
    setObjectName(QStringLiteral("replayBar"));
    m_play = addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play"));
    m_play->setShortcut(QKeySequence(tr("Space")));  // the steering pause key; steering is off in replay
    connect(m_play, &QAction::triggered, this, [this] {
        if (m_controller.isPlaying()) m_controller.pause();
        else m_controller.play();
    });
    m_slider->setToolTip(tr("Replay position: drag to seek"));
    addWidget(m_slider);
    for (double speed : kSpeeds) m_speed->addItem(tr("%1×").arg(speed), speed);
    m_speed->setCurrentIndex(kDefaultSpeedIndex);
    m_speed->setToolTip(tr("Playback speed"));
    addWidget(m_speed);
    addWidget(m_time);
    connect(m_slider, &QSlider::valueChanged, this,
            [this](int value) { m_controller.seek(double(value) / kSliderStepsPerSecond); });
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this] { m_controller.setSpeed(m_speed->currentData().toDouble()); });
    connect(&m_controller, &ReplayController::positionChanged, this, &ReplayBar::showPosition);
    connect(&m_controller, &ReplayController::playingChanged, this, &ReplayBar::showPlaying);
    m_controller.setSpeed(kSpeeds[kDefaultSpeedIndex]);
}

void ReplayBar::addRecordingActions(QMenu* file) {
    file->addAction(tr("&Open recording…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(parentWidget(), tr("Open recording"), QString(),
                                                          tr("SyncScope recordings (*.ssrec);;All files (*)"));
        if (!path.isEmpty()) emit openRequested(path);
    });
    QMenu* exports = file->addMenu(tr("&Export"));
    exports->setToolTipsVisible(true);
    m_exports << exports->addAction(tr("&CSV…"), this, [this] {
        exportRecording(tr("Export CSV"), tr("CSV (*.csv)"), QStringLiteral("csv"));
    });
    m_exports << exports->addAction(tr("&JSON Lines…"), this, [this] {
        exportRecording(tr("Export JSON Lines"), tr("JSON Lines (*.jsonl)"), QStringLiteral("jsonl"));
    });
    m_exports << exports->addAction(tr("&Trace (Chrome, Perfetto)…"), this, [this] {
        exportRecording(tr("Export trace"), tr("Chrome trace JSON (*.json)"), QStringLiteral("json"));
    });
    m_exports << exports->addAction(tr("Tensor&Board event files…"), this, [this] { exportTensorBoard(); });
    setReplayMode(m_controller.isOpen());
}

void ReplayBar::exportRecording(const QString& title, const QString& filter, const QString& suffix) {
    const QString path = askExportPath(parentWidget(), title, filter, suffix);
    if (path.isEmpty()) return;
    if (const auto format = ReplayController::formatForPath(path)) startExport(*format, path);
    else emit outcome(m_controller.exportRecording(path), QString());  // says which suffixes it takes
}

void ReplayBar::exportTensorBoard() {
    const QString folder = QFileDialog::getExistingDirectory(parentWidget(), tr("Export TensorBoard event files into"));
    if (!folder.isEmpty()) startExport(engine::ExportFormat::TfEvents, folder);
}

// On a RecordingTask's thread, streaming from the recording file: the open replay is not touched.
void ReplayBar::startExport(engine::ExportFormat format, const QString& output) {
    const QString recording = m_controller.path();
    auto error = std::make_shared<QString>();
    RecordingTask::start(
        parentWidget(), tr("Exporting %1…").arg(QFileInfo(recording).fileName()),
        [=](const engine::ExportProgress& progress) { *error = ReplayController::exportFile(recording, format, output, progress); },
        [this, error, output](bool) { emit outcome(*error, tr("Exported the recording to %1").arg(output)); });
}

void ReplayBar::setReplayMode(bool replay) {
    setVisible(replay);
    m_play->setEnabled(replay);
    for (QAction* action : m_exports) {
        action->setEnabled(replay);
        action->setToolTip(replay ? QString() : tr("Exports an open recording: record a live run with --record, then open it."));
    }
    const QSignalBlocker blocker(m_slider);
    m_slider->setRange(0, int(std::ceil(m_controller.duration() * kSliderStepsPerSecond)));
    showPosition(m_controller.position());
    showPlaying(m_controller.isPlaying());
}

void ReplayBar::showPosition(double seconds) {
    const QSignalBlocker blocker(m_slider);  // the controller moved: no seek back
    m_slider->setValue(int(std::lround(seconds * kSliderStepsPerSecond)));
    m_time->setText(tr("%1 s / %2 s").arg(seconds, 0, 'f', 1).arg(m_controller.duration(), 0, 'f', 1));
}

void ReplayBar::showPlaying(bool playing) {
    m_play->setText(playing ? tr("Pause") : tr("Play"));
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

}  // namespace syncscope::ui
