// TickFeeder (see console_tick_feeder.h): the synthetic run and the publishing thread.
#include "tests/bench/console_tick_feeder.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>
#include <utility>

#include "engine/net/protocol.h"
#include "engine/net/wire_codec.h"

namespace syncscope::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kHistogramBuckets = 16;
constexpr auto kWaitingTickInterval = std::chrono::milliseconds(50);

uint64_t unixMillisNow() {
    using namespace std::chrono;
    return uint64_t(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
}

void publish(zmq::socket_t& publisher, const wire::Tick& tick) {
    const std::string bytes = tick.SerializeAsString();
    (void)publisher.send(zmq::buffer(std::string(engine::kTickTopic)), zmq::send_flags::sndmore);
    (void)publisher.send(zmq::buffer(bytes), zmq::send_flags::none);
}

}  // namespace

TickFeeder::TickFeeder(const FeederSettings& settings) : m_settings(settings), m_startUnixMs(unixMillisNow()) {
    std::promise<void> bound;
    std::future<void> ready = bound.get_future();
    m_thread = std::thread([this, &bound] { run(bound); });
    ready.get();  // rethrows a failed bind
}

TickFeeder::~TickFeeder() {
    m_stop.store(true);
    m_thread.join();
}

wire::Tick TickFeeder::makeTick(int index, int workers, uint64_t startUnixMs, int eventEvery) {
    const double t = 0.1 * index;
    wire::Tick tick;
    tick.set_time_s(t);
    tick.set_unix_ms(startUnixMs + uint64_t(100 * index));
    tick.set_state(wire::RUN_RUNNING);
    tick.mutable_mode()->set_mode(wire::SSP);
    tick.mutable_mode()->set_staleness_bound(3);
    tick.set_learning_rate(0.05f);
    tick.set_version(uint64_t(index) * uint64_t(workers) / 2);
    tick.set_updates_per_s(10.0 * workers * (1.0 + 0.05 * std::sin(0.3 * t)));
    std::mt19937 noise{uint32_t(index)};
    std::uniform_real_distribution<double> jitter(-1.0, 1.0);
    tick.set_train_loss(0.25 + 2.05 * std::exp(-t / 60.0) + 0.05 * jitter(noise));
    const int evaluated = index / 10 * 10;  // a new evaluation every 10 ticks
    tick.set_test_accuracy(evaluated == 0 ? -1.0 : 0.88 - 0.7 * std::exp(-evaluated / 400.0));
    tick.set_test_version(uint64_t(evaluated) * uint64_t(workers) / 2);
    tick.set_samples_total(uint64_t(index) * uint64_t(workers) * 64);
    tick.set_progress(std::min(1.0, t / 300.0));
    for (int w = 0; w < workers; ++w) {
        wire::WorkerStats* s = tick.add_workers();
        const double speed = 1.0 + 0.5 * (w % 8) / 8.0;  // eight speed classes
        s->set_worker_id(uint32_t(w + 1));
        s->set_state(wire::WORKER_COMPUTING);
        s->set_batch_size(64);
        s->set_samples_per_s(640.0 * speed * (1.0 + 0.1 * std::sin(0.5 * t + w)) + 5.0 * jitter(noise));
        s->set_iterations_per_s(10.0 * speed);
        s->set_compute_ms(80.0 / speed + 4.0 * jitter(noise));
        s->set_comm_ms(6.0 + 2.0 * jitter(noise));
        s->set_wait_ms(std::max(0.0, 15.0 * (1.5 - speed) + 3.0 * jitter(noise)));
        const uint64_t applied = uint64_t(index) * uint64_t(speed * 10);
        s->set_pushed(applied);
        s->set_applied(applied);
        s->set_staleness_mean(1.0 + 0.5 * (w % 5) + 0.2 * jitter(noise));
        for (int b = 0; b < kHistogramBuckets; ++b) s->add_staleness_histogram(applied / uint64_t(1 + b * b));
        s->mutable_slowdown()->set_factor(1.0);
        s->set_clock(applied);
    }
    if (index % 10 == 0) {  // the engine's what-if predictions, once a second: seven options, six drawn as ghosts
        wire::WhatIf* w = tick.mutable_what_if();
        w->set_current_label("ssp s=3");
        w->set_target_accuracy(0.9);
        w->set_calibration(1.0);
        const std::pair<wire::SyncMode, const char*> options[] = {
            {wire::BSP, "bsp"}, {wire::SSP, "ssp s=3"}, {wire::ASP, "asp"}, {wire::KSYNC, "ksync K=7"},
            {wire::KASYNC, "kasync K=4"}, {wire::GROUPED, "grouped G=2 by speed"}, {wire::ELASTIC, "elastic"}};
        for (size_t i = 0; i < std::size(options); ++i) {
            wire::AutoCandidate* c = w->add_options();
            c->mutable_settings()->set_mode(options[i].first);
            c->set_label(options[i].second);
            c->set_samples_per_s(640.0 * workers * (0.8 + 0.1 * double(i)) * (1.0 + 0.05 * std::sin(0.1 * t + double(i))));
            c->set_mean_staleness(0.5 * double(i));
            c->set_effective(c->samples_per_s() / (1.0 + 0.25 * c->mean_staleness()));
            c->set_seconds_to_target(index < 30 ? -1.0 : 120.0 + 10.0 * double(i));  // after three evaluations
        }
    }
    if (index > 0 && index % eventEvery == 0) {  // an occasional event, like a student moving a slider
        const bool slowdown = index / eventEvery % 2 == 0;
        wire::Event* e = tick.add_events();
        e->set_time_s(t - 0.05);
        e->set_unix_ms(tick.unix_ms() - 50);
        e->set_version(tick.version());
        e->set_kind(slowdown ? wire::EVENT_SLOWDOWN : wire::EVENT_LEARNING_RATE);
        e->set_detail(slowdown ? "worker " + std::to_string(index / eventEvery % workers + 1) + " x1.5" : "lr 0.05");
    }
    return tick;
}

