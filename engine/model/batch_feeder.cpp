// BatchFeeder: gather into a host staging buffer, then one upload per tensor.
#include "engine/model/batch_feeder.h"

#include <algorithm>
#include <cstring>

namespace syncscope::engine {

BatchFeeder::BatchFeeder(Backend& backend, const ImageDataset& data, int maxBatch)
    : m_data(data),
      m_hostImages(data.sampleSize() * maxBatch),
      m_hostLabels(maxBatch),
      m_images(backend, data.sampleSize() * maxBatch),
      m_labels(backend, maxBatch) {}

int BatchFeeder::stage(const std::vector<int32_t>& indices, size_t first, int count) {
    const size_t sample = m_data.sampleSize();
    for (int i = 0; i < count; ++i) {
        const int32_t index = indices[first + i];
        std::memcpy(m_hostImages.data() + sample * i, m_data.image(index), sizeof(float) * sample);
        m_hostLabels[i] = m_data.labels[index];
    }
    return upload(count);
}

int BatchFeeder::stageRange(int first, int count) {
    const size_t sample = m_data.sampleSize();
    std::memcpy(m_hostImages.data(), m_data.image(first), sizeof(float) * sample * count);
    std::copy_n(m_data.labels.begin() + first, count, m_hostLabels.begin());
    return upload(count);
}

int BatchFeeder::upload(int count) {
    m_images.upload(m_hostImages.data(), m_data.sampleSize() * count);
    m_labels.upload(m_hostLabels.data(), count);
    return count;
}

}  // namespace syncscope::engine
