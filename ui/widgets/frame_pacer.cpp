// FramePacer (see frame_pacer.h).
#include "ui/widgets/frame_pacer.h"

#include <algorithm>

namespace syncscope::ui {

FramePacer::FramePacer(std::function<void()> drawFrame, QObject* parent)
    : QObject(parent), m_drawFrame(std::move(drawFrame)) {
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &FramePacer::draw);
}

void FramePacer::requestFrame() {
    if (!m_timer.isActive()) m_timer.start(m_interval);
}

void FramePacer::requestPromptFrame() { m_timer.start(0); }

void FramePacer::draw() {
    m_frameStart.start();
    m_drawFrame();
    // A zero timer runs once the events the frame posted (layout, paint) are through: the frame's
    // whole cost, which sets how long the next one waits.
    // Only the next wait changes: a timer already started (a prompt frame asked for meanwhile) is
    // left alone, where setInterval() would restart it with the long wait.
    QTimer::singleShot(0, this, [this] {
        const double ms = static_cast<double>(m_frameStart.elapsed());
        m_interval = std::clamp(static_cast<int>(ms / kFrameShare), kMinIntervalMs, kMaxIntervalMs);
    });
}

}  // namespace syncscope::ui
