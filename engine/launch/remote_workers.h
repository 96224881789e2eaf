// RemoteWorkers: the workers `launch --hosts` runs on other machines, one ssh session per host.
// It copies the workers' credentials to each host (over ssh's stdin), starts each host's workers
// under a pseudo-terminal, relays what they print with the host's name in front, and stops them by
// closing the sessions: the remote terminal hangs up and the remote script kills its process group.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "engine/launch/hosts_file.h"
#include "engine/launch/worker_command.h"
#include "engine/core/process_launcher.h"
#include "engine/core/status.h"

namespace syncscope::engine {

class RemoteWorkers {
public:
    /// `ssh`: the ssh command and its own options ({"ssh"} by default, from --ssh).
    RemoteWorkers(std::vector<std::string> ssh, std::vector<HostEntry> hosts);
    ~RemoteWorkers();  ///< closes the sessions still open and removes the credentials copies left
    RemoteWorkers(const RemoteWorkers&) = delete;
    RemoteWorkers& operator=(const RemoteWorkers&) = delete;

    /// Stores `contents` (a worker credentials file) in a new 0600 file on every host; the first
    /// host that fails ends it, with an error naming that host and what to check.
    Status copyCredentials(const std::string& contents);
    /// Starts each host's workers: `workCommand` is the engine and its `work` arguments; each host's
    /// credentials copy is added as --credentials.
    Status start(const std::vector<std::string>& workCommand);
    /// Starts each host's workers as `command` under sh (RunLayout.worker_command), with `common`'s
    /// environment; each host's credentials copy, and each worker's rank (the hosts' in file order).
    Status startCommand(const std::string& command, const WorkerPlace& common);

    /// A session that ended with a failure: what to tell the person.
    struct Failure {
        std::string host, message;
    };
    /// Relays output for up to `wait`, then collects the sessions that ended; returns their failures.
    std::vector<Failure> poll(std::chrono::milliseconds wait);
    /// Sessions still open.
    size_t running() const;
    /// Waits up to `graceSeconds` for the sessions to end by themselves, then closes the rest.
    void stop(double graceSeconds);

private:
    struct Session {
        HostEntry host;
        std::string credentialsPath;  ///< on the host; empty with --insecure
        pid_t pid = -1;
        int output = -1;              ///< read end of the session's stdout and stderr
        std::string partialLine, tail;
        bool ended = false;
    };
    Status copyTo(Session& session, const std::string& contents);
    /// Opens each host's session on the remote script `script(session)` gives.
    template <typename Script>
    Status startSessions(const Script& script);
    void relay(Session& session);
    void closeOutput(Session& session);

    std::vector<std::string> m_ssh;
    std::string m_engine;       ///< what the hosts run, for messages ("the engine PATH", "the worker command '...'")
    std::string m_missingHint;  ///< what to do when it is not found there
    std::vector<Session> m_sessions;
    ProcessLauncher m_launcher;
    bool m_stopping = false;
};

}  // namespace syncscope::engine
