// Following a Cluster's run from the command line, as `run` and `launch --hosts` both do: start
// the coordinator and the plan's processes, follow the telemetry with a progress bar, relay what
// the hosts' workers print, stop cleanly on Ctrl-C or when a host's workers fail, and print the
// coordinator's final report.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/launch/cluster.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

struct ClusterRunSettings {
    ListenSettings listen;                      ///< where the coordinator listens
    std::vector<std::string> workerArguments;   ///< backend, threads, timeouts of every worker
    /// Once every process started: what to print for people (where to attach a console).
    std::function<void(Cluster&)> onStarted;
    bool json = false;          ///< the result as JSON on stdout (run --json)
    int interruptedExit = 130;  ///< the exit code after Ctrl-C stopped the run
    double stopGraceSeconds = 3.0;  ///< how long processes get to end by themselves at the end
};

/// Runs `plan` (a validated one) on `cluster` (secured by the caller) to its end; returns the exit
/// code, having printed any error.
int runCluster(Cluster& cluster, const wire::RunPlan& plan, const ClusterRunSettings& settings);

}  // namespace syncscope::engine
