// The PyTorch workers integration tests start: python/tests/external_model.py through the package
// under python/. Whether this machine can run them, and the shell command that starts one as a
// run's --worker-command. python/CMakeLists.txt gives a test that uses them the interpreter
// (SYNCSCOPE_PYTHON3), the package's path and the script's; without them (no python3 or protoc when
// built) whyNoPyTorch() says so.
#pragma once

#include <string>

#include "engine/launch/ssh_commands.h"
#include "tests/integration/child_process.h"

namespace syncscope::testing {

/// Why PyTorch workers cannot run here; empty when they can. Asked of the interpreter once.
inline std::string whyNoPyTorch() {
#ifndef SYNCSCOPE_PYTHON3
    return "no python3 interpreter or protoc was found when this was built";
#else
    static const std::string why = [] {
        ChildProcess probe;
        ChildOptions quiet;
        if (!probe.start(SYNCSCOPE_PYTHON3, {"-c", "import torch, zmq, numpy, google.protobuf"}, quiet) ||
            !probe.waitForExit(60'000) || probe.exitCode() != 0)
            return std::string(SYNCSCOPE_PYTHON3) + " cannot import torch, zmq, numpy and protobuf (./setup.sh "
                   "test installs python3-torch, python3-zmq, python3-numpy and python3-protobuf)";
        return std::string();
    }();
    return why;
#endif
}

/// A shell command starting one PyTorch worker of external_model.py's `model` that finds its run in
/// the environment the engine gives a --worker-command; empty where whyNoPyTorch() says why not.
inline std::string pytorchWorkerCommand(const std::string& model) {
#ifndef SYNCSCOPE_PYTHON3
    (void)model;
    return {};
#else
    using engine::shellQuote;
    return "PYTHONPATH=" + shellQuote(SYNCSCOPE_PYTHON_PATH) + " " + shellQuote(SYNCSCOPE_PYTHON3) + " " +
           shellQuote(SYNCSCOPE_EXTERNAL_MODEL_SCRIPT) + " --role worker --model " + shellQuote(model);
#endif
}

}  // namespace syncscope::testing
