// ClusterFixture for the console's benchmark (tests/bench/bench_console.cpp), which hands the
// cluster's credentials and logs to Qt code: the engine tests' EngineCluster (engine_cluster.h, no
// Qt), answering those two in QString. The engine's tests use EngineCluster itself.
#pragma once

#include <QString>

#include "tests/integration/engine_cluster.h"

namespace syncscope::testing {

class ClusterFixture : public EngineCluster {
public:
    QString credentialsPath() { return QString::fromStdString(EngineCluster::credentialsPath()); }
    QString logs() const { return QString::fromStdString(EngineCluster::logs()); }
};

}  // namespace syncscope::testing
