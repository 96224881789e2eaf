// bench_stream: the machine's ceiling for moving gradients, one way, as fast as ZeroMQ carries them:
// K DEALERs stream mlp-sized frames (zero-copy, never waiting for a reply) into one ROUTER over TCP
// loopback, without authentication and with CURVE (every byte encrypted, as the data plane's default),
// next to a single-thread memcpy of the same frames. Prints a table and `BENCH_SUMMARY {json}`.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "engine/net/credentials.h"
#include "engine/net/endpoint.h"
#include "engine/net/zap_authenticator.h"

using namespace syncscope::engine;
using Clock = std::chrono::steady_clock;
using Seconds = std::chrono::duration<double>;

namespace {

struct Settings {
    size_t floats = 235146;  // the mlp
    double warmup = 0.5, seconds = 2.0;
};

// Sends the same frame (borrowed, never freed) until told to stop; a full queue is waited on in
// short polls so the stop flag is seen.
void streamSender(const std::string& address, const EndpointSecurity& security, const std::vector<float>& frame,
                  const std::atomic<bool>& stop) {
    zmq::context_t context{1};
    zmq::socket_t socket(context, zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 0);
    applySecurity(socket, security, false);
    socket.connect(address);
    const size_t bytes = frame.size() * sizeof(float);
    while (!stop.load()) {
        zmq::message_t message(const_cast<float*>(frame.data()), bytes, [](void*, void*) {});
        if (!socket.send(message, zmq::send_flags::dontwait)) {
            zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLOUT, 0};
            zmq::poll(&item, 1, std::chrono::milliseconds(10));
        }
    }
}

// Bytes per second received by one ROUTER from `streams` senders over the window.
double measureStream(bool curve, unsigned streams, const Settings& s) {
    static const Credentials credentials = Credentials::generate();
    zmq::context_t context{1};
    std::optional<ZapAuthenticator> zap;
    if (curve) zap.emplace(context, credentials);
    zmq::socket_t router(context, zmq::socket_type::router);
    router.set(zmq::sockopt::linger, 0);
    applySecurity(router, curve ? EndpointSecurity::server(&credentials, kDataDomain) : EndpointSecurity{}, true);
    router.bind("tcp://127.0.0.1:*");
    const std::string address = router.get(zmq::sockopt::last_endpoint);
    const EndpointSecurity client = curve ? EndpointSecurity::client(&credentials, Role::Worker) : EndpointSecurity{};
    const std::vector<float> frame(s.floats, 0.25f);
    std::atomic<bool> stop{false};
    std::vector<std::thread> senders;
    for (unsigned i = 0; i < streams; ++i)
        senders.emplace_back(streamSender, address, std::cref(client), std::cref(frame), std::cref(stop));

    const auto start = Clock::now();
    const auto windowStart = start + Seconds(s.warmup), windowEnd = windowStart + Seconds(s.seconds);
    double counted = 0;
    for (auto now = start; now < windowEnd; now = Clock::now()) {
        zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, std::chrono::milliseconds(10));
        zmq::message_t identity, payload;
        while (router.recv(identity, zmq::recv_flags::dontwait)) {
            (void)router.recv(payload);
            if (Clock::now() >= windowStart) counted += static_cast<double>(payload.size());
        }
    }
    stop = true;
    for (auto& t : senders) t.join();
    return counted / s.seconds;
}

// One thread copying the same frame size over and over: what a byte costs without any socket.
double measureMemcpy(const Settings& s) {
    const std::vector<float> source(s.floats, 0.25f);
    std::vector<float> target(s.floats);
    const size_t bytes = s.floats * sizeof(float);
    double copied = 0;
    const auto start = Clock::now();
    while (Seconds(Clock::now() - start).count() < s.seconds) {
        std::memcpy(target.data(), source.data(), bytes);
        asm volatile("" : : "r"(target.data()) : "memory");  // the copy is not optimised away
        copied += static_cast<double>(bytes);
    }
    return copied / Seconds(Clock::now() - start).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string runsJson(const std::vector<double>& runs) {
    std::string out = "[";
    for (size_t i = 0; i < runs.size(); ++i) out += (i ? "," : "") + std::to_string(runs[i] / 1e6);
    return out + "]";
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    int repeats = 3;
    std::vector<unsigned> streamCounts{1, 4};
    CLI::App app{"One-way ZeroMQ TCP loopback throughput of gradient-sized frames, without and with CURVE"};
    app.add_option("--floats", s.floats, "Floats per frame (default: the mlp's 235,146)")->check(CLI::Range(1, 1 << 28));
    app.add_option("--seconds", s.seconds, "Measurement window")->check(CLI::Range(0.1, 600.0));
    app.add_option("--warmup", s.warmup, "Seconds streamed before the window opens")->check(CLI::Range(0.0, 60.0));
    app.add_option("--repeats", repeats, "Measurements per row, rows taking turns (median reported)")
        ->check(CLI::Range(1, 100));
    app.add_option("--streams", streamCounts, "Sender counts to measure (each its own context, as a worker)")
        ->check(CLI::Range(1, 256))
        ->delimiter(',');
    CLI11_PARSE(app, argc, argv);

    struct Row {
        std::string name;
        bool curve;
        unsigned streams;
        std::vector<double> runs;
    };
    std::vector<Row> rows;
    for (unsigned k : streamCounts)
        for (bool curve : {false, true}) rows.push_back({curve ? "curve" : "none", curve, k, {}});
    std::vector<double> memcpyRuns;
    for (int rep = 0; rep < repeats; ++rep) {
        for (Row& row : rows) {
            row.runs.push_back(measureStream(row.curve, row.streams, s));
            std::fprintf(stderr, "%s x%u: %.1f MB/s\n", row.name.c_str(), row.streams, row.runs.back() / 1e6);
        }
        memcpyRuns.push_back(measureMemcpy(s));
    }

    const double frameBytes = static_cast<double>(s.floats * sizeof(float));
    std::printf("%-10s %7s | %10s %10s\n", "security", "streams", "MB/s", "frames/s");
    std::printf("%s\n", std::string(42, '-').c_str());
    std::string json;
    for (const Row& row : rows) {
        const double rate = median(row.runs);
        std::printf("%-10s %7u | %10.1f %10.1f\n", row.name.c_str(), row.streams, rate / 1e6, rate / frameBytes);
        json += std::string(json.empty() ? "" : ",") + "{\"security\":\"" + row.name +
                "\",\"streams\":" + std::to_string(row.streams) + ",\"mb_per_s\":" + std::to_string(rate / 1e6) +
                ",\"frames_per_s\":" + std::to_string(rate / frameBytes) + ",\"runs_mb_per_s\":" + runsJson(row.runs) +
                "}";
    }
    const double copy = median(memcpyRuns);
    std::printf("%-10s %7s | %10.1f %10.1f\n", "memcpy", "1 thread", copy / 1e6, copy / frameBytes);
    std::printf("BENCH_SUMMARY {\"benchmark\":\"stream\",\"frame_bytes\":%.0f,\"seconds\":%g,\"repeats\":%d,"
                "\"memcpy_mb_per_s\":%.1f,\"rows\":[%s]}\n",
                frameBytes, s.seconds, repeats, copy / 1e6, json.c_str());
    return 0;
}
