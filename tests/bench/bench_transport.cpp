// bench_transport: push+pull round trips over SyncScope's wire path (Push envelope + zero-copy gradient
// frame -> Params envelope + shared parameter frame, as worker and coordinator do) against a raw cppzmq
// DEALER/ROUTER echo of the same bytes, over tcp and ipc. Prints a table and `BENCH_SUMMARY {json}`.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "engine/core/check.h"
#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/net/wire_codec.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kTarget = 0.8;  // the minimum SyncScope / raw ratio

struct Buffer {
    const char* name;
    size_t floats;
};

struct Settings {
    double seconds = 0.5;
    int warmup = 3;
};

// Polls like the worker does, then reads one whole message through the wire codec.
InboundMessage awaitWire(zmq::socket_t& socket, bool router, const ReceiveLimits& limits) {
    for (;;) {
        zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, std::chrono::milliseconds(100));
        if (auto message = receiveMessage(socket, router, limits)) {
            SS_CHECK(message->isOk(), message->status().message().c_str());
            return std::move(message->value());
        }
    }
}

// Round trips per second of roundTrip() over s.seconds, after s.warmup untimed ones.
template <typename RoundTrip>
double roundTripsPerSecond(RoundTrip&& roundTrip, const Settings& s) {
    for (int i = 0; i < s.warmup; ++i) roundTrip();
    const auto start = Clock::now();
    long count = 0;
    double elapsed = 0;
    for (; elapsed < s.seconds; elapsed = std::chrono::duration<double>(Clock::now() - start).count()) {
        roundTrip();
        ++count;
    }
    return count / elapsed;
}

// Binds a ROUTER and tells the waiting client its endpoint (or hands it the bind failure).
std::optional<zmq::socket_t> bindRouter(zmq::context_t& context, const std::string& endpoint,
                                        std::promise<std::string>& bound) {
    zmq::socket_t socket(context, zmq::socket_type::router);
    socket.set(zmq::sockopt::linger, 0);
    try {
        socket.bind(endpoint);
    } catch (const zmq::error_t&) {
        bound.set_exception(std::current_exception());
        return std::nullopt;
    }
    bound.set_value(socket.get(zmq::sockopt::last_endpoint));
    return socket;
}

// The coordinator's side of Push -> Params: decode, answer with the current snapshot, zero-copy.
// An envelope that is not a Push is the poison pill.
void serveWire(zmq::context_t& context, const std::string& endpoint, size_t floats,
               std::promise<std::string>& bound) {
    std::optional<zmq::socket_t> router = bindRouter(context, endpoint, bound);
    if (!router) return;
    zmq::socket_t& socket = *router;
    const SharedFloats params = std::make_shared<const std::vector<float>>(floats, 0.5f);
    const ReceiveLimits limits{kMaxEnvelopeBytes, floats * sizeof(float)};
    for (uint64_t version = 1;; ++version) {
        InboundMessage in = awaitWire(socket, true, limits);
        if (!in.envelope.has_push()) return;
        SS_CHECK(in.tensor && in.tensor->size() == floats * sizeof(float), "gradient frame of the wrong size");
        wire::Envelope reply;
        reply.mutable_params()->set_version(version);
        reply.mutable_params()->set_batch_size(64);
        reply.mutable_params()->set_held_ms(0.0);
        zmq::message_t frame = sharedFloatsFrame(params);
        sendMessage(socket, &in.identity, reply, &frame);
    }
}

