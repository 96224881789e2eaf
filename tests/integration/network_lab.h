// NetworkLab: network namespaces joined to this one by veth pairs, for integration tests that need
// processes on separate addresses (and, through nsenter, separate network stacks). Namespace
// k holds 10.S.k.2, joined to 10.S.k.1 here (S: the lab's subnet, so two tests' labs never clash);
// with routeViaHost, every other address is reached through this namespace too. Needs root; all of
// it (and /run/netns, when `ip netns add` made it) goes with the lab. Programs enter a namespace
// with `nsenter --net=` rather than `ip netns exec`, which also remounts / and /sys and so fails
// in a chroot or a container whose / is not a mount point ("mount --make-rslave /" failed).
#pragma once

#include <QDir>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <sys/mount.h>
#include <unistd.h>

#include <string>

namespace syncscope::testing {

inline bool runTool(const QString& program, const QStringList& args, QString* error = nullptr) {
    QProcess process;
    process.start(program, args);
    const bool ok = process.waitForFinished(10'000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    if (!ok && error)
        *error = program + " " + args.join(' ') + ": " +
                 (process.error() == QProcess::FailedToStart ? QStringLiteral("not found")
                                                             : QString::fromUtf8(process.readAllStandardError()).trimmed());
    return ok;
}

inline bool ip(const QStringList& args, QString* error = nullptr) { return runTool(QStringLiteral("ip"), args, error); }

/// The command prefix that runs a program in the named namespace.
inline QStringList inNamespace(const QString& ns) { return {QStringLiteral("nsenter"), "--net=/run/netns/" + ns}; }

/// `ip ARGS` inside the named namespace.
inline bool ipIn(const QString& ns, const QStringList& args, QString* error = nullptr) {
    const QStringList command = inNamespace(ns) + QStringList{QStringLiteral("ip")} + args;
    return runTool(command.first(), command.mid(1), error);
}

struct NetworkLabOptions {
    int subnet = 199;           ///< the second octet of the lab's addresses
    bool routeViaHost = false;  ///< a default route through this namespace's end of the pair
};

class NetworkLab {
public:
    explicit NetworkLab(int namespaces, NetworkLabOptions options = {}) : m_subnet(options.subnet) {
        static int instances = 0;  // names unique per lab: a deleted namespace's links go away asynchronously
        const QString tag = QString("%1x%2").arg(::getpid() % 10000).arg(instances++);
        m_madeRunNetns = !QDir(QStringLiteral("/run/netns")).exists();  // `ip netns add` makes it a mount
        for (int k = 0; k < namespaces; ++k) {
            const QString ns = QString("ssnf%1n%2").arg(tag).arg(k), here = QString("ss%1h%2").arg(tag).arg(k),
                          there = QString("ss%1p%2").arg(tag).arg(k);
            const QString subnet = QString("10.%1.%2.").arg(m_subnet).arg(k);
            if (!ip({"netns", "add", ns}, &m_error)) return;
            m_namespaces << ns;
            m_links << here;
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
        for (const QString& link : m_links) ip({"link", "del", link});  // the pair goes with either end
        for (const QString& ns : m_namespaces) ip({"netns", "del", ns});
        // Leave /run as it was: the folder `ip` mounted onto itself would keep a chroot (or a
        // container) from being removed ("Device or resource busy").
        if (m_madeRunNetns && QDir(QStringLiteral("/run/netns")).isEmpty()) {
            ::umount2("/run/netns", MNT_DETACH);
            QDir().rmdir(QStringLiteral("/run/netns"));
        }
    }
    NetworkLab(const NetworkLab&) = delete;
    NetworkLab& operator=(const NetworkLab&) = delete;

    bool ready() const { return m_ready; }
    const QString& error() const { return m_error; }
    const QString& name(int k) const { return m_namespaces.at(k); }
    /// The command prefix that runs a program in namespace k.
    QStringList launcher(int k) const { return inNamespace(m_namespaces.at(k)); }
    /// 10.S.k.host: host 2 is in namespace k, host 1 is this namespace's end of its pair.
    std::string address(int k, int host) const {
        return "10." + std::to_string(m_subnet) + "." + std::to_string(k) + "." + std::to_string(host);
    }

private:
    int m_subnet;
    QStringList m_namespaces, m_links;
    QString m_error;
    bool m_ready = false, m_madeRunNetns = false;
};

}  // namespace syncscope::testing
