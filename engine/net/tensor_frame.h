// Zero-copy tensor frames, as in ps-lite: ZeroMQ sends straight from a buffer that stays alive
// until ZeroMQ's own free callback releases it.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <memory>
#include <vector>

namespace syncscope::engine {

/// An immutable parameter snapshot shared by every in-flight reply that carries it.
using SharedFloats = std::shared_ptr<const std::vector<float>>;

/// A frame that references `data` without copying; `data` is kept alive until ZeroMQ is done.
zmq::message_t sharedFloatsFrame(SharedFloats data);

/// A frame over memory the caller owns; `inFlight` counts it from now until ZeroMQ lets go, so the
/// caller knows when the buffer may be written again (0: no frame over it is in flight).
zmq::message_t borrowedFloatsFrame(const float* data, size_t count, std::atomic<int>& inFlight);

}  // namespace syncscope::engine
