// Worker: one training process (`syncscope-engine work --connect ADDR`). Registers, receives the
// run spec, then loops: receive parameters -> compute a gradient on its shard -> push.
#pragma once

#include <optional>
#include <string>

#include "engine/backend/backend.h"
#include "engine/core/status.h"
#include "engine/net/credentials.h"

namespace syncscope::engine {

struct WorkerOptions {
    std::string connect;                    ///< the coordinator's data endpoint
    BackendKind backend = BackendKind::Auto;
    int threads = 1;                        ///< CPU threads; 1 suits several workers per machine
    std::string dataDir;                    ///< empty: the directory named by the run spec
    bool retry = false;                     ///< when the coordinator goes away, wait for it and rejoin
    double coordinatorTimeoutSeconds = 3.0;
    double registerTimeoutSeconds = 10.0;
    /// The worker role's credentials; empty: no authentication (a coordinator run with --insecure).
    std::optional<Credentials> credentials;
    bool plainDataPlane = false;  ///< the coordinator's data plane is authenticated, not encrypted
};

/// Runs the worker until the run stops (Ok) or the coordinator is lost (an error saying so).
Status runWorker(const WorkerOptions& options);

}  // namespace syncscope::engine
