// plan (see plan_command.h).
#include "engine/cli/plan_command.h"

#include <google/protobuf/text_format.h>

#include <cstdio>
#include <memory>
#include <string>

#include "engine/cli/cli_errors.h"
#include "engine/plan/run_plan.h"

namespace syncscope::engine {
namespace {

struct PlanFlags {
    std::string out, check;
};

int plan(const PlanFlags& f) {
    if (!f.check.empty()) {
        auto read = readRunPlan(f.check);
        if (!read) return printError(read.status());
        if (Status s = validateRunPlan(*read); !s) return printError(invalidArgument(f.check + ": " + s.message()));
        std::fprintf(stderr, "%s: a valid run plan\n", f.check.c_str());
        return 0;
    }
    if (!f.out.empty()) {
        if (Status s = writeRunPlan(f.out, defaultRunPlan()); !s) return printError(s);
        return 0;
    }
    std::string text;
    google::protobuf::TextFormat::Printer printer;
    printer.SetPrintMessageFieldsInIndexOrder(true);
    printer.PrintToString(defaultRunPlan(), &text);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace

void addPlanCommand(CLI::App& app, int& exitCode) {
    auto f = std::make_shared<PlanFlags>();
    CLI::App* cmd = app.add_subcommand(
        "plan", "Print the default run plan (protobuf text, what `serve --plan` and `run --plan` read), or check a plan file");
    cmd->add_option("--out", f->out, "Write the default plan to this file (mode 0600) instead of standard output");
    cmd->add_option("--check", f->check, "Check this plan file as `serve --plan` would, and say what is wrong")
        ->excludes("--out");
    cmd->callback([f, &exitCode] { exitCode = plan(*f); });
}

}  // namespace syncscope::engine
