// RemoteWorkers (see remote_workers.h): ssh sessions as child processes, their output read through
// pipes, one poll() over all of them.
#include "engine/launch/remote_workers.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "engine/launch/ssh_commands.h"

namespace syncscope::engine {
namespace {

constexpr size_t kTailBytes = 4096;   // what a failure message quotes from
constexpr double kCopySeconds = 60;   // one credentials copy, connection included

struct Pipe {
    int read = -1, write = -1;
    Pipe() {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) == 0) read = fds[0], write = fds[1];
    }
    ~Pipe() { closeBoth(); }
    void closeRead() { if (read >= 0) ::close(read), read = -1; }
    void closeWrite() { if (write >= 0) ::close(write), write = -1; }
    void closeBoth() { closeRead(), closeWrite(); }
    bool ok() const { return read >= 0; }
};

void keepTail(std::string& tail, const char* data, size_t size) {
    tail.append(data, size);
    if (tail.size() > kTailBytes) tail.erase(0, tail.size() - kTailBytes);
}

struct Captured {
    int exitCode = -1;
    std::string out, err;
};

// Runs one ssh command to its end with `input` on its stdin; stdout and stderr kept apart.
Result<Captured> runCaptured(ProcessLauncher& launcher, const std::vector<std::string>& argv, const std::string& input) {
    Pipe in, out, err;
    if (!in.ok() || !out.ok() || !err.ok()) return unavailable(std::string("pipe: ") + std::strerror(errno));
    LaunchOptions options;
    options.stdinFd = in.read;
    options.stdoutFd = out.write;
    options.stderrFd = err.write;
    auto pid = launcher.start(argv.front(), {argv.begin() + 1, argv.end()}, options);
    in.closeRead(), out.closeWrite(), err.closeWrite();
    if (!pid) return pid.status();
    // A credentials file is far smaller than a pipe's buffer: written whole before anything is read.
    if (write(in.write, input.data(), input.size()) != static_cast<ssize_t>(input.size()))
        return unavailable(std::string("cannot hand ssh its input: ") + std::strerror(errno));
    in.closeWrite();
    Captured captured;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kCopySeconds);
    pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
    std::string* into[2] = {&captured.out, &captured.err};
    while ((fds[0].fd >= 0 || fds[1].fd >= 0) && std::chrono::steady_clock::now() < deadline) {
        if (::poll(fds, 2, 200) < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buffer[4096];
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) keepTail(*into[i], buffer, size_t(n));
            else if (n == 0 || errno != EINTR) fds[i].fd = -1;
        }
    }
    while (launcher.running(*pid, &captured.exitCode)) {
        if (std::chrono::steady_clock::now() > deadline) {
            launcher.stopAll(1.0);
            return unavailable(fmt::format("no answer within {:g} s", kCopySeconds));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return captured;
}

// The message for a session that ended with `code` before the run did.
std::string failureMessage(const std::string& host, int code, const std::string& tail, const std::string& what,
                           const std::string& hint) {
    if (code == 255) return sshFailure(host, tail);
    if (code == 126 || code == 127) return fmt::format("{} could not start on {} (exit code {}); {}", what, host, code, hint);
    return fmt::format("the workers on {} ended with exit code {} (their output is above, each line after '{}: ')",
                       host, code, host);
}

// execv does not search PATH: --ssh's program found the way a shell would find it.
std::string inPath(const std::string& program) {
    if (program.find('/') != std::string::npos) return program;
    const char* path = std::getenv("PATH");
    std::istringstream folders(path ? path : "/usr/bin:/bin");
    for (std::string folder; std::getline(folders, folder, ':');) {
        const std::string candidate = (folder.empty() ? "." : folder) + "/" + program;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return program;  // the launcher's error then names it
}

}  // namespace

RemoteWorkers::RemoteWorkers(std::vector<std::string> ssh, std::vector<HostEntry> hosts) : m_ssh(std::move(ssh)) {
    if (!m_ssh.empty()) m_ssh.front() = inPath(m_ssh.front());
    for (HostEntry& host : hosts) {
        m_sessions.emplace_back();
        m_sessions.back().host = std::move(host);
    }
}

RemoteWorkers::~RemoteWorkers() {
    stop(0);
    // Copies no session was started with: their scripts never ran, so nothing removes them there.
    for (Session& s : m_sessions) {
        if (s.credentialsPath.empty() || s.pid >= 0) continue;
        std::vector<std::string> argv = m_ssh;
        for (std::string& a : sshArguments(s.host.host, false, removeFileCommand(s.credentialsPath)))
            argv.push_back(std::move(a));
        if (auto removed = runCaptured(m_launcher, argv, ""); !removed || removed->exitCode != 0)
            std::fprintf(stderr, "warning: could not remove the worker credentials %s on %s; remove that file\n",
                         s.credentialsPath.c_str(), s.host.host.c_str());
    }
}

Status RemoteWorkers::copyTo(Session& s, const std::string& contents) {
    std::vector<std::string> argv = m_ssh;
    for (std::string& a : sshArguments(s.host.host, false, storeCredentialsCommand())) argv.push_back(std::move(a));
    auto copied = runCaptured(m_launcher, argv, contents);
    if (!copied)
        return unavailable(fmt::format("ssh to {} failed: {} (Debian: apt-get install openssh-client; or give its "
                                       "path with --ssh)", s.host.host, copied.status().message()));
    if (copied->exitCode == 255) return unavailable(sshFailure(s.host.host, copied->err));
    std::string path = copied->out;
    while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
    if (copied->exitCode != 0 || path.empty() || path.front() != '/' || path.find('\n') != std::string::npos)
        return unavailable(fmt::format("could not store the worker credentials on {} (exit code {}): {}",
                                       s.host.host, copied->exitCode, copied->err.empty() ? copied->out : copied->err));
    s.credentialsPath = path;
    return Status::ok();
}

Status RemoteWorkers::copyCredentials(const std::string& contents) {
    for (Session& s : m_sessions) {
        if (Status status = copyTo(s, contents); !status) return status;
        std::fprintf(stderr, "%s: worker credentials in %s (mode 0600; removed when its workers end)\n",
                     s.host.host.c_str(), s.credentialsPath.c_str());
    }
    return Status::ok();
}

template <typename Script>
Status RemoteWorkers::startSessions(const Script& script) {
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    for (Session& s : m_sessions) {
        std::vector<std::string> argv = m_ssh;
        for (std::string& a : sshArguments(s.host.host, true, script(s))) argv.push_back(std::move(a));
        Pipe output;
        if (!output.ok()) return unavailable(std::string("pipe: ") + std::strerror(errno));
        LaunchOptions options;
        options.stdinFd = devNull;  // never the person's terminal: ssh -tt would take it over
        options.stdoutFd = options.stderrFd = output.write;
        auto pid = m_launcher.start(argv.front(), {argv.begin() + 1, argv.end()}, options);
        if (!pid) {
            ::close(devNull);
            return unavailable(fmt::format("cannot run {} for {}: {}", argv.front(), s.host.host, pid.status().message()));
        }
        s.pid = *pid;
        s.output = output.read;
        output.read = -1;
        fcntl(s.output, F_SETFL, O_NONBLOCK);
        std::fprintf(stderr, "%s: starting %u worker%s over ssh\n", s.host.host.c_str(), s.host.workers,
                     s.host.workers == 1 ? "" : "s");
    }
    if (devNull >= 0) ::close(devNull);
    return Status::ok();
}

Status RemoteWorkers::start(const std::vector<std::string>& workCommand) {
    m_engine = "the engine " + workCommand.front();
    m_missingHint = "install syncscope-engine there, or give its path on the hosts with --engine PATH";
    return startSessions([&](const Session& s) {
        std::vector<std::string> work = workCommand;
        if (!s.credentialsPath.empty()) work.insert(work.end(), {"--credentials", s.credentialsPath});
        return startWorkersCommand(work, s.host.workers, s.credentialsPath);
    });
}

Status RemoteWorkers::startCommand(const std::string& command, const WorkerPlace& common) {
    m_engine = "the worker command '" + command + "'";
    m_missingHint = "install what it runs there (python3, your script, the syncscope package) and check its paths";
    unsigned firstRank = 0;
    return startSessions([&](const Session& s) {
        WorkerPlace place = common;
        place.credentials = s.credentialsPath;
        place.rank = firstRank;
        firstRank += s.host.workers;
        return startWorkerCommandsCommand(command, s.host.workers, place);
    });
}

void RemoteWorkers::relay(Session& s) {
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(s.output, buffer, sizeof buffer)) > 0) {
        keepTail(s.tail, buffer, size_t(n));
        for (ssize_t i = 0; i < n; ++i) {
            if (buffer[i] == '\r') continue;  // the remote terminal ends lines with \r\n
            if (buffer[i] != '\n') {
                s.partialLine += buffer[i];
                continue;
            }
            std::fprintf(stderr, "%s: %s\n", s.host.host.c_str(), s.partialLine.c_str());
            s.partialLine.clear();
        }
    }
    if (n == 0) closeOutput(s);
}

