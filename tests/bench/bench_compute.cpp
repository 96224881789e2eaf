// bench_compute: training samples/s of one model on one backend, real Fashion-MNIST batches.
// Prints `BENCH {json}`; tests/bench/run_compute_bench.py runs it beside the PyTorch peer.
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <vector>

#include "engine/cli/cli_errors.h"
#include "engine/model/batch_feeder.h"
#include "engine/model/fashion_mnist.h"
#include "engine/model/model_zoo.h"
#include "engine/model/sgd_optimizer.h"

using namespace syncscope::engine;

int main(int argc, char** argv) {
    std::string modelName = "mlp", backendName = "cpu", data = defaultFashionMnistDir();
    int threads = 1, batch = 64, windows = 3;
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
    CLI11_PARSE(app, argc, argv);

    auto backend = createBackend(backendName == "cuda" ? BackendKind::Cuda : BackendKind::Cpu, threads);
    if (!backend) return printError(backend.status());
    auto train = loadFashionMnistSplit(data, "train");
    if (!train) return printError(train.status());
    auto model = createModel(**backend, modelName, batch, 1);
    if (!model) return printError(model.status());

    BatchFeeder feeder(**backend, *train, batch);
    SgdOptimizer optimizer(**backend, (*model)->parameterCount(), SgdSettings{});
    std::vector<int32_t> order(train->count);
    std::iota(order.begin(), order.end(), 0);
    const int batchesPerEpoch = train->count / batch;
    long long step = 0;
    // Trains for about `seconds` (checking the clock every 8 steps, after a device sync) and returns
    // samples/s over the whole steps run.
    auto runFor = [&](double seconds) {
        const auto start = std::chrono::steady_clock::now();
        for (long long steps = 1;; ++steps, ++step) {
            const size_t first = static_cast<size_t>(step % batchesPerEpoch) * batch;
            feeder.stage(order, first, batch);
            (*model)->computeGradients(feeder.images(), feeder.labels(), batch);
            optimizer.step((*model)->parameters(), (*model)->gradients());
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
               "\"windows\":[{}],\"samples_per_s\":{:.1f},\"backend\":\"{}\"}}\n",
               backendName, modelName, threads, batch, warmupSeconds, list, sorted[sorted.size() / 2],
               (*backend)->describe());
    return 0;
}
