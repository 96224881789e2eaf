// The scenarios shipped inside the console (resources/scenarios/*.json under :/scenarios), and how a
// name on the command line ("straggler-bsp") finds one of them or a file.
#pragma once

#include <QString>
#include <QStringList>

namespace syncscope::ui {

/// ":/scenarios/<name>.json" for each shipped scenario, sorted.
QStringList shippedScenarioPaths();
/// A readable file at `nameOrPath` as given; else the shipped scenario of that name (with or
/// without ".json"); else empty.
QString resolveScenarioPath(const QString& nameOrPath);

}  // namespace syncscope::ui
