// Builders for the console's control requests, and a reader for the event a reply carries.
#pragma once

#include <QByteArray>

#include <map>
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
/// A mode with all its settings (G, grouping, K, barrier, periods); fields the mode does not use are
/// left as the caller set them, the engine ignores them.
wire::ControlRequest setModeRequest(const wire::ModeSettings& settings);
/// Regroups the current grouped run into `count` groups chosen round robin or by measured speed.
wire::ControlRequest setGroupsRequest(uint32_t count, wire::GroupBy by);
/// Regroups by an explicit worker id -> group map into `count` groups (0: one more than the
/// largest group named; never fewer than that).
wire::ControlRequest setGroupsExplicitRequest(const std::map<uint32_t, uint32_t>& assignment, uint32_t count = 0);
/// `factor` multiplies the worker's compute time; `fixedDelayMs` is added to every iteration.
wire::ControlRequest setSlowdownRequest(uint32_t workerId, double factor, double fixedDelayMs = 0.0);
wire::ControlRequest setLearningRateRequest(float learningRate);
/// Restores the checkpoint taken before change `changeId` (the coordinator needs a checkpoint folder).
wire::ControlRequest rollbackRequest(uint64_t changeId);

/// Takes (`accept`) or dismisses the advisor's proposal `adviceId` (EVENT_ADVICE's decision.advice_id).
wire::ControlRequest answerAdviceRequest(uint64_t adviceId, bool accept);

/// The event of ConsoleConnection::commandReplied(); empty when there is none or it is unreadable.
std::optional<wire::Event> eventFromReply(const QByteArray& serializedEvent);

}  // namespace syncscope::ui
