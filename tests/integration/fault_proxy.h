// FaultProxy: a user-space TCP proxy for network-fault tests (these kernels have no netem). It
// listens on one address, connects each client through to the target, and on the way delays every
// chunk by a fixed time, drops each connection (both sides reset, mid-stream) with a chance per
// second, or all of them on demand, cuts everything while partitioned (connections reset, new
// ones refused), and holds back what the target sends while told to.
// One thread polls all sockets; what it holds back waits in per-direction queues.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <list>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace syncscope::testing {

class FaultProxy {
public:
    using Clock = std::chrono::steady_clock;
    struct Faults {
        std::chrono::milliseconds delay{0};
        double dropsPerSecond = 0;  ///< the chance that a connection is dropped in any one second
    };

    /// Listens on listenIp:port (port 0: any), forwards to targetIp:targetPort. ok() says whether it listens.
    FaultProxy(const std::string& listenIp, int port, std::string targetIp, int targetPort, Faults faults, unsigned seed)
        : m_targetIp(std::move(targetIp)), m_targetPort(targetPort), m_faults(faults), m_random(seed) {
        m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        const int on = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        sockaddr_in address = makeAddress(listenIp, port);
        socklen_t length = sizeof address;
        if (::bind(m_listen, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(m_listen, 64) != 0 ||
            ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
            ::close(m_listen);
            m_listen = -1;
            return;
        }
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { loop(); });
    }
    ~FaultProxy() {
        m_quit = true;
        if (m_thread.joinable()) m_thread.join();
        for (Link& link : m_links) closeLink(link);
        if (m_listen >= 0) ::close(m_listen);
    }
    FaultProxy(const FaultProxy&) = delete;
    FaultProxy& operator=(const FaultProxy&) = delete;

    bool ok() const { return m_listen >= 0; }
    int port() const { return m_port; }
    void setPartitioned(bool on) { m_partitioned = on; }
    void dropAllNow() { m_dropAll = true; }
    /// While on, what the target sends is read and held, not delivered: dropping the connections
    /// then loses it, as bytes in flight are lost when a middlebox drops a connection.
    void setHolding(bool on) { m_holding = on; }
    uint64_t droppedConnections() const { return m_dropped; }
    uint64_t forwardedBytes() const { return m_forwarded; }

private:
    struct Chunk {
        Clock::time_point due;
        std::string bytes;
    };
    struct Link {
        int fd[2] = {-1, -1};          // [0] the client, [1] the target
        std::deque<Chunk> pending[2];  // pending[i]: read from fd[i], to be written to fd[1 - i]
        bool ended[2] = {false, false};  // fd[i] closed its side: what it sent is still delivered, then the link goes
        bool dead = false;
    };

    static sockaddr_in makeAddress(const std::string& ip, int port) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<uint16_t>(port));
        ::inet_pton(AF_INET, ip.c_str(), &address.sin_addr);
        return address;
    }

    static void closeLink(Link& link) {
        for (int& fd : link.fd)
            if (fd >= 0) {
                linger hard{1, 0};  // a reset, as when a middlebox drops the connection
                ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
                ::close(fd);
                fd = -1;
            }
        link.dead = true;
    }

    void accept() {
        for (;;) {
            const int client = ::accept4(m_listen, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (client < 0) return;
            if (m_partitioned) {
                ::close(client);
                continue;
            }
            const int target = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);  // blocking connect: short, local
            sockaddr_in address = makeAddress(m_targetIp, m_targetPort);
            if (::connect(target, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
                ::close(target);
                ::close(client);
                continue;
            }
            ::fcntl(target, F_SETFL, ::fcntl(target, F_GETFL) | O_NONBLOCK);
            const int on = 1;
            for (int fd : {client, target}) ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
            Link link;
            link.fd[0] = client;
            link.fd[1] = target;
            m_links.push_back(std::move(link));
        }
    }

    // Reads what is there from side i into its queue; false when the link must go. A side that closes
    // (end of file) has its bytes still in flight delivered first, as a real link would.
    bool pump(Link& link, int i) {
        char buffer[64 * 1024];
        while (!link.ended[i]) {
            const ssize_t n = ::read(link.fd[i], buffer, sizeof buffer);
            if (n == 0) {
                link.ended[i] = true;
                break;
            }
            if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
            link.pending[i].push_back({Clock::now() + m_faults.delay, std::string(buffer, size_t(n))});
        }
        return true;
    }

    // Writes what is due from side i's queue to the other side; false when the link must go.
    bool deliver(Link& link, int i) {
        auto& queue = link.pending[i];
        while (!queue.empty() && queue.front().due <= Clock::now()) {
            std::string& bytes = queue.front().bytes;
            const ssize_t n = ::write(link.fd[1 - i], bytes.data(), bytes.size());
            if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
            m_forwarded += uint64_t(n);
            if (size_t(n) < bytes.size()) {
                bytes.erase(0, size_t(n));
                return true;
            }
            queue.pop_front();
        }
        return true;
    }

    void loop() {
        while (!m_quit) {
            std::vector<pollfd> fds{{m_listen, POLLIN, 0}};
            for (Link& link : m_links)
                for (int i = 0; i < 2; ++i)
                    fds.push_back({link.fd[i], static_cast<short>(link.ended[i] ? 0 : POLLIN), 0});
            // Held-back chunks fall due by the clock, so no POLLOUT (it would spin): 2 ms is the
            // resolution of the added delay.
            ::poll(fds.data(), fds.size(), 2);
            if (fds[0].revents & POLLIN) accept();
            const bool dropAll = m_dropAll.exchange(false);
            const double elapsed = std::chrono::duration<double>(Clock::now() - m_lastLoop).count();
            m_lastLoop = Clock::now();
            for (Link& link : m_links) {
                if (m_partitioned) {
                    closeLink(link);
                    continue;
                }
                if (dropAll || (m_faults.dropsPerSecond > 0 && m_uniform(m_random) < m_faults.dropsPerSecond * elapsed)) {
                    ++m_dropped;
                    closeLink(link);
                    continue;
                }
                for (int i = 0; i < 2 && !link.dead; ++i)
                    if (!pump(link, i) || (!(i == 1 && m_holding) && !deliver(link, i)) ||
                        (link.ended[i] && link.pending[i].empty()))
                        closeLink(link);
            }
            m_links.remove_if([](const Link& link) { return link.dead; });
        }
    }

    int m_listen = -1, m_port = 0;
    std::string m_targetIp;
    int m_targetPort;
    Faults m_faults;
    std::mt19937 m_random;
    std::uniform_real_distribution<double> m_uniform{0.0, 1.0};
    std::list<Link> m_links;  // only the proxy's thread touches it (and the destructor, after it)
    std::atomic<bool> m_quit{false}, m_partitioned{false}, m_dropAll{false}, m_holding{false};
    Clock::time_point m_lastLoop = Clock::now();
    std::atomic<uint64_t> m_dropped{0}, m_forwarded{0};
    std::thread m_thread;
};

}  // namespace syncscope::testing
