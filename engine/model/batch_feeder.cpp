// BatchFeeder: gather into a host staging buffer and upload per tensor, or (resident) upload the indices
// and gather in backend memory.
#include "engine/model/batch_feeder.h"

#include <algorithm>
#include <cstring>

namespace syncscope::engine {

BatchFeeder::BatchFeeder(Backend& backend, const ImageDataset& data, int maxBatch)
    : m_backend(backend),
      m_data(data),
      m_resident(!backend.sharesHostMemory() && data.count > 0),
      m_hostImages(m_resident ? 0 : data.sampleSize() * maxBatch),
      m_hostLabels(maxBatch),
      m_images(backend, data.sampleSize() * maxBatch),
      m_labels(backend, maxBatch) {
    if (!m_resident) return;
    m_residentImages = DeviceBuffer<float>(backend, data.sampleSize() * data.count);
    m_residentImages.upload(data.image(0), data.sampleSize() * data.count);
    m_residentLabels = DeviceBuffer<int32_t>(backend, data.count);
    m_residentLabels.upload(data.labels.data(), data.count);
    m_rows = DeviceBuffer<int32_t>(backend, maxBatch);
}

int BatchFeeder::stage(const std::vector<int32_t>& indices, size_t first, int count) {
    if (m_resident) {
        for (int i = 0; i < count; ++i) m_hostLabels[i] = m_data.labels[indices[first + i]];
        m_rows.upload(indices.data() + first, count);
        m_backend.gatherRows(m_residentImages.data(), m_rows.data(), count, m_data.sampleSize(), m_images.data());
        m_backend.gatherLabels(m_residentLabels.data(), m_rows.data(), count, m_labels.data());
        return count;
    }
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
    if (m_resident) {
        std::copy_n(m_data.labels.begin() + first, count, m_hostLabels.begin());
        m_backend.copyOnDevice(m_images.data(), m_residentImages.data() + sample * first, sizeof(float) * sample * count);
        m_backend.copyOnDevice(m_labels.data(), m_residentLabels.data() + first, sizeof(int32_t) * count);
        return count;
    }
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