// The worker's side: Push with a borrowed gradient frame, then wait for Params and its frame.
double wireClient(zmq::context_t& context, const std::string& address, size_t floats, const Settings& s) {
    zmq::socket_t socket(context, zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 1000);  // long enough for the closing poison pill to go out
    socket.connect(address);
    const std::vector<float> gradient(floats, 0.25f);
    std::atomic<bool> inFlight{false};
    const ReceiveLimits limits{kMaxEnvelopeBytes, floats * sizeof(float)};
    uint64_t version = 0;
    auto roundTrip = [&] {
        while (inFlight.load(std::memory_order_acquire)) std::this_thread::yield();
        wire::Envelope envelope;
        wire::Push* push = envelope.mutable_push();
        push->set_worker_id(0);
        push->set_has_gradient(true);
        push->set_base_version(version);
        push->set_batch_size(64);
        push->set_loss(0.5f);
        push->set_compute_ms(1.0);
        push->set_comm_ms(0.1);
        push->set_wait_ms(0.0);
        zmq::message_t frame = borrowedFloatsFrame(gradient.data(), floats, inFlight);
        sendMessage(socket, nullptr, envelope, &frame);
        InboundMessage reply = awaitWire(socket, false, limits);
        SS_CHECK(reply.envelope.has_params() && reply.tensor && reply.tensor->size() == floats * sizeof(float),
                 "a Params reply with the whole parameter frame");
        version = reply.envelope.params().version();
    };
    const double rate = roundTripsPerSecond(roundTrip, s);
    wire::Envelope pill;
    sendMessage(socket, nullptr, pill);
    return rate;
}

// Plain cppzmq: the ROUTER echoes the bytes it got (no copy); an empty frame is the poison pill.
void serveRaw(zmq::context_t& context, const std::string& endpoint, size_t, std::promise<std::string>& bound) {
    std::optional<zmq::socket_t> router = bindRouter(context, endpoint, bound);
    if (!router) return;
    zmq::socket_t& socket = *router;
    for (;;) {
        zmq::message_t identity, payload;
        (void)socket.recv(identity);
        (void)socket.recv(payload);
        if (payload.size() == 0) return;
        socket.send(identity, zmq::send_flags::sndmore);
        socket.send(payload, zmq::send_flags::none);
    }
}

// Plain cppzmq: one frame of the same bytes, sent zero-copy (its contents never change).
double rawClient(zmq::context_t& context, const std::string& address, size_t floats, const Settings& s) {
    zmq::socket_t socket(context, zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 1000);  // long enough for the closing poison pill to go out
    socket.connect(address);
    std::vector<float> bytes(floats, 0.25f);
    const size_t size = floats * sizeof(float);
    auto roundTrip = [&] {
        socket.send(zmq::message_t(bytes.data(), size, [](void*, void*) {}), zmq::send_flags::none);
        zmq::message_t reply;
        (void)socket.recv(reply);
        SS_CHECK(reply.size() == size, "an echo of the whole buffer");
    };
    const double rate = roundTripsPerSecond(roundTrip, s);
    socket.send(zmq::message_t(), zmq::send_flags::none);
    return rate;
}

