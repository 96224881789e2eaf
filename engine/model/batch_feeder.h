// BatchFeeder: stages samples of a dataset (by index) into device buffers, one batch at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/backend/device_buffer.h"
#include "engine/model/fashion_mnist.h"

namespace syncscope::engine {

class BatchFeeder {
public:
    BatchFeeder(Backend& backend, const ImageDataset& data, int maxBatch);

    /// Uploads samples indices[first .. first+count) and returns the batch size staged.
    int stage(const std::vector<int32_t>& indices, size_t first, int count);
    /// Uploads the contiguous samples [first, first+count).
    int stageRange(int first, int count);

    const float* images() const { return m_images.data(); }
    const int32_t* labels() const { return m_labels.data(); }
    const std::vector<int32_t>& hostLabels() const { return m_hostLabels; }

private:
    int upload(int count);
    const ImageDataset& m_data;
    std::vector<float> m_hostImages;
    std::vector<int32_t> m_hostLabels;
    DeviceBuffer<float> m_images;
    DeviceBuffer<int32_t> m_labels;
};

}  // namespace syncscope::engine
