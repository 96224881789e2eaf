// ExperimentSpec: the built-in seeds' protocol, the JSON scenario reader (nlohmann-json) and the
// `run` arguments of each cell of the grid.
#include "engine/cli/experiment_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

namespace syncscope::engine {

std::string ExperimentMode::family() const {
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--mode") return args[i + 1];
    return "bsp";  // `run` without --mode
}

ExperimentSpec seedsProtocol() {
    ExperimentSpec s;
    s.runArgs = {"--schedule", "constant"};
    s.modes = {
        {"bsp", {"--mode", "bsp"}},
        {"asp", {"--mode", "asp", "--lr-modulation", "none"}},
        {"asp-inverse", {"--mode", "asp", "--lr-modulation", "inverse"}},
        {"ssp-s3", {"--mode", "ssp", "--staleness", "3"}},
        {"grouped-g2", {"--mode", "grouped", "--groups", "2", "--group-by", "speed", "--lr-modulation", "dynsgd"}},
        {"grouped-g4", {"--mode", "grouped", "--groups", "4", "--group-by", "speed", "--lr-modulation", "dynsgd"}},
        {"ksync-k7", {"--mode", "ksync", "--k", "7"}},
        {"kasync", {"--mode", "kasync", "--lr-modulation", "dynsgd"}},
        {"elastic", {"--mode", "elastic"}},
        {"auto", {"--mode", "auto"}},
    };
    return s;
}

namespace {

using Json = nlohmann::json;

std::string typeError(const std::string& path, const std::string& key, const std::string& expected) {
    return path + ": \"" + key + "\" must be " + expected;
}

// Each reader checks the JSON type first, so nlohmann never throws on a conversion.
Status readStrings(const Json& value, const std::string& path, const std::string& key, std::vector<std::string>& out) {
    if (!value.is_array()) return invalidArgument(typeError(path, key, "a list of strings"));
    out.clear();
    for (const Json& item : value) {
        if (!item.is_string()) return invalidArgument(typeError(path, key, "a list of strings"));
        out.push_back(item.get<std::string>());
    }
    return Status::ok();
}

// The range is checked before the conversion: nlohmann's get<int>() wraps 4294967396 to 100
// silently, and a seed above 2^63 is still a seed.
template <typename Int>
Status readIntegers(const Json& value, const std::string& path, const std::string& key, std::vector<Int>& out) {
    const std::string expected = "a list of whole numbers from 0 to " + std::to_string(std::numeric_limits<Int>::max());
    if (!value.is_array()) return invalidArgument(typeError(path, key, expected));
    out.clear();
    for (const Json& item : value) {
        // JSON's non-negative whole numbers parse as unsigned; negative ones and fractions do not.
        if (!item.is_number_unsigned() || item.get<uint64_t>() > uint64_t(std::numeric_limits<Int>::max()))
            return invalidArgument(typeError(path, key, expected) + ", got " + item.dump());
        out.push_back(static_cast<Int>(item.get<uint64_t>()));
    }
    return Status::ok();
}

Status readNumber(const Json& value, const std::string& path, const std::string& key, double& out) {
    if (!value.is_number()) return invalidArgument(typeError(path, key, "a number"));
    out = value.get<double>();
    return Status::ok();
}

Status readModes(const Json& value, const std::string& path, std::vector<ExperimentMode>& out) {
    const std::string shape = "a list of {\"name\": \"...\", \"args\": [\"--mode\", \"...\", ...]}";
    if (!value.is_array()) return invalidArgument(typeError(path, "modes", shape));
    out.clear();
    for (const Json& item : value) {
        if (!item.is_object() || !item.contains("name") || !item["name"].is_string())
            return invalidArgument(typeError(path, "modes", shape));
        ExperimentMode mode{item["name"].get<std::string>(), {}};
        for (const auto& [key, field] : item.items()) {
            if (key == "args") {
                if (Status s = readStrings(field, path, "modes[" + mode.name + "].args", mode.args); !s) return s;
            } else if (key != "name" && key != "description") {
                return invalidArgument(path + ": unknown key \"" + key + "\" in mode \"" + mode.name +
                                       "\" (known: name, args, description)");
            }
        }
        out.push_back(std::move(mode));
    }
    return Status::ok();
}

Status applyKey(ExperimentSpec& spec, const std::string& path, const std::string& key, const Json& value) {
    double number = 0;
    if (key == "description") return Status::ok();
    if (key == "straggler_kind") {
        if (!value.is_string() || (value != "inject" && value != "cpu-quota"))
            return invalidArgument(typeError(path, key, "\"inject\" or \"cpu-quota\""));
        spec.stragglerKind = value.get<std::string>();
        return Status::ok();
    }
    if (key == "name" || key == "model") {
        if (!value.is_string()) return invalidArgument(typeError(path, key, "a string"));
        (key == "name" ? spec.name : spec.model) = value.get<std::string>();
        return Status::ok();
    }
    if (key == "workers" || key == "straggler") {
        if (!value.is_number_integer() || value.get<long long>() < 0 || value.get<long long>() > 1024)
            return invalidArgument(typeError(path, key, "a whole number in [0, 1024]"));
        (key == "workers" ? spec.workers : spec.straggler) = value.get<unsigned>();
        return Status::ok();
    }
    if (key == "delays_percent") return readIntegers(value, path, key, spec.delaysPercent);
    if (key == "delay_base_ms") return readNumber(value, path, key, spec.delayBaseMs);
    if (key == "seeds") return readIntegers(value, path, key, spec.seeds);
    if (key == "run_args") return readStrings(value, path, key, spec.runArgs);
    if (key == "modes") return readModes(value, path, spec.modes);
    if (key == "worker_speeds") {
        const std::string expected = "a list of speeds in (0, 1], one per worker from worker 0";
        if (!value.is_array()) return invalidArgument(typeError(path, key, expected));
        spec.workerSpeeds.clear();
        for (const Json& item : value) {
            if (!item.is_number() || !(item.get<double>() > 0 && item.get<double>() <= 1))
                return invalidArgument(typeError(path, key, expected) + ", got " + item.dump());
            spec.workerSpeeds.push_back(item.get<double>());
        }
        return Status::ok();
    }
    if (key == "run_to_cap") {
        if (!value.is_boolean()) return invalidArgument(typeError(path, key, "true or false"));
        spec.runToCap = value.get<bool>();
        return Status::ok();
    }
    double* target = key == "target_accuracy_percent" ? &spec.targetAccuracyPercent
                     : key == "max_seconds"           ? &spec.maxSeconds
                     : key == "fixed_time_seconds"    ? &spec.fixedTimeSeconds
                     : key == "eval_interval_seconds" ? &spec.evalIntervalSeconds
                                                      : nullptr;
    if (!target)
        return invalidArgument(path + ": unknown key \"" + key +
                               "\" (known: name, description, workers, model, straggler, straggler_kind, delays_percent, delay_base_ms, seeds, "
                               "target_accuracy_percent, max_seconds, fixed_time_seconds, eval_interval_seconds, "
                               "run_to_cap, run_args, worker_speeds, modes)");
    if (Status s = readNumber(value, path, key, number); !s) return s;
    *target = number;
    return Status::ok();
}

}  // namespace

Result<ExperimentSpec> parseExperimentSpec(const std::string& jsonText, const std::string& where) {
    const Json root = Json::parse(jsonText, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
    if (root.is_discarded())
        return invalidArgument("the experiment spec '" + where + "' is not valid JSON; check it with `python3 -m json.tool`");
    if (!root.is_object()) return invalidArgument("the experiment spec '" + where + "' must hold a JSON object");
    ExperimentSpec spec = seedsProtocol();
    for (const auto& [key, value] : root.items())
        if (Status s = applyKey(spec, where, key, value); !s) return s;
    if (Status s = validateSpec(spec); !s) return invalidArgument(where + ": " + s.message());
    return spec;
}

Result<ExperimentSpec> loadExperimentSpec(const std::string& path) {
    std::ifstream in(path);
    if (!in) return notFound("cannot open the experiment spec '" + path + "': check the path given to --spec");
    return parseExperimentSpec(std::string(std::istreambuf_iterator<char>(in), {}), path);
}

Status selectModes(ExperimentSpec& spec, const std::vector<std::string>& names) {
    std::vector<ExperimentMode> chosen;
    for (const auto& name : names) {
        auto it = std::find_if(spec.modes.begin(), spec.modes.end(), [&](const auto& m) { return m.name == name; });
        if (it == spec.modes.end()) {
            std::string known;
            for (const auto& m : spec.modes) known += (known.empty() ? "" : ", ") + m.name;
            return invalidArgument("--modes: unknown mode '" + name + "'; this spec has: " + known);
        }
        chosen.push_back(*it);
    }
    spec.modes = std::move(chosen);
    return Status::ok();
}

Status validateSpec(const ExperimentSpec& spec) {
    if (spec.modes.empty() || spec.delaysPercent.empty() || spec.seeds.empty())
        return invalidArgument("the experiment needs at least one mode, one delay and one seed");
    if (spec.workers < 1) return invalidArgument("workers must be at least 1");
    if (spec.straggler >= spec.workers)
        return invalidArgument("the straggler (worker " + std::to_string(spec.straggler) + ") must be below workers (" +
                               std::to_string(spec.workers) + ")");
    for (int d : spec.delaysPercent)
        if (d < 0 || d > 9900) return invalidArgument("delays must be in [0, 9900]%, got " + std::to_string(d));
    if (!(spec.delayBaseMs >= 0 && spec.delayBaseMs <= 10000))
        return invalidArgument("delay_base_ms must be in [0, 10000] ms (0: delays scale the straggler's compute time)");
    if (std::set<int>(spec.delaysPercent.begin(), spec.delaysPercent.end()).size() != spec.delaysPercent.size() ||
        std::set<uint64_t>(spec.seeds.begin(), spec.seeds.end()).size() != spec.seeds.size())
        return invalidArgument("a delay or seed is listed twice; list each once");
    if (spec.workerSpeeds.size() > spec.workers)
        return invalidArgument("worker_speeds lists " + std::to_string(spec.workerSpeeds.size()) + " speeds for " +
                               std::to_string(spec.workers) + " workers; list at most one per worker");
    if (!(spec.maxSeconds > 0)) return invalidArgument("max seconds must be greater than 0: every run needs a cap");
    if (!(spec.fixedTimeSeconds > 0)) return invalidArgument("the fixed time must be greater than 0");
    if (!(spec.evalIntervalSeconds > 0)) return invalidArgument("the evaluation interval must be greater than 0");
    if (!(spec.targetAccuracyPercent > 0 && spec.targetAccuracyPercent <= 100))
        return invalidArgument("the target accuracy must be in (0, 100] percent");
    std::set<std::string> names;
    for (const auto& m : spec.modes) {
        const bool plain = !m.name.empty() && std::all_of(m.name.begin(), m.name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        });
        if (!plain) return invalidArgument("mode name '" + m.name + "' may hold only letters, digits, '-', '_' and '.'");
        if (!names.insert(m.name).second) return invalidArgument("mode name '" + m.name + "' appears twice");
    }
    return Status::ok();
}

double fairCpuShare(unsigned workers) {
    const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
    return std::min(1.0, double(cpus) / double(std::max(1u, workers)));
}

std::vector<std::string> runArguments(const ExperimentSpec& spec, const ExperimentMode& mode, int delayPercent,
                                      uint64_t seed, const std::string& recordPath) {
    char number[64];
    auto text = [&](double v) {
        std::snprintf(number, sizeof number, "%g", v);
        return std::string(number);
    };
    std::vector<std::string> a{"run",    "--workers",       std::to_string(spec.workers), "--model",
                               spec.model, "--seed",        std::to_string(seed),         "--eval-interval",
                               text(spec.evalIntervalSeconds), "--max-seconds", text(spec.maxSeconds)};
    if (!spec.runToCap) a.insert(a.end(), {"--target-accuracy", text(spec.targetAccuracyPercent)});
    const double fair = fairCpuShare(spec.workers);
    auto quota = [&](double share) { return text(std::max(0.01, std::round(share * 1000) / 1000)); };
    for (size_t w = 0; w < spec.workerSpeeds.size(); ++w)
        if (spec.workerSpeeds[w] < 1 && !(delayPercent > 0 && spec.stragglerKind == "cpu-quota" && w == spec.straggler))
            a.insert(a.end(), {"--cpu-quota", std::to_string(w) + ":" + quota(fair * spec.workerSpeeds[w])});
    if (delayPercent > 0 && spec.stragglerKind == "cpu-quota")
        a.insert(a.end(), {"--cpu-quota", std::to_string(spec.straggler) + ":" + quota(fair / (1.0 + delayPercent / 100.0))});
    else if (delayPercent > 0 && spec.delayBaseMs > 0)
        a.insert(a.end(), {"--slowdown", std::to_string(spec.straggler) + ":1:" + text(delayPercent / 100.0 * spec.delayBaseMs)});
    else if (delayPercent > 0)
        a.insert(a.end(), {"--slowdown", std::to_string(spec.straggler) + ":" + text(1.0 + delayPercent / 100.0)});
    a.insert(a.end(), spec.runArgs.begin(), spec.runArgs.end());
    a.insert(a.end(), mode.args.begin(), mode.args.end());
    if (!spec.dataDir.empty()) a.insert(a.end(), {"--data", spec.dataDir});
    if (!recordPath.empty()) a.insert(a.end(), {"--record", recordPath});
    return a;
}

std::string configHash(const std::vector<std::string>& runArgs) {
    uint64_t h = 1469598103934665603ULL;  // FNV-1a, 64 bits
    for (size_t i = 0; i < runArgs.size(); ++i) {
        if (runArgs[i] == "--record" || runArgs[i] == "--data") {
            ++i;
            continue;
        }
        for (char c : runArgs[i] + '\x1f') h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

}  // namespace syncscope::engine
