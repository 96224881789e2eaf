// Fuzzes the console's scenario parser (ui/scenario/scenario_parser.*) with whole files; it needs
// Qt Core only. An accepted scenario is checked against what the runner relies on.
#include <cstddef>
#include <cstdint>

#include "engine/core/check.h"
#include "ui/scenario/scenario_parser.h"

using namespace syncscope::ui;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray json = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const ScenarioLoad load = ScenarioParser::parse(json, QStringLiteral("fuzz.json"));
    SS_CHECK(load.scenario.has_value() == load.error.isEmpty(), "a scenario and an error, or neither");
    if (!load.scenario) return 0;
    const Scenario& scenario = *load.scenario;
    SS_CHECK(scenario.workers >= 1, "accepted a run without workers");
    for (const InitialSlowdown& slowdown : scenario.slowdowns)
        SS_CHECK(slowdown.workerId < uint32_t(scenario.workers), "a slowdown for a worker the run does not have");
    for (qsizetype i = 1; i < scenario.steps.size(); ++i)
        SS_CHECK(scenario.steps[i - 1].at <= scenario.steps[i].at, "schedule out of order");
    return 0;
}