// One measurement: a server thread and a client, each with its own context (as two processes have).
double measure(bool wire, const std::string& endpoint, size_t floats, const Settings& s) {
    zmq::context_t serverContext{1}, clientContext{1};
    std::promise<std::string> bound;
    std::future<std::string> address = bound.get_future();
    std::thread server(wire ? serveWire : serveRaw, std::ref(serverContext), endpoint, floats, std::ref(bound));
    double rate = 0;
    try {
        const std::string at = address.get();
        rate = wire ? wireClient(clientContext, at, floats, s) : rawClient(clientContext, at, floats, s);
    } catch (const zmq::error_t& e) {
        server.join();
        std::fprintf(stderr, "bench_transport: cannot bind %s: %s\n", endpoint.c_str(), e.what());
        std::exit(2);
    }
    server.join();
    return rate;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Row {
    Buffer buffer;
    std::string transport;
    std::vector<double> wireRuns, rawRuns;
    double wire = 0, raw = 0;
};

double gigabytesPerSecond(double roundTrips, size_t floats) { return roundTrips * 2.0 * floats * sizeof(float) / 1e9; }

std::string runsJson(const std::vector<double>& runs) {
    std::string out = "[";
    for (size_t i = 0; i < runs.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(runs[i]);
    }
    return out + "]";
}

void printReport(const std::vector<Row>& rows, int repeats, const Settings& s) {
    std::printf("%-6s %9s %-9s | %14s %9s | %14s %9s | %6s %6s %4s\n", "buffer", "floats", "transport",
                "syncscope rt/s", "GB/s", "raw rt/s", "GB/s", "ratio", "target", "met");
    std::printf("%s\n", std::string(105, '-').c_str());
    std::string json;
    for (const Row& r : rows) {
        const double ratio = r.wire / r.raw;
        const char* met = ratio >= kTarget ? "yes" : "no";
        std::printf("%-6s %9zu %-9s | %14.1f %9.3f | %14.1f %9.3f | %6.3f %6.1f %4s\n", r.buffer.name,
                    r.buffer.floats, r.transport.c_str(), r.wire, gigabytesPerSecond(r.wire, r.buffer.floats), r.raw,
                    gigabytesPerSecond(r.raw, r.buffer.floats), ratio, kTarget, met);
        char row[512];
        std::snprintf(row, sizeof row,
                      "{\"buffer\":\"%s\",\"floats\":%zu,\"transport\":\"%s\",\"syncscope_round_trips_per_s\":%.2f,"
                      "\"syncscope_gb_per_s\":%.4f,\"raw_round_trips_per_s\":%.2f,\"raw_gb_per_s\":%.4f,"
                      "\"ratio\":%.4f,\"target\":%.1f,\"met\":\"%s\",",
                      r.buffer.name, r.buffer.floats, r.transport.c_str(), r.wire,
                      gigabytesPerSecond(r.wire, r.buffer.floats), r.raw, gigabytesPerSecond(r.raw, r.buffer.floats),
                      ratio, kTarget, met);
        json += (json.empty() ? "" : ",") + std::string(row) + "\"runs\":{\"syncscope\":" + runsJson(r.wireRuns) +
                ",\"raw\":" + runsJson(r.rawRuns) + "}}";
    }
    std::printf("BENCH_SUMMARY {\"benchmark\":\"transport\",\"repeats\":%d,\"seconds\":%g,\"rows\":[%s]}\n", repeats,
                s.seconds, json.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    int repeats = 5;
    std::vector<std::string> transports{"tcp", "ipc"};
    CLI::App app{"Push+pull round trips: SyncScope's wire path against raw cppzmq DEALER/ROUTER"};
    app.add_option("--repeats", repeats, "Measurements per side (median reported)")->check(CLI::Range(1, 1000));
    app.add_option("--seconds", s.seconds, "Length of one measurement")->check(CLI::Range(0.01, 600.0));
    app.add_option("--warmup", s.warmup, "Untimed round trips before each measurement")->check(CLI::Range(0, 100000));
    app.add_option("--transports", transports, "tcp and/or ipc")->check(CLI::IsMember({"tcp", "ipc"}))->delimiter(',');
    CLI11_PARSE(app, argc, argv);

    const Buffer buffers[] = {{"mlp", 235146}, {"4M", size_t(4) << 20}};
    const std::string ipcPath = "/tmp/syncscope-bench-transport-" + std::to_string(getpid()) + ".ipc";
    std::vector<Row> rows;
    for (const Buffer& buffer : buffers) {
        for (const std::string& transport : transports) {
            const std::string endpoint = transport == "tcp" ? "tcp://127.0.0.1:*" : "ipc://" + ipcPath;
            Row row{buffer, transport, {}, {}};
            for (int rep = 0; rep < repeats; ++rep) {
                // Alternate which side goes first, so drift in the machine's speed hits both alike.
                for (bool wire : rep % 2 ? std::vector<bool>{false, true} : std::vector<bool>{true, false})
                    (wire ? row.wireRuns : row.rawRuns).push_back(measure(wire, endpoint, buffer.floats, s));
            }
            row.wire = median(row.wireRuns);
            row.raw = median(row.rawRuns);
            std::fprintf(stderr, "%s %s: syncscope %.1f rt/s, raw %.1f rt/s\n", buffer.name, transport.c_str(),
                         row.wire, row.raw);
            rows.push_back(std::move(row));
        }
    }
    std::remove(ipcPath.c_str());  // ZeroMQ leaves the socket file behind on close
    printReport(rows, repeats, s);
    return 0;
}
