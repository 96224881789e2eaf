// bench_compute: training samples/s of one model on one backend, real Fashion-MNIST batches.
// Prints `BENCH {json}`; tests/bench/run_compute_bench.py runs it beside the PyTorch peer.
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>
#include <numeric>
#include <string>
#include <vector>

#include "engine/cli/cli_errors.h"
#include "engine/model/batch_feeder.h"
#include "engine/model/fashion_mnist.h"
#include "engine/model/model_zoo.h"
#include "engine/model/sgd_optimizer.h"
#include "engine/model/training_step.h"
#include "tests/bench/op_timing_backend.h"

using namespace syncscope::engine;

namespace {

/// Trains `steps` steps of a fresh model (seed 1) on the batches of `order`, the step run as `mode`;
/// returns the parameters and how the steps ran.
std::pair<std::vector<float>, std::string> trainSteps(Backend& backend, const ImageDataset& train,
                                                      const std::string& modelName, int batch, int steps,
                                                      const std::vector<int32_t>& order, TrainingStep::Mode mode) {
    auto model = createModel(backend, modelName, batch, 1);
    if (!model) return {{}, model.status().message()};
    BatchFeeder feeder(backend, train, batch);
    SgdOptimizer optimizer(backend, (*model)->parameterCount(), SgdSettings{});
    TrainingStep trainingStep(**model, optimizer, feeder.images(), feeder.labels(), mode);
    const int batchesPerEpoch = train.count / batch;
    for (int step = 0; step < steps; ++step) {
        feeder.stage(order, static_cast<size_t>(step % batchesPerEpoch) * batch, batch);
        // A changing rate, as a schedule gives: a recording must read it at each replay.
        trainingStep.run(batch, optimizer.settings().learningRate * (1.0f - 0.5f * step / steps));
    }
    return {(*model)->downloadParameters(), trainingStep.describe()};
}

/// The recorded step must train exactly as the call-by-call step: same kernels, same order, same bits.
int verify(Backend& backend, const ImageDataset& train, const std::string& modelName, int batch, int steps,
           const std::vector<int32_t>& order) {
    const auto [recorded, how] = trainSteps(backend, train, modelName, batch, steps, order, TrainingStep::Mode::Recorded);
    const auto [plain, plainHow] =
        trainSteps(backend, train, modelName, batch, steps, order, TrainingStep::Mode::CallByCall);
    double worst = recorded.size() == plain.size() && !plain.empty() ? 0.0 : 1e30;
    size_t differing = 0;
    for (size_t i = 0; worst < 1e30 && i < plain.size(); ++i) {
        const double diff = std::fabs(static_cast<double>(recorded[i]) - plain[i]);
        if (!(diff == 0.0)) ++differing;
        worst = std::max(worst, std::isnan(diff) ? 1e30 : diff);
    }
    fmt::print("VERIFY {{\"model\":\"{}\",\"batch\":{},\"steps\":{},\"parameters\":{},\"differing\":{},"
               "\"max_abs_difference\":{:g},\"recorded\":\"{}\",\"backend\":\"{}\"}}\n",
               modelName, batch, steps, plain.size(), differing, worst, how, backend.describe());
    return differing == 0 && worst == 0.0 ? 0 : 1;
}

/// Runs `steps` call-by-call steps through an OpTimingBackend (after 20 untimed ones that make the
/// plans) and prints where a step's time goes, op by op, as a table and one `OPTIMES {json}` line.
int opTimes(Backend& backend, const ImageDataset& train, const std::string& modelName, int batch, int steps,
            const std::vector<int32_t>& order) {
    syncscope::bench::OpTimingBackend timing(backend);
    auto model = createModel(timing, modelName, batch, 1);
    if (!model) return printError(model.status());
    BatchFeeder feeder(timing, train, batch);
    SgdOptimizer optimizer(timing, (*model)->parameterCount(), SgdSettings{});
    TrainingStep trainingStep(**model, optimizer, feeder.images(), feeder.labels(), TrainingStep::Mode::CallByCall);
    const int batchesPerEpoch = train.count / batch;
    auto run = [&](int count) {
        for (int step = 0; step < count; ++step) {
            feeder.stage(order, static_cast<size_t>(step % batchesPerEpoch) * batch, batch);
            trainingStep.run(batch, optimizer.settings().learningRate);
        }
    };
    run(20);
    timing.reset();
    run(steps);
    // What timing adds to each op: a synchronisation with nothing queued, then one more.
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) {
        backend.synchronize();
        backend.synchronize();
    }
    const double overheadUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / 1000;
    std::vector<std::pair<std::string, syncscope::bench::OpTimingBackend::Total>> rows(timing.totals().begin(), timing.totals().end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
    double totalUs = 0;
    std::string json;
    fmt::print("{} batch {} on {}: {} call-by-call steps, each op synchronised on its own\n", modelName, batch,
               backend.describe(), steps);
    for (const auto& [label, total] : rows) {
        const double us = total.seconds * 1e6 / steps;
        totalUs += us;
        fmt::print("{:10.1f} us/step {:5.1f}x  {}\n", us, static_cast<double>(total.calls) / steps, label);
        json += fmt::format("{}{{\"op\":\"{}\",\"calls_per_step\":{:.2f},\"us_per_step\":{:.1f}}}", json.empty() ? "" : ",",
                            label, static_cast<double>(total.calls) / steps, us);
    }
    fmt::print("{:10.1f} us/step in all; an empty timed op costs {:.1f} us here\n", totalUs, overheadUs);
    fmt::print("OPTIMES {{\"model\":\"{}\",\"batch\":{},\"steps\":{},\"sync_overhead_us\":{:.1f},\"total_us\":{:.1f},"
               "\"ops\":[{}],\"backend\":\"{}\"}}\n",
               modelName, batch, steps, overheadUs, totalUs, json, backend.describe());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string modelName = "mlp", backendName = "cpu", data = defaultFashionMnistDir(), stepMode = "recorded",
                convMath = "fp32", convAlgorithms = "heuristic";
    int threads = 1, batch = 64, windows = 3, verifySteps = 0, opTimeSteps = 0;
    double warmupSeconds = 3, windowSeconds = 5;
    CLI::App app{"Training throughput of one model on one backend: a time-based warm-up, then timed windows "
                 "(the same protocol as tests/bench/torch_compute_peer.py)"};
    app.add_option("--model", modelName)->check(CLI::IsMember({"mlp", "cnn"}));
    app.add_option("--backend", backendName)->check(CLI::IsMember({"cpu", "cuda"}));
    app.add_option("--threads", threads)->check(CLI::Range(1, 1024));
    app.add_option("--batch", batch)->check(CLI::Range(1, 65536));
    app.add_option("--warmup-seconds", warmupSeconds)->check(CLI::Range(0.0, 3600.0));
    app.add_option("--windows", windows)->check(CLI::Range(1, 1000));
    app.add_option("--window-seconds", windowSeconds)->check(CLI::Range(0.01, 3600.0));
    app.add_option("--data", data);
    app.add_option("--step", stepMode,
                   "recorded: each step replays one recording (a CUDA graph) where the backend can record "
                   "(default); call-by-call: every op launched on its own")
        ->check(CLI::IsMember({"recorded", "call-by-call"}));
    app.add_option("--conv-math", convMath,
                   "fp32: convolutions within FP32 rounding of the CPU backend (default); tf32: on tensor cores "
                   "(10-bit mantissas, PyTorch's default for cuDNN on CUDA)")
        ->check(CLI::IsMember({"fp32", "tf32"}));
    app.add_option("--conv-algorithms", convAlgorithms,
                   "heuristic: cuDNN's heuristics, deterministic algorithms (default); measured: time the "
                   "deterministic ones once per shape; measured-any: the fastest measured, atomics allowed "
                   "(PyTorch's cudnn.benchmark)")
        ->check(CLI::IsMember({"heuristic", "measured", "measured-any"}));
    app.add_option("--verify-steps", verifySteps,
                   "instead of timing: run this many steps recorded and as many call by call from the same "
                   "start, and print how far the two models' parameters differ (exit 1 unless identical)")
        ->check(CLI::Range(0, 100000));
    app.add_option("--op-times", opTimeSteps,
                   "instead of timing steps: run this many call-by-call steps with every op synchronised and timed "
                   "on its own, and print where a step's time goes (the lent GPU machines have no profiler)")
        ->check(CLI::Range(0, 100000));
    CLI11_PARSE(app, argc, argv);

    auto backend = createBackend(backendName == "cuda" ? BackendKind::Cuda : BackendKind::Cpu, threads);
    if (!backend) return printError(backend.status());
    ConvolutionSettings convolutions;
    convolutions.tf32 = convMath == "tf32";
    convolutions.measure = convAlgorithms != "heuristic";
    convolutions.deterministicOnly = convAlgorithms != "measured-any";
    if (!(*backend)->setConvolutionSettings(convolutions))
        return printError(invalidArgument("--conv-math and --conv-algorithms: the " + (*backend)->name() +
                                          " backend has only fp32 and heuristic"));
    auto train = loadFashionMnistSplit(data, "train");
    if (!train) return printError(train.status());
    std::vector<int32_t> order(train->count);
    std::iota(order.begin(), order.end(), 0);
    const int batchesPerEpoch = train->count / batch;
    if (verifySteps > 0) return verify(**backend, *train, modelName, batch, verifySteps, order);
    if (opTimeSteps > 0) return opTimes(**backend, *train, modelName, batch, opTimeSteps, order);

    auto model = createModel(**backend, modelName, batch, 1);
    if (!model) return printError(model.status());
    BatchFeeder feeder(**backend, *train, batch);
    SgdOptimizer optimizer(**backend, (*model)->parameterCount(), SgdSettings{});
    TrainingStep trainingStep(**model, optimizer, feeder.images(), feeder.labels(),
                              stepMode == "recorded" ? TrainingStep::Mode::Recorded : TrainingStep::Mode::CallByCall);
    const float learningRate = optimizer.settings().learningRate;
    long long step = 0;
    // Trains for about `seconds` (checking the clock every 8 steps, after a device sync) and returns
    // samples/s over the whole steps run.
    auto runFor = [&](double seconds) {
        const auto start = std::chrono::steady_clock::now();
        for (long long steps = 1;; ++steps, ++step) {
            const size_t first = static_cast<size_t>(step % batchesPerEpoch) * batch;
            feeder.stage(order, first, batch);
            trainingStep.run(batch, learningRate);
            if (steps % 8 != 0) continue;
            (*backend)->synchronize();
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (elapsed >= seconds) return static_cast<double>(steps * batch) / elapsed;
        }
    };
    runFor(warmupSeconds);
    std::vector<double> rates;
    for (int i = 0; i < windows; ++i) rates.push_back(runFor(windowSeconds));
    std::vector<double> sorted = rates;
    std::sort(sorted.begin(), sorted.end());
    std::string list;
    for (double r : rates) list += fmt::format("{}{:.1f}", list.empty() ? "" : ",", r);
    fmt::print("BENCH {{\"impl\":\"syncscope-{}\",\"model\":\"{}\",\"threads\":{},\"batch\":{},\"warmup_seconds\":{},"
               "\"windows\":[{}],\"samples_per_s\":{:.1f},\"backend\":\"{}\",\"step\":\"{}\"}}\n",
               backendName, modelName, threads, batch, warmupSeconds, list, sorted[sorted.size() / 2],
               (*backend)->describe(), trainingStep.describe());
    return 0;
}