void RemoteWorkers::closeOutput(Session& s) {
    if (s.output < 0) return;
    if (!s.partialLine.empty()) std::fprintf(stderr, "%s: %s\n", s.host.host.c_str(), s.partialLine.c_str());
    s.partialLine.clear();
    ::close(s.output);
    s.output = -1;
}

std::vector<RemoteWorkers::Failure> RemoteWorkers::poll(std::chrono::milliseconds wait) {
    std::vector<pollfd> fds;
    for (const Session& s : m_sessions)
        if (s.output >= 0) fds.push_back({s.output, POLLIN, 0});
    if (fds.empty()) std::this_thread::sleep_for(wait);
    else ::poll(fds.data(), fds.size(), static_cast<int>(wait.count()));
    std::vector<Failure> failures;
    for (Session& s : m_sessions) {
        if (s.output >= 0) relay(s);
        int code = -1;
        if (s.pid < 0 || s.ended || m_launcher.running(s.pid, &code)) continue;
        if (s.output >= 0) relay(s), closeOutput(s);
        s.ended = true;
        if (code != 0 && !m_stopping)
            failures.push_back({s.host.host, failureMessage(s.host.host, code, s.tail, m_engine, m_missingHint)});
    }
    return failures;
}

size_t RemoteWorkers::running() const {
    size_t open = 0;
    for (const Session& s : m_sessions) open += s.pid >= 0 && !s.ended;
    return open;
}

void RemoteWorkers::stop(double graceSeconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(graceSeconds);
    while (running() > 0 && std::chrono::steady_clock::now() < deadline) poll(std::chrono::milliseconds(100));
    m_stopping = true;
    if (running() > 0)
        std::fprintf(stderr, "closing the ssh sessions of %zu host%s (their workers are stopped there)\n", running(),
                     running() == 1 ? "" : "s");
    m_launcher.stopAll(3.0);  // SIGTERM: ssh closes the connection, the remote terminal hangs up
    poll(std::chrono::milliseconds(0));
    for (Session& s : m_sessions) closeOutput(s);
}

}  // namespace syncscope::engine
