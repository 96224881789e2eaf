// Readers for gzip'd IDX files (the MNIST family's format): magic, dimensions and payload are
// validated, and every failure names the file, what is wrong and how to fix it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/status.h"

namespace syncscope::engine {

/// An IDX image file's contents: count images of rows x cols unsigned bytes.
struct IdxImages {
    int count = 0, rows = 0, cols = 0;
    std::vector<uint8_t> pixels;
};

/// Reads a gzip'd (or plain) IDX3 image file (magic 2051).
Result<IdxImages> readIdxImages(const std::string& path);
/// Reads a gzip'd (or plain) IDX1 label file (magic 2049).
Result<std::vector<uint8_t>> readIdxLabels(const std::string& path);

}  // namespace syncscope::engine
