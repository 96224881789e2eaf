// Fuzzes the IDX readers (engine/model/idx_reader.*) with whole files, gzip'd or plain: both
// readers see every input, and the magic number decides which one gets past the header.
#include <cstddef>
#include <cstdint>

#include "engine/model/idx_reader.h"
#include "tests/fuzz/memory_file.h"

using namespace syncscope::engine;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static syncscope::fuzz::MemoryFile file;
    const std::string& path = file.hold(data, size);
    if (auto images = readIdxImages(path)) {
        // What the readers promise their callers (fashion_mnist.cpp indexes by these).
        SS_CHECK(images->count > 0 && images->rows > 0 && images->cols > 0, "accepted empty dimensions");
        SS_CHECK(images->pixels.size() == size_t(images->count) * size_t(images->rows) * size_t(images->cols),
                 "pixel count differs from the dimensions");
    }
    if (auto labels = readIdxLabels(path)) SS_CHECK(!labels->empty(), "accepted an empty label file");
    return 0;
}
