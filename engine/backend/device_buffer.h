// DeviceBuffer: an owning, typed handle to memory allocated by a Backend (RAII, move-only).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "engine/backend/backend.h"

namespace syncscope::engine {

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(Backend& backend, size_t count)
        : m_backend(&backend), m_count(count), m_data(static_cast<T*>(backend.allocate(count * sizeof(T)))) {}
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            reset();
            m_backend = std::exchange(o.m_backend, nullptr);
            m_count = std::exchange(o.m_count, 0);
            m_data = std::exchange(o.m_data, nullptr);
        }
        return *this;
    }

    T* data() { return m_data; }
    const T* data() const { return m_data; }
    size_t size() const { return m_count; }

    void upload(const T* host, size_t count) { m_backend->copyToDevice(m_data, host, count * sizeof(T)); }
    void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
    std::vector<T> download() const {
        std::vector<T> host(m_count);
        m_backend->copyToHost(host.data(), m_data, m_count * sizeof(T));
        return host;
    }

private:
    void reset() {
        if (m_backend && m_data) m_backend->release(m_data);
        m_data = nullptr;
    }
    Backend* m_backend = nullptr;
    size_t m_count = 0;
    T* m_data = nullptr;
};

}  // namespace syncscope::engine
