// Fashion-MNIST loading: IDX files to normalised floats, with images and labels cross-checked.
#include "engine/model/fashion_mnist.h"

#include "engine/model/idx_reader.h"

namespace syncscope::engine {
namespace {
// Mean and standard deviation of the Fashion-MNIST training pixels, scaled to [0, 1].
constexpr float kPixelMean = 0.2860f;
constexpr float kPixelStd = 0.3530f;
}  // namespace

std::string defaultFashionMnistDir() { return "/usr/share/datasets/fashion-mnist"; }

Result<ImageDataset> loadFashionMnistSplit(const std::string& dir, const std::string& split) {
    const std::string imagesPath = dir + "/" + split + "-images-idx3-ubyte.gz";
    const std::string labelsPath = dir + "/" + split + "-labels-idx1-ubyte.gz";
    auto images = readIdxImages(imagesPath);
    if (!images) return images.status();
    auto labels = readIdxLabels(labelsPath);
    if (!labels) return labels.status();
    if (static_cast<int>(labels->size()) != images->count)
        return dataLoss(labelsPath + ": holds " + std::to_string(labels->size()) + " labels but " + imagesPath +
                        " holds " + std::to_string(images->count) + " images; the two files must come from the "
                        "same split (reinstall dataset-fashion-mnist or use another data folder)");
    ImageDataset set;
    set.count = images->count;
    set.height = images->rows;
    set.width = images->cols;
    set.images.resize(images->pixels.size());
    for (size_t i = 0; i < images->pixels.size(); ++i)
        set.images[i] = (static_cast<float>(images->pixels[i]) / 255.0f - kPixelMean) / kPixelStd;
    set.labels.resize(labels->size());
    for (size_t i = 0; i < labels->size(); ++i) {
        if ((*labels)[i] >= set.numClasses)
            return dataLoss(labelsPath + ": label " + std::to_string((*labels)[i]) + " at index " + std::to_string(i) +
                            " is outside 0..9; the file is not a Fashion-MNIST label file");
        set.labels[i] = (*labels)[i];
    }
    return set;
}

Result<FashionMnist> loadFashionMnist(const std::string& dir) {
    auto train = loadFashionMnistSplit(dir, "train");
    if (!train) return train.status();
    auto test = loadFashionMnistSplit(dir, "t10k");
    if (!test) return test.status();
    return FashionMnist{std::move(*train), std::move(*test)};
}

}  // namespace syncscope::engine
