// Builders for the console's control requests, and a reader for the event a reply carries.
#pragma once

#include <QByteArray>

#include <optional>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::ui {

wire::ControlRequest startRequest();
wire::ControlRequest pauseRequest();
wire::ControlRequest resumeRequest();
wire::ControlRequest stopRequest();
/// `stalenessBound` is SSP's s; other modes ignore it.
wire::ControlRequest setModeRequest(wire::SyncMode mode, uint32_t stalenessBound = 0,
                                    wire::LrModulation lrModulation = wire::LR_NONE);
/// `factor` multiplies the worker's compute time; `fixedDelayMs` is added to every iteration.
wire::ControlRequest setSlowdownRequest(uint32_t workerId, double factor, double fixedDelayMs = 0.0);
wire::ControlRequest setLearningRateRequest(float learningRate);

/// The event of ConsoleConnection::commandReplied(); empty when there is none or it is unreadable.
std::optional<wire::Event> eventFromReply(const QByteArray& serializedEvent);

}  // namespace syncscope::ui
