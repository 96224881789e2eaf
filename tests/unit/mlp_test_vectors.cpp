// Shared test vectors for the engine's mlp: the parameters a seed gives, one batch of Fashion-MNIST
// (normalised as the engine does), and the loss and gradient the CPU backend computes on them.
// python/tests/test_native_mlp.py checks that the PyTorch mlp computes the same within 1e-4.
//
// File (little-endian): "SSMLPV1\0", uint32 batch, uint32 input size, uint64 parameter count,
// float params[count], float images[batch x input], int32 labels[batch], float loss, float grad[count].
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "engine/backend/device_buffer.h"
#include "engine/model/fashion_mnist.h"
#include "engine/model/model_zoo.h"

using namespace syncscope::engine;

namespace {

template <typename T>
void writeRaw(std::ofstream& out, const T* data, size_t count) {
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(count * sizeof(T)));
}

int fail(const std::string& message) {
    std::fprintf(stderr, "mlp_test_vectors: %s\n", message.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Write the mlp's shared test vectors (parameters, a batch, the engine's loss and gradient)"};
    std::string out, data = defaultFashionMnistDir();
    int batch = 16, first = 0;
    uint64_t seed = 1;
    app.add_option("--out", out, "File to write")->required();
    app.add_option("--data", data, "Folder with the Fashion-MNIST IDX .gz files")->capture_default_str();
    app.add_option("--batch", batch, "Images in the batch")->check(CLI::Range(1, 4096))->capture_default_str();
    app.add_option("--first", first, "Index of the first test image of the batch")->check(CLI::NonNegativeNumber);
    app.add_option("--seed", seed, "Seed of the parameters (the run's --seed)")->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    // The test split: a fixed, well-known batch rather than a shard's shuffled one.
    auto images = loadFashionMnistSplit(data, "t10k");
    if (!images) return fail(images.status().message() + " (pass --data FOLDER)");
    if (first + batch > images->count) return fail("the batch runs past the " + std::to_string(images->count) + " images");
    auto backend = createBackend(BackendKind::Cpu, 1);
    if (!backend) return fail(backend.status().message());
    auto model = createModel(**backend, "mlp", batch, seed);
    if (!model) return fail(model.status().message());

    const size_t inputSize = images->sampleSize(), count = (*model)->parameterCount();
    DeviceBuffer<float> x(**backend, inputSize * batch);
    DeviceBuffer<int32_t> y(**backend, batch);
    x.upload(images->image(first), inputSize * batch);
    y.upload(images->labels.data() + first, batch);
    const float loss = (*model)->computeGradients(x.data(), y.data(), batch);
    (*backend)->synchronize();
    const std::vector<float> params = (*model)->downloadParameters();
    std::vector<float> grads(count);
    (*backend)->copyToHost(grads.data(), (*model)->gradients(), count * sizeof(float));

    std::ofstream file(out, std::ios::binary | std::ios::trunc);
    if (!file) return fail("cannot write " + out + ": " + std::strerror(errno));
    const uint32_t header[2] = {static_cast<uint32_t>(batch), static_cast<uint32_t>(inputSize)};
    const uint64_t parameterCount = count;
    file.write("SSMLPV1\0", 8);
    writeRaw(file, header, 2);
    writeRaw(file, &parameterCount, 1);
    writeRaw(file, params.data(), count);
    writeRaw(file, images->image(first), inputSize * batch);
    writeRaw(file, images->labels.data() + first, batch);
    writeRaw(file, &loss, 1);
    writeRaw(file, grads.data(), count);
    if (!file.flush()) return fail("cannot write " + out + " (disk full?)");
    std::printf("mlp test vectors: %zu parameters, batch %d from test image %d, loss %.6f -> %s\n", count, batch, first,
                loss, out.c_str());
    return 0;
}
