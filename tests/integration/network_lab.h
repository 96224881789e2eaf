// NetworkLab: network namespaces joined to this one by veth pairs, for integration tests that need
// processes on separate addresses (and, through nsenter, separate network stacks). Namespace
// k holds 10.S.k.2, joined to 10.S.k.1 here (S: the lab's subnet, so two tests' labs never clash);
// with routeViaHost, every other address is reached through this namespace too. Needs root; all of
// it (and /run/netns, when `ip netns add` made it) goes with the lab. Programs enter a namespace
// with `nsenter --net=` rather than `ip netns exec`, which also remounts / and /sys and so fails
// in a chroot or a container whose / is not a mount point ("mount --make-rslave /" failed).
#pragma once

#include <sys/mount.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/integration/child_process.h"

namespace syncscope::testing {

inline bool runTool(const std::string& program, const Args& args, std::string* error = nullptr) {
    const ProgramRun run = runProgram(program, args, 10'000);
    const bool ok = run.started && run.finished && run.exitCode == 0;
    if (!ok && error) *error = program + " " + args.join(" ") + ": " + (run.started ? trimmed(run.err) : "not found");
    return ok;
}

inline bool ip(const Args& args, std::string* error = nullptr) { return runTool("ip", args, error); }

/// The command prefix that runs a program in the named namespace.
inline Args inNamespace(const std::string& ns) { return {"nsenter", "--net=/run/netns/" + ns}; }

/// `ip ARGS` inside the named namespace.
inline bool ipIn(const std::string& ns, const Args& args, std::string* error = nullptr) {
    const Args command = inNamespace(ns) + Args{"ip"} + args;
    return runTool(command.front(), Args(command.begin() + 1, command.end()), error);
}

struct NetworkLabOptions {
    int subnet = 199;           ///< the second octet of the lab's addresses
    bool routeViaHost = false;  ///< a default route through this namespace's end of the pair
};

class NetworkLab {
public:
    explicit NetworkLab(int namespaces, NetworkLabOptions options = {}) : m_subnet(options.subnet) {
        static int instances = 0;  // names unique per lab: a deleted namespace's links go away asynchronously
        const std::string tag = std::to_string(::getpid() % 10000) + "x" + std::to_string(instances++);
        m_madeRunNetns = !std::filesystem::exists("/run/netns");  // `ip netns add` makes it a mount
        for (int k = 0; k < namespaces; ++k) {
            const std::string n = std::to_string(k);
            const std::string ns = "ssnf" + tag + "n" + n, here = "ss" + tag + "h" + n, there = "ss" + tag + "p" + n;
            const std::string subnet = "10." + std::to_string(m_subnet) + "." + n + ".";
            if (!ip({"netns", "add", ns}, &m_error)) return;
            m_namespaces.push_back(ns);
            m_links.push_back(here);
            if (!ip({"link", "add", here, "type", "veth", "peer", "name", there}, &m_error) ||
                !ip({"link", "set", there, "netns", ns}, &m_error) || !ip({"addr", "add", subnet + "1/24", "dev", here}, &m_error) ||
                !ip({"link", "set", here, "up"}, &m_error) ||
                !ipIn(ns, {"addr", "add", subnet + "2/24", "dev", there}, &m_error) ||
                !ipIn(ns, {"link", "set", there, "up"}, &m_error) || !ipIn(ns, {"link", "set", "lo", "up"}, &m_error))
                return;
            if (options.routeViaHost && !ipIn(ns, {"route", "add", "default", "via", subnet + "1"}, &m_error)) return;
        }
        m_ready = true;
    }
    ~NetworkLab() {
        for (const std::string& link : m_links) ip({"link", "del", link});  // the pair goes with either end
        for (const std::string& ns : m_namespaces) ip({"netns", "del", ns});
        // Leave /run as it was: the folder `ip` mounted onto itself would keep a chroot (or a
        // container) from being removed ("Device or resource busy").
        std::error_code error;
        if (m_madeRunNetns && std::filesystem::is_empty("/run/netns", error) && !error) {
            ::umount2("/run/netns", MNT_DETACH);
            std::filesystem::remove("/run/netns", error);
        }
    }
    NetworkLab(const NetworkLab&) = delete;
    NetworkLab& operator=(const NetworkLab&) = delete;

    bool ready() const { return m_ready; }
    const std::string& error() const { return m_error; }
    const std::string& name(int k) const { return m_namespaces.at(size_t(k)); }
    /// The command prefix that runs a program in namespace k.
    Args launcher(int k) const { return inNamespace(m_namespaces.at(size_t(k))); }
    /// 10.S.k.host: host 2 is in namespace k, host 1 is this namespace's end of its pair.
    std::string address(int k, int host) const {
        return "10." + std::to_string(m_subnet) + "." + std::to_string(k) + "." + std::to_string(host);
    }

private:
    int m_subnet;
    std::vector<std::string> m_namespaces, m_links;
    std::string m_error;
    bool m_ready = false, m_madeRunNetns = false;
};

}  // namespace syncscope::testing