void TickFeeder::run(std::promise<void>& bound) {
    zmq::socket_t publisher(m_context, zmq::socket_type::pub), control(m_context, zmq::socket_type::router);
    try {
        publisher.set(zmq::sockopt::linger, 0);
        publisher.set(zmq::sockopt::sndhwm, 100'000);  // the console's own HWM decides what is dropped
        control.set(zmq::sockopt::linger, 0);
        publisher.bind("tcp://127.0.0.1:*");
        control.bind("tcp://127.0.0.1:*");
        m_telemetryEndpoint = publisher.get(zmq::sockopt::last_endpoint);
        m_controlEndpoint = control.get(zmq::sockopt::last_endpoint);
        bound.set_value();
    } catch (const zmq::error_t&) {
        bound.set_exception(std::current_exception());  // the constructor rethrows it to main
        return;
    }
    wire::Tick waiting = makeTick(0, m_settings.workers, m_startUnixMs);
    waiting.set_state(wire::RUN_WAITING_FOR_WORKERS);
    auto next = Clock::now();
    while (!m_stop.load() && !m_go.load()) {
        if (Clock::now() >= next) {
            publish(publisher, waiting);
            next += kWaitingTickInterval;
        }
        zmq::pollitem_t item{control.handle(), 0, ZMQ_POLLIN, 0};
        engine::pollSockets(&item, 1, std::chrono::milliseconds(5));
        serveControl(control);
    }
    const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(0.1 / m_settings.speedup));
    const auto first = Clock::now();
    next = first;
    for (int i = 1; i <= m_settings.ticks && !m_stop.load(); ++i) {
        publish(publisher, makeTick(i, m_settings.workers, m_startUnixMs, m_settings.eventEvery));
        m_sent.store(i);
        m_publishSeconds.store(std::chrono::duration<double>(Clock::now() - first).count());
        next += period;
        while (!m_stop.load()) {  // answer the console between ticks, then wait for the next slot
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now());
            if (left.count() <= 0) break;
            zmq::pollitem_t item{control.handle(), 0, ZMQ_POLLIN, 0};
            engine::pollSockets(&item, 1, left);
            serveControl(control);
        }
    }
    m_finished.store(true);
    while (!m_stop.load()) {
        zmq::pollitem_t item{control.handle(), 0, ZMQ_POLLIN, 0};
        engine::pollSockets(&item, 1, std::chrono::milliseconds(20));
        serveControl(control);
    }
}

void TickFeeder::serveControl(zmq::socket_t& control) {
    const engine::ReceiveLimits limits{engine::kMaxControlBytes, 0};
    while (auto message = engine::receiveMessage(control, true, limits)) {
        if (!*message) continue;
        engine::InboundMessage& in = message->value();
        wire::Envelope reply;
        reply.set_correlation_id(in.envelope.correlation_id());
        wire::ControlReply* body = reply.mutable_control_reply();
        if (in.envelope.control().snapshot()) {
            wire::RecordingHeader* header = body->mutable_snapshot()->mutable_header();
            header->set_protocol_major(engine::kProtocolMajor);
            header->set_protocol_minor(engine::kProtocolMinor);
            header->mutable_spec()->set_model("mlp");
            header->mutable_mode()->set_mode(wire::SSP);
            header->set_start_unix_ms(m_startUnixMs);
            header->set_expected_workers(uint32_t(m_settings.workers));
            header->set_run_id(42);
            body->set_ok(true);
            m_snapshots.fetch_add(1);
        } else {
            body->set_ok(false);
            body->set_error("the benchmark feeder only answers snapshot requests");
        }
        engine::sendMessage(control, &in.identity, reply);
    }
}

}  // namespace syncscope::bench
