// FramePacer: coalesces "the data changed" into redraws, at most every 40 ms, and further apart
// when a frame is expensive: after each frame the next one waits at least 4x as long as the frame
// took (draw and paint), so redrawing never takes more than a fifth of the GUI thread, up to
// 250 ms between frames (many workers' charts on a software-rendered display). A prompt frame
// (the answer to something the user did) is drawn at once.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>

namespace syncscope::ui {

class FramePacer : public QObject {
    Q_OBJECT
public:
    static constexpr int kMinIntervalMs = 40;
    static constexpr int kMaxIntervalMs = 250;
    static constexpr double kFrameShare = 0.25;  ///< a frame's cost over the wait after it

    explicit FramePacer(std::function<void()> drawFrame, QObject* parent = nullptr);

    /// New data: a frame is drawn when the interval since the last one has passed.
    void requestFrame();
    /// Something the user did came back (a control reply): drawn as soon as the events before it
    /// are through, whatever the current interval, so the answer to a click never waits for a
    /// frame gap (replies come one per click: they cannot crowd the GUI thread).
    void requestPromptFrame();
    int intervalMs() const { return m_interval; }

private:
    void draw();

    std::function<void()> m_drawFrame;
    QTimer m_timer;
    QElapsedTimer m_frameStart;
    int m_interval = kMinIntervalMs;
};

}  // namespace syncscope::ui
