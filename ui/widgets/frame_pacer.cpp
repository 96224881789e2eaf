// FramePacer (see frame_pacer.h).
#include "ui/widgets/frame_pacer.h"

#include <algorithm>

namespace syncscope::ui {

FramePacer::FramePacer(std::function<void()> drawFrame, QObject* parent)
    : QObject(parent), m_drawFrame(std::move(drawFrame)) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(m_interval);
    connect(&m_timer, &QTimer::timeout, this, &FramePacer::draw);
}

void FramePacer::requestFrame() {
    if (!m_timer.isActive()) m_timer.start();
}

void FramePacer::requestPromptFrame() {
    const qint64 since = m_sinceFrame.isValid() ? m_sinceFrame.elapsed() : kMinIntervalMs;
    const int wait = static_cast<int>(std::max<qint64>(0, kMinIntervalMs - since));
    if (!m_timer.isActive() || m_timer.remainingTime() > wait) m_timer.start(wait);  // draw() restores the interval
}

void FramePacer::draw() {
    m_frameStart.start();
    m_sinceFrame.start();
    m_drawFrame();
    // A zero timer runs once the events the frame posted (layout, paint) are through: the frame's
    // whole cost, which sets how long the next one waits.
    QTimer::singleShot(0, this, [this] {
        const double ms = static_cast<double>(m_frameStart.elapsed());
        m_interval = std::clamp(static_cast<int>(ms / kFrameShare), kMinIntervalMs, kMaxIntervalMs);
        m_timer.setInterval(m_interval);
    });
}

}  // namespace syncscope::ui
