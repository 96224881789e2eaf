// What a server process between workers and the coordinator (a group aggregator, a parameter shard)
// does to join a run: say where its workers reach it, register upstream with its role, and wait for
// the coordinator's answer.
#pragma once

#include <atomic>
#include <string>

#include "engine/core/status.h"
#include "engine/net/endpoint.h"

namespace syncscope::engine {

/// This machine's name, as other hosts reach it.
std::string thisHostName();

/// The endpoint its workers dial: `advertise` when given, else the `bound` address, under this
/// host's name when bound to every interface (0.0.0.0).
std::string advertisedEndpoint(const std::string& advertise, const std::string& bindHost, const std::string& bound);

/// Whether a server process's endpoint is one its workers can dial (tcp:// or ipc://, printable, short).
bool plausibleEndpoint(const std::string& endpoint);

/// Registers at the coordinator (connected at `connect`) as `role`, with `endpoint` for its workers,
/// and waits up to timeoutSeconds for the answer with `answer` set (a refusal or silence is an
/// error saying what to check).
Result<InboundMessage> registerUpstream(ClientEndpoint& coordinator, const std::string& connect, wire::Role role,
                                        const std::string& endpoint, wire::Envelope::BodyCase answer,
                                        double timeoutSeconds, const std::atomic<bool>* interrupted);

}  // namespace syncscope::engine
