// The engine's mode catalogue is the one list of modes and their parameters: every SyncMode of the
// protocol has an entry, every ModeSettings field is a parameter, the command line's flags are
// built from it and read back what they wrote, and its ranges are what validation enforces. A mode
// or parameter added in one place only fails here (the console's selector and the scenario parser
// are checked against the catalogue in test_steering_panel and test_scenario).
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <google/protobuf/util/message_differencer.h>

#include "engine/cli/run_options.h"
#include "engine/plan/mode_catalog.h"
#include "tests/unit/test_support.h"

using namespace syncscope;
using namespace syncscope::engine;

TEST(TestModeCatalog, everyProtocolModeHasAnEntry) {
    const auto* modes = wire::SyncMode_descriptor();
    int named = 0;
    for (int i = 0; i < modes->value_count(); ++i) {
        const auto mode = static_cast<wire::SyncMode>(modes->value(i)->number());
        if (mode == wire::SYNC_MODE_UNSPECIFIED) continue;
        const wire::ModeSpec* spec = findMode(modeCatalog(), mode);
        ASSERT_TRUE(spec) << modes->value(i)->name().c_str();
        ASSERT_TRUE(!spec->label().empty() && !spec->help().empty());
        ASSERT_EQ(*parseSyncMode(spec->name()), mode);
        ++named;
    }
    ASSERT_EQ(named, modeCatalog().modes_size());
}

TEST(TestModeCatalog, everyModeSettingsFieldIsAParameter) {
    const auto* fields = wire::ModeSettings::descriptor();
    int parameters = 0;
    for (int i = 0; i < fields->field_count(); ++i) {
        const std::string name = fields->field(i)->name();
        if (name == "mode" || name == "assignment") continue;  // the selector itself; set by regrouping
        ASSERT_TRUE(findParameter(modeCatalog(), name)) << name.c_str();
        ++parameters;
    }
    ASSERT_EQ(parameters, modeCatalog().parameters_size());
    for (const auto& spec : modeCatalog().parameters()) {
        ASSERT_TRUE(fields->FindFieldByName(spec.field())) << spec.field().c_str();
        ASSERT_TRUE(!spec.flag().empty() && !spec.label().empty() && !spec.help().empty());
        ASSERT_TRUE(spec.minimum() <= spec.default_value() && spec.default_value() <= spec.maximum());
        if (spec.type() == wire::ParameterSpec::CHOICE) {
            ASSERT_TRUE(spec.choices_size() >= 2);
        }
    }
}

TEST(TestModeCatalog, usesNameParameters) {
    for (const auto& mode : modeCatalog().modes())
        for (const auto& use : mode.parameters()) {
            ASSERT_TRUE(findParameter(modeCatalog(), use.field())) << use.field().c_str();
            if (use.when_field().empty()) continue;
            const wire::ParameterSpec* when = findParameter(modeCatalog(), use.when_field());
            ASSERT_TRUE(when && when->type() == wire::ParameterSpec::CHOICE);
        }
}

TEST(TestModeCatalog, rangesAreWhatValidationEnforces) {
    for (const auto& mode : modeCatalog().modes()) ASSERT_TRUE(validateModeSettings(defaultModeSettings(mode.mode())));
    for (const auto& spec : modeCatalog().parameters()) {
        wire::ModeSettings settings = defaultModeSettings(wire::BSP);
        ASSERT_TRUE(!setParameter(settings, spec, spec.maximum() + 1));  // refused when set
        const auto* field = wire::ModeSettings::descriptor()->FindFieldByName(spec.field());
        if (field->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_UINT32) {
            settings.GetReflection()->SetUInt32(&settings, field, uint32_t(spec.maximum() + 1));
            const Status s = validateModeSettings(settings);  // and when it arrives from the network
            ASSERT_TRUE(!s);
            ASSERT_TRUE(s.message().find(spec.flag()) != std::string::npos) << s.message().c_str();
        }
    }
}

TEST(TestModeCatalog, commandLineReadsBackWhatItWrites) {
    for (const auto& mode : modeCatalog().modes()) {
        wire::ModeSettings settings = defaultModeSettings(mode.mode());
        for (const auto& spec : modeCatalog().parameters()) {  // something other than the defaults
            const double value = spec.type() == wire::ParameterSpec::CHOICE ? spec.choices(1).value()
                                                                            : std::min(spec.maximum(), spec.default_value() + 1);
            ASSERT_TRUE(setParameter(settings, spec, value));
        }
        std::vector<std::string> args = modeArguments(settings);
        CLI::App app;
        RunOptions options;
        addRunOptions(app, options);
        std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
        app.parse(reversed);
        auto parsed = toModeSettings(options);
        ASSERT_TRUE(parsed) << parsed.status().message().c_str();
        for (const auto& spec : modeCatalog().parameters()) {
            const bool used = modeUses(modeCatalog(), settings, spec.field());
            ASSERT_EQ(std::find(args.begin(), args.end(), "--" + spec.flag()) != args.end(), used);
            if (used) {
                ASSERT_FUZZY_EQ(parameterValue(*parsed, spec), parameterValue(settings, spec));
            }
        }
    }
}

TEST(TestModeCatalog, descriptionsNameTheMode) {
    for (const auto& mode : modeCatalog().modes()) {
        const wire::ModeSettings settings = defaultModeSettings(mode.mode());
        const std::string text = describeMode(settings);
        ASSERT_TRUE(text.rfind(mode.name(), 0) == 0) << text.c_str();
        int used = 0;
        for (const auto& spec : modeCatalog().parameters()) used += modeUses(modeCatalog(), settings, spec.field());
        ASSERT_EQ(int(std::count(text.begin(), text.end(), '=')), used);
    }
    wire::ModeSettings ssp = defaultModeSettings(wire::SSP);
    ssp.set_lr_modulation(wire::LR_DYNSGD);
    ASSERT_EQ(describeMode(ssp), std::string("ssp s=3 lr=dynsgd"));
}
