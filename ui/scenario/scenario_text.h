// One-line descriptions of scenario steps and sync modes for the banner, the status bar and the log.
#pragma once

#include <QCoreApplication>
#include <QString>

#include "ui/scenario/scenario.h"

namespace syncscope::ui {

class ScenarioText {
    Q_DECLARE_TR_FUNCTIONS(ScenarioText)
public:
    /// "set mode grouped G=2 by speed", "worker 3 slowed ×4", "pause for 10 s"…
    static QString step(const ScenarioStep& step);
    /// "ssp s=3 lr=inverse", "grouped G=2 by speed (BSP inside)"…
    static QString mode(const wire::ModeSettings& mode);
};

}  // namespace syncscope::ui
