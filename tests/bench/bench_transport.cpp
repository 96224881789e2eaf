// bench_transport: push+pull round trips over SyncScope's wire path (Push envelope + zero-copy gradient
// frame -> Params envelope + shared parameter frame, as worker and coordinator do) against a raw cppzmq
// DEALER/ROUTER echo of the same bytes, over tcp and ipc; the wire path without authentication, with
// an authenticated data plane (PLAIN + ZAP: the worker token checked once per connection, tensors in
// the clear) and encrypted (the same, every frame sealed: engine/net/sealed_link.h), as serve's
// --data-plane offers, and ZeroMQ's CURVE on the data socket (the encrypted data plane before sealed
// frames, kept as the peer). Prints a table and `BENCH_SUMMARY {json}`. Before the table: the sealed frames' own speed
// on this host (engine/net/frame_seal.h, OpenSSL: each cipher sealing and opening one buffer in place
// on one core), and the round trips per second that speed alone allows (a round trip seals and opens
// the buffer twice): the limit of an encrypted data plane. Beside it, as the peer, libsodium's
// detached AEADs on the same buffers (the library libzmq's CURVE uses), where it is installed.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "engine/core/check.h"
#include "engine/net/endpoint.h"
#include "engine/net/frame_seal.h"
#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/net/wire_codec.h"
#include "engine/net/zap_authenticator.h"

#ifdef SYNCSCOPE_BENCH_LIBSODIUM
#include <sodium.h>
#endif

using namespace syncscope::engine;
namespace wire = syncscope::wire;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kTarget = 0.8;  // the minimum ratio to raw: the wire path, and authenticated on it

struct Buffer {
    const char* name;
    size_t floats;
};

struct Settings {
    double seconds = 0.5;
    int warmup = 3;
};

/// What is measured: raw cppzmq, or the wire path with one of the data plane's securities.
enum class Side { Raw, Wire, Authenticated, Encrypted, Curve };
constexpr Side kSides[] = {Side::Raw, Side::Wire, Side::Authenticated, Side::Encrypted, Side::Curve};
const char* sideName(Side side) {
    switch (side) {
        case Side::Raw: return "raw";
        case Side::Wire: return "syncscope";
        case Side::Authenticated: return "authenticated";
        case Side::Curve: return "curve";
        default: return "encrypted";
    }
}

EndpointSecurity securityOf(Side side, const Credentials& credentials, bool server) {
    if (side == Side::Raw || side == Side::Wire) return {};
    const Protection protection = side == Side::Authenticated ? Protection::Plain
                                  : side == Side::Encrypted   ? Protection::Sealed
                                                              : Protection::Curve;
    return server ? EndpointSecurity::server(&credentials, kDataDomain, protection)
                  : EndpointSecurity::client(&credentials, Role::Worker, protection);
}

