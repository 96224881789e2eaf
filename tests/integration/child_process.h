// Starting programs from the engine's integration tests without Qt: a command line (Args), a child
// process (fork and exec) whose output goes to files, so nothing is lost when it is killed and a
// chatty child never blocks on a full pipe, and runProgram, which runs one to its end and returns
// what it printed. A child sees what a QProcess child saw: an open pipe on standard input, no
// process group of its own; an exit by a signal reads as exit code -1, as QProcess has it
// (ProcessLauncher's 128 + signal would pass a test's `exitCode > 0` for a crash).
#pragma once

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "tests/unit/test_helpers.h"

namespace syncscope::testing {

/// A command line's words, with the conveniences of the QStringList the tests were written with.
class Args : public std::vector<std::string> {
public:
    using std::vector<std::string>::vector;
    bool contains(const std::string& word) const {
        for (const std::string& w : *this)
            if (w == word) return true;
        return false;
    }
    Args& operator<<(std::string word) {
        push_back(std::move(word));
        return *this;
    }
    std::string join(const std::string& separator = " ") const {
        std::string text;
        for (size_t i = 0; i < size(); ++i) text += (i ? separator : std::string()) + (*this)[i];
        return text;
    }
    friend Args operator+(Args a, const Args& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }
};

/// The program's path: as given when it names one (has a '/'), else found on $PATH; empty when it
/// is not there (or not executable).
inline std::string findExecutable(const std::string& program) {
    if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0 ? program : std::string();
    const char* path = std::getenv("PATH");
    for (const std::string& folder : split(path && *path ? path : "/usr/local/bin:/usr/bin:/bin", ':')) {
        const std::string candidate = (folder.empty() ? std::string(".") : folder) + "/" + program;
        struct stat info {};
        if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

struct ChildOptions {
    std::string stdoutPath;  ///< where standard output goes; empty: /dev/null
    std::string stderrPath;  ///< where standard error goes; empty: /dev/null; stdoutPath: merged into it
    bool killWithParent = true;    ///< PR_SET_PDEATHSIG SIGKILL: nothing outlives a crashed test
    std::string workingDirectory;  ///< empty: this process's
};

/// One child process. The destructor kills (SIGKILL) and reaps it if it still runs.
class ChildProcess {
public:
    ChildProcess() = default;
    ~ChildProcess() { kill(); }
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    /// Starts `program` (found on $PATH unless it names a path) with `args`; false, with error()
    /// saying why, when it could not be started (not found, or exec failed).
    bool start(const std::string& program, const Args& args, const ChildOptions& options = {}) {
        const std::string path = findExecutable(program);
        if (path.empty()) {
            m_error = program + ": not found";
            return false;
        }
        // Everything the child needs is made before fork: after it, the child (of a possibly
        // multithreaded parent) makes only async-signal-safe calls.
        std::vector<std::string> words{program};
        words.insert(words.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& w : words) argv.push_back(w.data());
        argv.push_back(nullptr);
        const auto openOutput = [](const std::string& file) {
            return file.empty() ? ::open("/dev/null", O_WRONLY | O_CLOEXEC)
                                : ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        };
        const int out = openOutput(options.stdoutPath);
        const int err = !options.stderrPath.empty() && options.stderrPath == options.stdoutPath ? out
                                                                                                : openOutput(options.stderrPath);
        int input[2] = {-1, -1}, report[2] = {-1, -1};  // stdin; exec's failure (closed on success)
        if (out < 0 || err < 0 || ::pipe2(input, O_CLOEXEC) != 0 || ::pipe2(report, O_CLOEXEC) != 0) {
            m_error = program + ": cannot set up its output: " + std::strerror(errno);
            for (int fd : {out, err == out ? -1 : err, input[0], input[1], report[0], report[1]})
                if (fd >= 0) ::close(fd);
            return false;
        }
        const char* folder = options.workingDirectory.empty() ? nullptr : options.workingDirectory.c_str();
        const pid_t pid = ::fork();
        if (pid == 0) {
            if (options.killWithParent) ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            int failure = 0;
            if (folder && ::chdir(folder) != 0) failure = errno;
            if (!failure && (::dup2(input[0], STDIN_FILENO) < 0 || ::dup2(out, STDOUT_FILENO) < 0 ||
                             ::dup2(err, STDERR_FILENO) < 0))
                failure = errno;
            if (!failure) {
                ::execv(path.c_str(), argv.data());
                failure = errno;
            }
            (void)!::write(report[1], &failure, sizeof failure);
            ::_exit(127);
        }
        const int forkError = errno;
        for (int fd : {out, err == out ? -1 : err, input[0], report[1]}) ::close(fd);
        if (pid < 0) {
            ::close(report[0]);
            ::close(input[1]);
            m_error = program + ": fork failed: " + std::strerror(forkError);
            return false;
        }
        int failure = 0;
        ssize_t n;
        while ((n = ::read(report[0], &failure, sizeof failure)) < 0 && errno == EINTR) {
        }
        ::close(report[0]);
        if (n > 0) {  // exec (or what came before it) failed: the child is gone
            ::waitpid(pid, nullptr, 0);
            ::close(input[1]);
            m_error = program + ": cannot start: " + std::strerror(failure);
            return false;
        }
        m_pid = pid;
        m_stdin = input[1];
        m_exited = false;
        m_status = 0;
        return true;
    }

    const std::string& error() const { return m_error; }
    /// The child's process id; -1 before a successful start.
    pid_t pid() const { return m_pid; }
    /// Started and not yet exited.
    bool running() {
        reap(false);
        return m_pid > 0 && !m_exited;
    }
    /// Waits up to `timeoutMs` for the child to exit; true once it has (or never ran).
    bool waitForExit(long long timeoutMs) {
        const Deadline deadline(timeoutMs);
        while (running()) {
            if (deadline.expired()) return false;
            sleepMs(10);
        }
        return true;
    }
    /// SIGTERM; returns at once.
    void terminate() {
        if (running()) ::kill(m_pid, SIGTERM);
    }
    /// SIGKILL, and waits until it is gone.
    void kill() {
        if (running()) {
            ::kill(m_pid, SIGKILL);
            reap(true);
        }
        closeInput();
    }
    /// The exit code of a normal exit; -1 while it runs, after a signal, or when it never started.
    int exitCode() const { return m_pid > 0 && m_exited && WIFEXITED(m_status) ? WEXITSTATUS(m_status) : -1; }

private:
    void reap(bool block) {
        if (m_pid <= 0 || m_exited) return;
        int status = 0;
        pid_t r;
        while ((r = ::waitpid(m_pid, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR) {
        }
        if (r == m_pid) {
            m_exited = true;
            m_status = status;
            closeInput();
        } else if (r < 0) {  // reaped elsewhere: gone, how is unknown
            m_exited = true;
            m_status = -1;
            closeInput();
        }
    }
    void closeInput() {
        if (m_stdin >= 0) ::close(m_stdin);
        m_stdin = -1;
    }

    pid_t m_pid = -1;
    int m_stdin = -1;  // the write end of the child's standard input, open while it runs (as QProcess's)
    bool m_exited = false;
    int m_status = 0;
    std::string m_error;
};

/// What a program run to its end printed, and how it ended.
struct ProgramRun {
    bool started = false;   ///< false: error says why
    bool finished = false;  ///< it exited by itself within the time given (else it was killed)
    int exitCode = -1;      ///< of a normal exit; -1 after a signal, when killed, or never started
    std::string out, err;   ///< standard output and error (both in out when merged)
    std::string error;      ///< why it did not start
};

/// Runs `program` with `args` until it exits or `timeoutMs` passes (then it is killed).
inline ProgramRun runProgram(const std::string& program, const Args& args, long long timeoutMs,
                             bool mergeChannels = false, const std::string& workingDirectory = {}) {
    ProgramRun run;
    TempDir dir;
    ChildOptions options;
    options.stdoutPath = dir.filePath("out");
    options.stderrPath = mergeChannels ? options.stdoutPath : dir.filePath("err");
    options.workingDirectory = workingDirectory;
    ChildProcess child;
    run.started = child.start(program, args, options);
    if (!run.started) {
        run.error = child.error();
        return run;
    }
    run.finished = child.waitForExit(timeoutMs);
    if (!run.finished) child.kill();
    run.exitCode = child.exitCode();
    run.out = readFile(options.stdoutPath);
    if (!mergeChannels) run.err = readFile(options.stderrPath);
    return run;
}

}  // namespace syncscope::testing
