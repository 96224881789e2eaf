// CLI11 validators shared by the engine's subcommands, with messages that name the fix.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace syncscope::engine {

/// A number strictly greater than zero ("must be > 0, got -1").
inline CLI::Validator positive(const std::string& what) {
    return CLI::Validator(
        [what](std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || !(value > 0))
                return what + " must be greater than 0, got '" + text + "'";
            return {};
        },
        "> 0");
}

/// A number in [lo, hi).
inline CLI::Validator halfOpen(const std::string& what, double lo, double hi) {
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || value < lo || value >= hi)
                return what + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "), got '" + text + "'";
            return {};
        },
        "[lo, hi)");
}

}  // namespace syncscope::engine
