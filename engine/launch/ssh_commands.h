// What `launch --hosts` asks ssh to run on each host: storing the workers' credentials (sent on
// stdin, never on a command line) and a small POSIX shell script that starts the host's workers
// and, when the ssh session ends (its terminal hangs up), stops the whole remote process group.
#pragma once

#include <string>
#include <vector>

#include "engine/launch/worker_command.h"

namespace syncscope::engine {

/// `word` single-quoted for a POSIX shell.
std::string shellQuote(const std::string& word);
/// --ssh's COMMAND split on blanks: "ssh -F cluster.conf" -> {"ssh", "-F", "cluster.conf"}.
std::vector<std::string> splitCommand(const std::string& command);

/// The arguments after ssh's own (`ssh` and --ssh's options): never asking for a password
/// (BatchMode), a pseudo-terminal when `terminal` (so the remote side hangs up with the session),
/// the host, and `remoteCommand`, which runs under POSIX sh whatever the login shell is.
std::vector<std::string> sshArguments(const std::string& host, bool terminal, const std::string& remoteCommand);

/// Reads stdin into a new file (mode 0600) in the host's temp folder and prints its path.
std::string storeCredentialsCommand();
/// Starts `workers` copies of `workCommand` (the engine and its `work` arguments) in the background,
/// waits for them, removes `credentialsPath`, and exits with the last failure's code. On SIGHUP
/// (the session's terminal closed), SIGINT or SIGTERM it removes the file and kills its process group.
std::string startWorkersCommand(const std::vector<std::string>& workCommand, unsigned workers,
                                const std::string& credentialsPath);
/// The same for a worker command (RunLayout.worker_command): `workers` copies of `command` under sh,
/// with `place`'s environment, RANK from place.rank on and LOCAL_RANK from 0; place.credentials is
/// the host's copy (empty: --insecure).
std::string startWorkerCommandsCommand(const std::string& command, unsigned workers, const WorkerPlace& place);
/// Removes `path` on the host (the credentials of a session that did not end by itself).
std::string removeFileCommand(const std::string& path);

/// "ssh to HOST failed: <ssh's last line>; <what to check>", from what the session printed.
std::string sshFailure(const std::string& host, const std::string& output);

}  // namespace syncscope::engine
