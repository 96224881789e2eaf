// Scenario catalog (see scenario_catalog.h).
#include "ui/scenario/scenario_catalog.h"

#include <QDir>
#include <QFileInfo>

// The resource lives in this static library: registered explicitly, outside any namespace, so the
// linker keeps it and it is there before the first lookup.
static void initScenarioResources() { Q_INIT_RESOURCE(scenarios); }

namespace syncscope::ui {

namespace {
const QString kScenarioDir = QStringLiteral(":/scenarios");
}

QStringList shippedScenarioPaths() {
    initScenarioResources();
    QStringList paths;
    const QStringList names = QDir(kScenarioDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : names) paths << kScenarioDir + QLatin1Char('/') + name;
    return paths;
}

QString resolveScenarioPath(const QString& nameOrPath) {
    initScenarioResources();
    if (nameOrPath.isEmpty()) return {};
    if (QFileInfo(nameOrPath).isFile()) return nameOrPath;
    for (const QString& candidate : {nameOrPath, nameOrPath + QStringLiteral(".json")}) {
        const QString shipped = kScenarioDir + QLatin1Char('/') + candidate;
        if (!candidate.contains(QLatin1Char('/')) && QFileInfo(shipped).isFile()) return shipped;
    }
    return {};
}

}  // namespace syncscope::ui
