// The mode catalogue: every sync mode, the parameters each takes (type, default, range, help),
// the grouping and learning-rate modulation names, and the run's limits, defined once here. The
// command line, the console and its scenarios are built from it, and the coordinator sends it in
// every snapshot (Snapshot.catalog), so a console attached to a newer engine offers its modes.
// Parameters are read and written by their ModeSettings field name through protobuf reflection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// The catalogue of this engine (built once; read-only).
const wire::Catalog& modeCatalog();

/// The run limits every front end checks against (modeCatalog().limits()).
const wire::Limits& runLimits();

const wire::ModeSpec* findMode(const wire::Catalog& catalog, wire::SyncMode mode);
const wire::ModeSpec* findMode(const wire::Catalog& catalog, const std::string& name);
const wire::ParameterSpec* findParameter(const wire::Catalog& catalog, const std::string& field);

/// "bsp" ... "auto"; parse errors list the catalogue's names.
std::string syncModeName(wire::SyncMode mode);
Result<wire::SyncMode> parseSyncMode(const std::string& name);

/// Whether `settings` (its mode and the choices it holds) takes the parameter `field`.
bool modeUses(const wire::Catalog& catalog, const wire::ModeSettings& settings, const std::string& field);

/// A parameter's value as a number (enum and bool fields: the choice's value); with
/// `applyDefault`, a 0 below the parameter's minimum reads as its default (ModeSettings' "0: default").
double parameterValue(const wire::ModeSettings& settings, const wire::ParameterSpec& spec, bool applyDefault = true);
/// Sets a parameter from a number (UINT, SECONDS; a CHOICE's value); checks the range.
Status setParameter(wire::ModeSettings& settings, const wire::ParameterSpec& spec, double value);
/// Sets a CHOICE parameter from its name ("speed", "dynsgd").
Status setParameterChoice(wire::ModeSettings& settings, const wire::ParameterSpec& spec, const std::string& name);
/// The name of the choice a CHOICE parameter holds ("round-robin"), or "?" for none.
std::string choiceName(const wire::ModeSettings& settings, const wire::ParameterSpec& spec);

/// Settings of `mode` with every parameter at its default.
wire::ModeSettings defaultModeSettings(wire::SyncMode mode);
/// A SECONDS parameter of the mode, with its default applied (elastic's rebalancing, auto's period).
double modeSeconds(const wire::ModeSettings& settings, const std::string& field);
/// Grouped mode's G, with its default applied.
uint32_t groupCount(const wire::ModeSettings& settings);

/// Checks a mode and its parameters against the catalogue; errors name the parameter, its value and
/// the allowed range.
Status validateModeSettings(const wire::ModeSettings& settings);
/// "bsp", "ssp s=3 lr=none", "grouped G=2 by=speed inside=bsp lr=dynsgd", for events and logs.
std::string describeMode(const wire::ModeSettings& settings);

/// "--mode grouped --groups 2 --group-by speed ...": the flags of `serve`/`run` for these settings
/// (the parameters the mode uses, defaults applied).
std::vector<std::string> modeArguments(const wire::ModeSettings& settings);

/// Checks a straggler setting against the limits; errors name the value and the range.
Status validateSlowdown(const wire::Slowdown& slowdown);
/// "worker 3: x4 compute, +20 ms".
std::string describeSlowdown(uint32_t worker, const wire::Slowdown& slowdown);

}  // namespace syncscope::engine
