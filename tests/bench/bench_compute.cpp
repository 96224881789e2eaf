// bench_compute: training samples/s of one model on one backend, real Fashion-MNIST batches.
// Prints `BENCH {json}`; tests/bench/run_compute_bench.py runs it beside the PyTorch peer.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <numeric>

#include "engine/cli/cli_errors.h"
#include "engine/model/batch_feeder.h"
#include "engine/model/fashion_mnist.h"
#include "engine/model/model_zoo.h"
#include "engine/model/sgd_optimizer.h"

using namespace syncscope::engine;

int main(int argc, char** argv) {
    std::string modelName = "mlp", backendName = "cpu", data = defaultFashionMnistDir();
    int threads = 1, batch = 64, steps = 300, warmup = 30;
    CLI::App app{"Training throughput of one model on one backend"};
    app.add_option("--model", modelName)->check(CLI::IsMember({"mlp", "cnn"}));
    app.add_option("--backend", backendName)->check(CLI::IsMember({"cpu", "cuda"}));
    app.add_option("--threads", threads)->check(CLI::Range(1, 1024));
    app.add_option("--batch", batch)->check(CLI::Range(1, 65536));
    app.add_option("--steps", steps)->check(CLI::Range(1, 1 << 24));
    app.add_option("--warmup", warmup)->check(CLI::Range(0, 1 << 24));
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
    auto runSteps = [&](int count, int firstStep) {
        for (int i = 0; i < count; ++i) {
            const size_t first = static_cast<size_t>((firstStep + i) % batchesPerEpoch) * batch;
            feeder.stage(order, first, batch);
            (*model)->computeGradients(feeder.images(), feeder.labels(), batch);
            optimizer.step((*model)->parameters(), (*model)->gradients());
        }
        (*backend)->synchronize();
    };
    runSteps(warmup, 0);
    const auto start = std::chrono::steady_clock::now();
    runSteps(steps, warmup);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("BENCH {\"impl\":\"syncscope-%s\",\"model\":\"%s\",\"threads\":%d,\"batch\":%d,\"steps\":%d,"
                "\"seconds\":%.6f,\"samples_per_s\":%.1f,\"backend\":\"%s\"}\n",
                backendName.c_str(), modelName.c_str(), threads, batch, steps, seconds, steps * batch / seconds,
                (*backend)->describe().c_str());
    return 0;
}
