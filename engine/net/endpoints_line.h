// The line a coordinator prints on stdout once it listens, so whoever started it (a local cluster,
// the console, a Slurm launch) knows where to connect: "endpoints data=... control=... telemetry=...".
#pragma once

#include <string>

#include "engine/core/status.h"

namespace syncscope::engine {

/// The endpoints a coordinator bound (ports resolved when 0 was asked for).
struct CoordinatorEndpoints {
    std::string data, control, telemetry;
};

/// The first line `syncscope-engine aggregate` prints on stdout: this, then the endpoint its workers dial.
inline constexpr const char* kAggregatorLinePrefix = "aggregator ";
/// The first line `syncscope-engine shard` prints on stdout: this, then the endpoint its workers dial.
inline constexpr const char* kShardLinePrefix = "shard ";

/// Whether a server process's endpoint is one its workers can dial (tcp:// or ipc://, printable, short).
bool plausibleEndpoint(const std::string& endpoint);
/// "tcp://0.0.0.0:5556" -> "tcp://node07:5556": where other machines reach what a process bound.
std::string onHost(const std::string& endpoint, const std::string& host);

Result<CoordinatorEndpoints> parseEndpointsLine(const std::string& line);
std::string formatEndpointsLine(const CoordinatorEndpoints& endpoints);

}  // namespace syncscope::engine
