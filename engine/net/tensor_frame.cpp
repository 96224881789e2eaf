// Zero-copy tensor frames: zmq_msg_init_data with a free callback.
#include "engine/net/tensor_frame.h"

namespace syncscope::engine {

zmq::message_t sharedFloatsFrame(SharedFloats data) {
    auto* keeper = new SharedFloats(std::move(data));
    const std::vector<float>& values = **keeper;
    return zmq::message_t(const_cast<float*>(values.data()), values.size() * sizeof(float),
                          [](void*, void* hint) { delete static_cast<SharedFloats*>(hint); }, keeper);
}

zmq::message_t borrowedFloatsFrame(const float* data, size_t count, std::atomic<int>& inFlight) {
    inFlight.fetch_add(1, std::memory_order_acq_rel);
    return zmq::message_t(const_cast<float*>(data), count * sizeof(float),
                          [](void*, void* hint) {
                              static_cast<std::atomic<int>*>(hint)->fetch_sub(1, std::memory_order_acq_rel);
                          },
                          &inFlight);
}

}  // namespace syncscope::engine
