// Reads scenario files (JSON, see docs/scenarios.md). Bad input gives one message naming the file,
// the entry and what is wrong; it never aborts.
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include <optional>

#include "ui/scenario/scenario.h"

namespace syncscope::ui {

/// A scenario, or (empty optional) the reason there is none.
struct ScenarioLoad {
    std::optional<Scenario> scenario;
    QString error;
};

class ScenarioParser {
    Q_DECLARE_TR_FUNCTIONS(ScenarioParser)
public:
    /// `source` names the text in messages (a file path or a resource).
    static ScenarioLoad parse(const QByteArray& json, const QString& source);
    /// Reads and parses the file at `path` (also ":/scenarios/..." resources).
    static ScenarioLoad load(const QString& path);

};

}  // namespace syncscope::ui
