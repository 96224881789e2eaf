// Event kinds by name: the log and export name of each wire::EventKind ("worker_joined"), and the
// kind of an event from a 1.0-1.1 recording, which carried it as text.
#pragma once

#include <string>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// "start", "worker_joined", ...: the enum name without EVENT_, in lower case.
std::string eventKindName(wire::EventKind kind);
/// The event's kind; for an event recorded before protocol 1.2, its legacy text read back.
wire::EventKind eventKindOf(const wire::Event& event);
/// The inverse of eventKindName.
Result<wire::EventKind> parseEventKind(const std::string& name);

}  // namespace syncscope::engine
