// BatchFeeder: stages samples of a dataset (by index) into device buffers, one batch at a time. On a
// backend whose memory is not the host's (a GPU) the whole data set is uploaded once and a batch is
// gathered there from its indices: a step then moves count indices instead of count images.
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
    Backend& m_backend;
    const ImageDataset& m_data;
    bool m_resident;                         // the data set lives in backend memory
    DeviceBuffer<float> m_residentImages;    // every sample, when resident
    DeviceBuffer<int32_t> m_residentLabels;
    DeviceBuffer<int32_t> m_rows;            // the batch's sample indices, when resident
    std::vector<float> m_hostImages;
    std::vector<int32_t> m_hostLabels;
    DeviceBuffer<float> m_images;
    DeviceBuffer<int32_t> m_labels;
};

}  // namespace syncscope::engine
