// The closing line for people on standard output, "final test accuracy: 86.36% at model version
// 505": written by `serve` and by `run` (from its coordinator's RunResult report, never this text).
// parseFinalReport reads it back for tests that run serve as a person does.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace syncscope::engine {

inline constexpr const char* kFinalReportFormat = "final test accuracy: %.2f%% at model version %llu\n";

inline std::string formatFinalReport(double accuracy, uint64_t version) {
    char line[128];
    std::snprintf(line, sizeof line, kFinalReportFormat, 100.0 * accuracy, static_cast<unsigned long long>(version));
    return line;
}

struct FinalReport {
    double accuracy = 0;  ///< 0..1, to the two decimals of a percentage the line carries
    uint64_t version = 0;
};

/// The last closing line in a coordinator's output; empty when it has none (it failed early).
inline std::optional<FinalReport> parseFinalReport(const std::string& output) {
    const size_t at = output.rfind("final test accuracy: ");
    if (at == std::string::npos) return std::nullopt;
    double percent = 0;
    unsigned long long version = 0;
    if (std::sscanf(output.c_str() + at, "final test accuracy: %lf%% at model version %llu", &percent, &version) != 2)
        return std::nullopt;
    return FinalReport{percent / 100.0, version};
}

}  // namespace syncscope::engine
