// ssh commands of `launch --hosts` (see ssh_commands.h).
#include "engine/launch/ssh_commands.h"

#include <sstream>

#include <fmt/format.h>

namespace syncscope::engine {
namespace {

// The login shell may be csh or fish: each command runs under `sh -c`, quoted once for the login shell.
std::string underSh(const std::string& script) { return "exec sh -c " + shellQuote(script); }

std::string lastLine(const std::string& output) {
    std::istringstream lines(output);
    std::string line, last;
    while (std::getline(lines, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '.')) line.pop_back();
        if (!line.empty()) last = line;
    }
    return last.empty() ? "ssh exited with code 255 and said nothing" : last;
}

// `workers` copies of `startOne` (which may use $i, 0..workers-1) in the background after `prelude`;
// waits for them, removes the credentials file $c, and exits with the last failure's code.
std::string workersScript(const std::string& credentialsPath, const std::string& prelude, unsigned workers,
                          const std::string& startOne) {
    // `trap -` first: kill 0 then ends this shell too, instead of running the trap again.
    return underSh(fmt::format(
        "c={}; trap 'trap - HUP INT TERM; rm -f \"$c\"; kill 0' HUP INT TERM; {}p=; i=0; "
        "while [ $i -lt {} ]; do {} & p=\"$p $!\"; i=$((i+1)); done; "
        "s=0; for w in $p; do wait $w || s=$?; done; rm -f \"$c\"; exit $s",
        shellQuote(credentialsPath), prelude, workers, startOne));
}

}  // namespace

std::string shellQuote(const std::string& word) {
    std::string quoted = "'";
    for (char c : word) {
        if (c == '\'') quoted.append("'\\''");  // end the quote, an escaped quote, quote again
        else quoted.push_back(c);
    }
    quoted.push_back('\'');
    return quoted;
}

std::vector<std::string> splitCommand(const std::string& command) {
    std::istringstream words(command);
    std::vector<std::string> argv;
    for (std::string word; words >> word;) argv.push_back(word);
    return argv;
}

std::vector<std::string> sshArguments(const std::string& host, bool terminal, const std::string& remoteCommand) {
    // LogLevel=ERROR: ssh's errors stay, its "Connection to HOST closed." at the end of each session goes.
    std::vector<std::string> args{"-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o", "LogLevel=ERROR"};
    if (terminal) args.push_back("-tt");  // -tt: a terminal even though our stdin is not one
    args.insert(args.end(), {"--", host, remoteCommand});
    return args;
}

std::string storeCredentialsCommand() {
    return underSh("umask 077 && f=$(mktemp \"${TMPDIR:-/tmp}/syncscope-worker.XXXXXX\") && cat > \"$f\" && echo \"$f\"");
}

std::string startWorkersCommand(const std::vector<std::string>& workCommand, unsigned workers,
                                const std::string& credentialsPath) {
    std::string work;
    for (const std::string& word : workCommand) {
        if (!work.empty()) work += ' ';
        work += shellQuote(word);
    }
    return workersScript(credentialsPath, "", workers, work);
}

std::string startWorkerCommandsCommand(const std::string& command, unsigned workers, const WorkerPlace& place) {
    // The environment every worker of the host shares, exported once; the credentials are the copy
    // ($c), and each worker's rank is the host's first plus its index.
    std::string exports;
    for (const std::string& entry : workerCommandEnvironment(place)) {
        const std::string name = entry.substr(0, entry.find('='));
        if (name == kRankVariable || name == kLocalRankVariable) continue;
        exports += ' ' + name + '=' + (name == kCredentialsVariable ? "\"$c\"" : shellQuote(entry.substr(name.size() + 1)));
    }
    const std::string startOne = fmt::format("{}=$(({}+i)) {}=$i {} -c {}", kRankVariable, place.rank,
                                             kLocalRankVariable, kWorkerShell, shellQuote(command));
    return workersScript(place.credentials, "export" + exports + "; ", workers, startOne);
}

std::string removeFileCommand(const std::string& path) { return underSh("rm -f " + shellQuote(path)); }

std::string sshFailure(const std::string& host, const std::string& output) {
    return fmt::format("ssh to {0} failed: {1}; check that `ssh -o BatchMode=yes {0} true` works from here without "
                       "a password (key-based login: ssh-copy-id {0}; the host's key in known_hosts), or name an "
                       "ssh_config with --ssh 'ssh -F FILE'", host, lastLine(output));
}

}  // namespace syncscope::engine
