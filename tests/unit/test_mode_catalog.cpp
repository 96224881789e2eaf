// The engine's mode catalogue is the one list of modes and their parameters: every SyncMode of the
// protocol has an entry, every ModeSettings field is a parameter, the command line's flags are
// built from it and read back what they wrote, and its ranges are what validation enforces. A mode
// or parameter added in one place only fails here (the console's selector and the scenario parser
// are checked against the catalogue in test_steering_panel and test_scenario).
#include <QtTest>

#include <CLI/CLI.hpp>
#include <google/protobuf/util/message_differencer.h>

#include "engine/cli/run_options.h"
#include "engine/ps/mode_catalog.h"

using namespace syncscope;
using namespace syncscope::engine;

class TestModeCatalog : public QObject {
    Q_OBJECT
private slots:
    void everyProtocolModeHasAnEntry();
    void everyModeSettingsFieldIsAParameter();
    void usesNameParameters();
    void rangesAreWhatValidationEnforces();
    void commandLineReadsBackWhatItWrites();
    void descriptionsNameTheMode();
};

void TestModeCatalog::everyProtocolModeHasAnEntry() {
    const auto* modes = wire::SyncMode_descriptor();
    int named = 0;
    for (int i = 0; i < modes->value_count(); ++i) {
        const auto mode = static_cast<wire::SyncMode>(modes->value(i)->number());
        if (mode == wire::SYNC_MODE_UNSPECIFIED) continue;
        const wire::ModeSpec* spec = findMode(modeCatalog(), mode);
        QVERIFY2(spec, modes->value(i)->name().c_str());
        QVERIFY(!spec->label().empty() && !spec->help().empty());
        QCOMPARE(*parseSyncMode(spec->name()), mode);
        ++named;
    }
    QCOMPARE(named, modeCatalog().modes_size());
}

void TestModeCatalog::everyModeSettingsFieldIsAParameter() {
    const auto* fields = wire::ModeSettings::descriptor();
    int parameters = 0;
    for (int i = 0; i < fields->field_count(); ++i) {
        const std::string name = fields->field(i)->name();
        if (name == "mode" || name == "assignment") continue;  // the selector itself; set by regrouping
        QVERIFY2(findParameter(modeCatalog(), name), name.c_str());
        ++parameters;
    }
    QCOMPARE(parameters, modeCatalog().parameters_size());
    for (const auto& spec : modeCatalog().parameters()) {
        QVERIFY2(fields->FindFieldByName(spec.field()), spec.field().c_str());
        QVERIFY(!spec.flag().empty() && !spec.label().empty() && !spec.help().empty());
        QVERIFY(spec.minimum() <= spec.default_value() && spec.default_value() <= spec.maximum());
        if (spec.type() == wire::ParameterSpec::CHOICE) QVERIFY(spec.choices_size() >= 2);
    }
}

void TestModeCatalog::usesNameParameters() {
    for (const auto& mode : modeCatalog().modes())
        for (const auto& use : mode.parameters()) {
            QVERIFY2(findParameter(modeCatalog(), use.field()), use.field().c_str());
            if (use.when_field().empty()) continue;
            const wire::ParameterSpec* when = findParameter(modeCatalog(), use.when_field());
            QVERIFY(when && when->type() == wire::ParameterSpec::CHOICE);
        }
}

void TestModeCatalog::rangesAreWhatValidationEnforces() {
    for (const auto& mode : modeCatalog().modes()) QVERIFY(validateModeSettings(defaultModeSettings(mode.mode())));
    for (const auto& spec : modeCatalog().parameters()) {
        wire::ModeSettings settings = defaultModeSettings(wire::BSP);
        QVERIFY(!setParameter(settings, spec, spec.maximum() + 1));  // refused when set
        const auto* field = wire::ModeSettings::descriptor()->FindFieldByName(spec.field());
        if (field->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_UINT32) {
            settings.GetReflection()->SetUInt32(&settings, field, uint32_t(spec.maximum() + 1));
            const Status s = validateModeSettings(settings);  // and when it arrives from the network
            QVERIFY(!s);
            QVERIFY2(s.message().find(spec.flag()) != std::string::npos, s.message().c_str());
        }
    }
}

void TestModeCatalog::commandLineReadsBackWhatItWrites() {
    for (const auto& mode : modeCatalog().modes()) {
        wire::ModeSettings settings = defaultModeSettings(mode.mode());
        for (const auto& spec : modeCatalog().parameters()) {  // something other than the defaults
            const double value = spec.type() == wire::ParameterSpec::CHOICE ? spec.choices(1).value()
                                                                            : std::min(spec.maximum(), spec.default_value() + 1);
            QVERIFY(setParameter(settings, spec, value));
        }
        std::vector<std::string> args = modeArguments(settings);
        CLI::App app;
        RunOptions options;
        addRunOptions(app, options);
        std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
        app.parse(reversed);
        auto parsed = toModeSettings(options);
        QVERIFY2(parsed, parsed.status().message().c_str());
        for (const auto& spec : modeCatalog().parameters()) {
            const bool used = modeUses(modeCatalog(), settings, spec.field());
            QCOMPARE(std::find(args.begin(), args.end(), "--" + spec.flag()) != args.end(), used);
            if (used) QCOMPARE(parameterValue(*parsed, spec), parameterValue(settings, spec));
        }
    }
}

void TestModeCatalog::descriptionsNameTheMode() {
    for (const auto& mode : modeCatalog().modes()) {
        const wire::ModeSettings settings = defaultModeSettings(mode.mode());
        const std::string text = describeMode(settings);
        QVERIFY2(text.rfind(mode.name(), 0) == 0, text.c_str());
        int used = 0;
        for (const auto& spec : modeCatalog().parameters()) used += modeUses(modeCatalog(), settings, spec.field());
        QCOMPARE(int(std::count(text.begin(), text.end(), '=')), used);
    }
    wire::ModeSettings ssp = defaultModeSettings(wire::SSP);
    ssp.set_lr_modulation(wire::LR_DYNSGD);
    QCOMPARE(describeMode(ssp), std::string("ssp s=3 lr=dynsgd"));
}

QTEST_GUILESS_MAIN(TestModeCatalog)
#include "test_mode_catalog.moc"