// Polls like the worker does, then reads one whole message through the wire codec.
InboundMessage awaitWire(zmq::socket_t& socket, bool router, const ReceiveLimits& limits, LinkSeal* seal) {
    for (;;) {
        zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, std::chrono::milliseconds(100));
        if (auto message = receiveMessage(socket, router, limits, nullptr, seal)) {
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
                                        std::promise<std::string>& bound, const EndpointSecurity& security = {}) {
    zmq::socket_t socket(context, zmq::socket_type::router);
    socket.set(zmq::sockopt::linger, 0);
    applySecurity(socket, security, true);
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
               std::promise<std::string>& bound, const EndpointSecurity& security) {
    std::optional<zmq::socket_t> router = bindRouter(context, endpoint, bound, security);
    if (!router) return;
    zmq::socket_t& socket = *router;
    const std::unique_ptr<LinkSeal> seal = security.makeSeal(true);
    const SharedFloats params = std::make_shared<const std::vector<float>>(floats, 0.5f);
    const ReceiveLimits limits{kMaxEnvelopeBytes, floats * sizeof(float)};
    for (uint64_t version = 1;; ++version) {
        InboundMessage in = awaitWire(socket, true, limits, seal.get());
        if (!in.envelope.has_push()) return;
        SS_CHECK(in.tensor && in.tensor->size() == floats * sizeof(float), "gradient frame of the wrong size");
        wire::Envelope reply;
        reply.mutable_params()->set_version(version);
        reply.mutable_params()->set_batch_size(64);
        reply.mutable_params()->set_held_ms(0.0);
        zmq::message_t frame = sharedFloatsFrame(params);
        sendMessage(socket, &in.identity, reply, &frame, seal.get());
    }
}

// The worker's side: Push with a borrowed gradient frame, then wait for Params and its frame.
double wireClient(zmq::context_t& context, const std::string& address, size_t floats, const Settings& s,
                  const EndpointSecurity& security) {
    zmq::socket_t socket(context, zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 1000);  // long enough for the closing poison pill to go out
    applySecurity(socket, security, false);
    const std::unique_ptr<LinkSeal> seal = security.makeSeal(false);
    socket.connect(address);
    const std::vector<float> gradient(floats, 0.25f);
    std::atomic<int> inFlight{0};
    const ReceiveLimits limits{kMaxEnvelopeBytes, floats * sizeof(float)};
    uint64_t version = 0;
    auto roundTrip = [&] {
        while (inFlight.load(std::memory_order_acquire) > 0) std::this_thread::yield();
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
        sendMessage(socket, nullptr, envelope, &frame, seal.get());
        InboundMessage reply = awaitWire(socket, false, limits, seal.get());
        SS_CHECK(reply.envelope.has_params() && reply.tensor && reply.tensor->size() == floats * sizeof(float),
                 "a Params reply with the whole parameter frame");
        version = reply.envelope.params().version();
    };
    const double rate = roundTripsPerSecond(roundTrip, s);
    wire::Envelope pill;
    sendMessage(socket, nullptr, pill, nullptr, seal.get());
    return rate;
}

// Plain cppzmq: the ROUTER echoes the bytes it got (no copy); an empty frame is the poison pill.
void serveRaw(zmq::context_t& context, const std::string& endpoint, size_t, std::promise<std::string>& bound,
              const EndpointSecurity&) {
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
double rawClient(zmq::context_t& context, const std::string& address, size_t floats, const Settings& s,
                 const EndpointSecurity&) {
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

// One measurement: a server thread and a client, each with its own context (as two processes have);
// the server's context has a ZAP handler when the side authenticates.
double measure(Side side, const std::string& endpoint, size_t floats, const Settings& s) {
    static const Credentials credentials = Credentials::generate();
    zmq::context_t serverContext{1}, clientContext{1};
    std::optional<ZapAuthenticator> zap;
    if (side != Side::Raw && side != Side::Wire) zap.emplace(serverContext, credentials);
    std::promise<std::string> bound;
    std::future<std::string> address = bound.get_future();
    const bool wire = side != Side::Raw;
    std::thread server(wire ? serveWire : serveRaw, std::ref(serverContext), endpoint, floats, std::ref(bound),
                       securityOf(side, credentials, true));
    double rate = 0;
    try {
        const std::string at = address.get();
        const EndpointSecurity client = securityOf(side, credentials, false);
        rate = wire ? wireClient(clientContext, at, floats, s, client) : rawClient(clientContext, at, floats, s, client);
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
    std::map<Side, std::vector<double>> runs;
    std::map<Side, double> median;
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

struct CipherSpeed {
    std::string library;
    Cipher cipher;
    Buffer buffer;
    double sealGBps, openGBps, limitRoundTrips;
};

/// Seals (true) or opens (false) `frame` in place, as frame_seal.h lays it out.
using SealStep = std::function<void(bool seal, std::vector<uint8_t>& frame)>;

/// One cipher sealing, then opening, one buffer in place on this thread: medians of `repeats` runs of
/// about `seconds` each. `makeStep` gives a fresh sealer/opener pair per run.
CipherSpeed cipherSpeed(const std::string& library, Cipher cipher, const Buffer& buffer, int repeats, double seconds,
                        const std::function<SealStep()>& makeStep) {
    const size_t bytes = buffer.floats * sizeof(float);
    std::vector<uint8_t> frame(sealedSize(bytes), 0x5a);
    std::vector<double> seals, opens;
    for (int rep = 0; rep < repeats; ++rep) {
        const SealStep step = makeStep();
        double sealSeconds = 0, openSeconds = 0;
        size_t frames = 0;
        while (sealSeconds + openSeconds < seconds || frames == 0) {
            const auto t0 = Clock::now();
            step(true, frame);
            const auto t1 = Clock::now();
            step(false, frame);
            const auto t2 = Clock::now();
            sealSeconds += std::chrono::duration<double>(t1 - t0).count();
            openSeconds += std::chrono::duration<double>(t2 - t1).count();
            ++frames;
        }
        seals.push_back(double(frames) * double(bytes) / sealSeconds / 1e9);
        opens.push_back(double(frames) * double(bytes) / openSeconds / 1e9);
    }
    const double seal = median(seals), open = median(opens);
    const double perRoundTrip = 2.0 * (double(bytes) / (seal * 1e9) + double(bytes) / (open * 1e9));
    return {library, cipher, buffer, seal, open, 1.0 / perRoundTrip};
}

std::array<uint8_t, 32> benchKey() {
    std::array<uint8_t, 32> key{};
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i * 7 + 1);
    return key;
}

/// SyncScope's sealed frames (OpenSSL), on at most `threads` threads.
SealStep frameSealStep(Cipher cipher, int threads) {
    auto sealer = std::make_shared<FrameSealer>(cipher, benchKey(), threads);
    auto opener = std::make_shared<FrameOpener>(cipher, benchKey(), threads);
    return [sealer, opener](bool seal, std::vector<uint8_t>& frame) {
        if (seal)
            sealer->seal(frame.data() + kCounterBytes, *plainSizeOf(frame.size()), frame.data());
        else
            SS_CHECK(opener->open(frame.data(), frame.size()).isOk(), "a sealed frame did not open");
    };
}

#ifdef SYNCSCOPE_BENCH_LIBSODIUM
/// The peer: libsodium's detached AEADs over the same layout (AES-256-GCM with its key expanded once).
SealStep libsodiumStep(Cipher cipher) {
    auto aes = std::make_shared<crypto_aead_aes256gcm_state>();
    const auto key = benchKey();
    if (cipher == Cipher::Aes256Gcm) crypto_aead_aes256gcm_beforenm(aes.get(), key.data());
    auto counter = std::make_shared<uint64_t>(0);
    return [cipher, aes, key, counter](bool seal, std::vector<uint8_t>& frame) {
        std::array<uint8_t, 12> nonce{};
        if (seal) ++*counter;
        std::memcpy(nonce.data() + 4, counter.get(), sizeof(uint64_t));
        std::memcpy(frame.data(), counter.get(), sizeof(uint64_t));
        uint8_t* text = frame.data() + kCounterBytes;
        const size_t size = *plainSizeOf(frame.size());  // one tag, in the first tag's place
        uint8_t* tag = text + size;
        int failed = 0;
        if (cipher == Cipher::Aes256Gcm)
            failed = seal ? crypto_aead_aes256gcm_encrypt_detached_afternm(text, tag, nullptr, text, size, frame.data(),
                                                                           kCounterBytes, nullptr, nonce.data(), aes.get())
                          : crypto_aead_aes256gcm_decrypt_detached_afternm(text, nullptr, text, size, tag, frame.data(),
                                                                           kCounterBytes, nonce.data(), aes.get());
        else
            failed = seal ? crypto_aead_chacha20poly1305_ietf_encrypt_detached(text, tag, nullptr, text, size,
                                                                               frame.data(), kCounterBytes, nullptr,
                                                                               nonce.data(), key.data())
                          : crypto_aead_chacha20poly1305_ietf_decrypt_detached(text, nullptr, text, size, tag,
                                                                               frame.data(), kCounterBytes,
                                                                               nonce.data(), key.data());
        SS_CHECK(failed == 0, "libsodium could not seal or open a frame");
    };
}
#endif

std::vector<CipherSpeed> measureCiphers(const std::vector<Buffer>& buffers, int repeats, double seconds) {
    std::vector<CipherSpeed> speeds;
#ifdef SYNCSCOPE_BENCH_LIBSODIUM
    SS_CHECK(sodium_init() >= 0, "libsodium could not initialise");  // before it is asked what the CPU runs
#endif
    for (const Cipher cipher : {Cipher::Aes256Gcm, Cipher::ChaCha20Poly1305}) {
        if (cipher == Cipher::Aes256Gcm && !aesGcmAvailable()) continue;  // no AES-NI: not used
        for (const Buffer& buffer : buffers) {
            // Taking turns, so drift in the machine's speed hits both libraries alike.
            // One thread: the libraries compared; then the sealer as the data plane runs it, on its
            // segments' threads (as many as kSealThreads and the cores allow).
            speeds.push_back(cipherSpeed("OpenSSL, 1 thread", cipher, buffer, repeats, seconds,
                                         [cipher] { return frameSealStep(cipher, 1); }));
            speeds.push_back(cipherSpeed("SyncScope, " + std::to_string(sealThreads()) + " threads", cipher, buffer,
                                         repeats, seconds, [cipher] { return frameSealStep(cipher, kSealThreads); }));
#ifdef SYNCSCOPE_BENCH_LIBSODIUM
            if (cipher == Cipher::ChaCha20Poly1305 || crypto_aead_aes256gcm_is_available())
                speeds.push_back(cipherSpeed(std::string("libsodium ") + sodium_version_string(), cipher, buffer,
                                             repeats, seconds, [cipher] { return libsodiumStep(cipher); }));
#endif
        }
    }
    return speeds;
}

void printCipherSpeeds(const std::vector<CipherSpeed>& speeds) {
    std::printf("sealed frames on this host, in place:\n");
    std::printf("%-20s %-18s %-6s | %10s | %10s | %22s\n", "library", "cipher", "buffer", "seal GB/s", "open GB/s",
                "limit rt/s (2 seals+2 opens)");
    for (const CipherSpeed& c : speeds)
        std::printf("%-20s %-18s %-6s | %10.2f | %10.2f | %22.1f\n", c.library.c_str(),
                    std::string(cipherName(c.cipher)).c_str(), c.buffer.name, c.sealGBps, c.openGBps, c.limitRoundTrips);
    std::printf("\n");
}

std::string cipherSpeedsJson(const std::vector<CipherSpeed>& speeds) {
    std::string json;
    for (const CipherSpeed& c : speeds)
        json += std::string(json.empty() ? "" : ",") + "{\"library\":\"" + c.library + "\",\"cipher\":\"" +
                std::string(cipherName(c.cipher)) +
                "\",\"buffer\":\"" + c.buffer.name + "\",\"seal_gb_per_s\":" + std::to_string(c.sealGBps) +
                ",\"open_gb_per_s\":" + std::to_string(c.openGBps) +
                ",\"limit_round_trips_per_s\":" + std::to_string(c.limitRoundTrips) + "}";
    return "[" + json + "]";
}

void printReport(const std::vector<Row>& rows, int repeats, const Settings& s, const std::vector<CipherSpeed>& ciphers) {
    std::printf("%-6s %9s %-9s | %12s | %12s %6s | %13s %6s | %12s %6s | %12s %6s\n", "buffer", "floats", "transport",
                "raw rt/s", "syncscope", "ratio", "authenticated", "ratio", "encrypted", "ratio", "CURVE (peer)", "ratio");
    std::printf("%s\n", std::string(131, '-').c_str());
    std::string json;
    for (const Row& r : rows) {
        const double raw = r.median.at(Side::Raw);
        std::printf("%-6s %9zu %-9s | %12.1f | %12.1f %6.3f | %13.1f %6.3f | %12.1f %6.3f | %12.1f %6.3f\n",
                    r.buffer.name, r.buffer.floats, r.transport.c_str(), raw, r.median.at(Side::Wire),
                    r.median.at(Side::Wire) / raw, r.median.at(Side::Authenticated),
                    r.median.at(Side::Authenticated) / raw, r.median.at(Side::Encrypted),
                    r.median.at(Side::Encrypted) / raw, r.median.at(Side::Curve), r.median.at(Side::Curve) / raw);
        std::string row = "{\"buffer\":\"" + std::string(r.buffer.name) + "\",\"floats\":" +
                          std::to_string(r.buffer.floats) + ",\"transport\":\"" + r.transport + "\"";
        for (Side side : kSides) {
            const double rate = r.median.at(side);
            row += ",\"" + std::string(sideName(side)) + "\":{\"round_trips_per_s\":" + std::to_string(rate) +
                   ",\"gb_per_s\":" + std::to_string(gigabytesPerSecond(rate, r.buffer.floats)) +
                   ",\"ratio_to_raw\":" + std::to_string(rate / raw) + ",\"runs\":" + runsJson(r.runs.at(side)) + "}";
        }
        json += (json.empty() ? "" : ",") + row + ",\"authenticated_target\":" + std::to_string(kTarget) + "}";
    }
    std::printf("BENCH_SUMMARY {\"benchmark\":\"transport\",\"repeats\":%d,\"seconds\":%g,\"ciphers\":%s,\"rows\":[%s]}\n",
                repeats, s.seconds, cipherSpeedsJson(ciphers).c_str(), json.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    int repeats = 5;
    std::vector<std::string> transports{"tcp", "ipc"};
    std::vector<std::string> sides;
    bool skipCiphers = false;
    const auto measured = [&](Side side) {
        return sides.empty() || std::find(sides.begin(), sides.end(), sideName(side)) != sides.end();
    };
    CLI::App app{"Push+pull round trips: SyncScope's wire path against raw cppzmq DEALER/ROUTER"};
    app.add_option("--repeats", repeats, "Measurements per side (median reported)")->check(CLI::Range(1, 1000));
    app.add_option("--seconds", s.seconds, "Length of one measurement")->check(CLI::Range(0.01, 600.0));
    app.add_option("--warmup", s.warmup, "Untimed round trips before each measurement")->check(CLI::Range(0, 100000));
    app.add_option("--sides", sides, "Only these sides (the others print nan): raw,syncscope,authenticated,encrypted,curve")
        ->delimiter(',');
    app.add_flag("--skip-ciphers", skipCiphers, "Leave out the ciphers' own speed (e.g. to profile the round trips)");
    app.add_option("--transports", transports, "tcp and/or ipc")->check(CLI::IsMember({"tcp", "ipc"}))->delimiter(',');
    CLI11_PARSE(app, argc, argv);

    const Buffer buffers[] = {{"mlp", 235146}, {"4M", size_t(4) << 20}};
    const std::vector<CipherSpeed> ciphers =
        skipCiphers ? std::vector<CipherSpeed>{} : measureCiphers({std::begin(buffers), std::end(buffers)}, repeats, s.seconds);
    printCipherSpeeds(ciphers);
    const std::string ipcPath = "/tmp/syncscope-bench-transport-" + std::to_string(getpid()) + ".ipc";
    std::vector<Row> rows;
    for (const Buffer& buffer : buffers) {
        for (const std::string& transport : transports) {
            const std::string endpoint = transport == "tcp" ? "tcp://127.0.0.1:*" : "ipc://" + ipcPath;
            Row row{buffer, transport, {}, {}};
            for (int rep = 0; rep < repeats; ++rep) {
                // Rotate which side goes first, so drift in the machine's speed hits all alike.
                for (size_t i = 0; i < std::size(kSides); ++i) {
                    const Side side = kSides[(i + rep) % std::size(kSides)];
                    if (!measured(side)) {
                        row.runs[side].push_back(std::nan(""));
                        continue;
                    }
                    row.runs[side].push_back(measure(side, endpoint, buffer.floats, s));
                }
            }
            for (Side side : kSides) row.median[side] = median(row.runs[side]);
            std::fprintf(stderr, "%s %s: raw %.1f, syncscope %.1f, authenticated %.1f, encrypted %.1f, CURVE %.1f rt/s\n",
                         buffer.name, transport.c_str(), row.median[Side::Raw], row.median[Side::Wire],
                         row.median[Side::Authenticated], row.median[Side::Encrypted], row.median[Side::Curve]);
            rows.push_back(std::move(row));
        }
    }
    std::remove(ipcPath.c_str());  // ZeroMQ leaves the socket file behind on close
    printReport(rows, repeats, s, ciphers);
    return 0;
}
