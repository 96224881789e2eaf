// FashionMnist: the training and test splits of Fashion-MNIST as normalised float images and
// int32 labels, loaded from the IDX files of Debian's dataset-fashion-mnist (or --data DIR).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/status.h"

namespace syncscope::engine {

/// One split: count images of 1 x 28 x 28, normalised with the training set's mean and std.
struct ImageDataset {
    int count = 0, channels = 1, height = 0, width = 0;
    std::vector<float> images;
    std::vector<int32_t> labels;
    int numClasses = 10;
    size_t sampleSize() const { return size_t(channels) * height * width; }
    const float* image(int i) const { return images.data() + sampleSize() * i; }
};

struct FashionMnist {
    ImageDataset train, test;
};

/// Where Debian's dataset-fashion-mnist package puts the files.
std::string defaultFashionMnistDir();

/// Loads one split ("train" or "t10k") from dir, validating both files against each other.
Result<ImageDataset> loadFashionMnistSplit(const std::string& dir, const std::string& split);
/// Loads both splits.
Result<FashionMnist> loadFashionMnist(const std::string& dir);

}  // namespace syncscope::engine
