// Fuzzes the experiment spec reader (engine/cli/experiment_spec.*) with whole JSON files, then
// takes an accepted spec as far as `experiment` does: mode selection, run arguments, hashes.
// The numbers it read must be the numbers the file holds (checked against a plain JSON parse).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>

#include "engine/cli/experiment_spec.h"
#include "tests/fuzz/memory_file.h"

using namespace syncscope::engine;

namespace {

template <typename Int>
void checkSameNumbers(const nlohmann::json& root, const char* key, const std::vector<Int>& read) {
    if (!root.contains(key)) return;
    const nlohmann::json& written = root[key];
    SS_CHECK(written.size() == read.size(), key);
    for (size_t i = 0; i < read.size(); ++i) SS_CHECK(written[i] == read[i], key);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static syncscope::fuzz::MemoryFile file;
    auto spec = loadExperimentSpec(file.hold(data, size));
    if (!spec) return 0;
    SS_CHECK(validateSpec(*spec).isOk(), "loadExperimentSpec returned a spec that fails validation");
    const auto root = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
    checkSameNumbers(root, "delays_percent", spec->delaysPercent);
    checkSameNumbers(root, "seeds", spec->seeds);

    std::vector<std::string> names;
    for (const ExperimentMode& mode : spec->modes) {
        names.push_back(mode.name);
        (void)mode.family();
        for (int delay : spec->delaysPercent)
            (void)configHash(runArguments(*spec, mode, delay, spec->seeds.front(), "run.ssrec"));
    }
    SS_CHECK(selectModes(*spec, names).isOk(), "a spec's own mode names were refused");
    return 0;
}
