// The flags of `syncscope-engine launch`: how the cluster is placed (--slurm, or --hosts FILE over
// ssh) and the serve and work flags it hands on.
#pragma once

#include <string>

#include "engine/cli/run_options.h"
#include "engine/cli/security_flags.h"
#include "engine/cli/serve_command.h"

namespace syncscope::engine {

struct LaunchFlags {
    bool slurm = false;
    std::string hostsFile;        ///< --hosts: one host per line, HOST [WORKERS]
    std::string ssh = "ssh";      ///< --ssh: the ssh command and its own options
    std::string remoteEngine;     ///< --engine: syncscope-engine's path on the hosts (default: this one's)
    double startupTimeout = 300;  ///< how long Slurm's workers wait for the credentials file and the coordinator
    RunOptions run;               ///< run.aggregators (--slurm): tasks 1..this run group aggregators
    wire::RunPlan plan;           ///< what `run` describes, once checked
    ListenFlags listen;
    SecurityFlags security;
    WorkFlags work;
};

}  // namespace syncscope::engine
