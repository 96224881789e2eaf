// FramePacer: coalesces "the data changed" into redraws, at most every 40 ms, and further apart
// when a frame is expensive: after each frame the next one waits at least 4x as long as the frame
// took (draw and paint), so redrawing never takes more than about a quarter of the GUI thread,
// up to 250 ms between frames (64 workers' charts on a software-rendered display).
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
    static constexpr double kFrameShare = 0.25;  ///< of the GUI thread's time, at most

    explicit FramePacer(std::function<void()> drawFrame, QObject* parent = nullptr);

    /// New data: a frame is drawn when the interval since the last one has passed.
    void requestFrame();
    /// Something the user did came back (a control reply): drawn 40 ms after the last frame at
    /// most, whatever the current interval, so the answer to a click never waits a long frame gap.
    void requestPromptFrame();
    int intervalMs() const { return m_interval; }

private:
    void draw();

    std::function<void()> m_drawFrame;
    QTimer m_timer;
    QElapsedTimer m_frameStart, m_sinceFrame;
    int m_interval = kMinIntervalMs;
};

}  // namespace syncscope::ui
