// The reproduction spec reader (nlohmann-json): defaults merged into each part's grid, the quick
// variant as a JSON merge patch, and the claims checked against the parts they read.
#include "engine/cli/reproduction_spec.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

namespace syncscope::engine {
namespace {

using Json = nlohmann::json;

Result<Json> readJson(const std::string& path) {
    std::ifstream in(path);
    if (!in) return notFound("cannot open the experiment spec '" + path + "': check the path given to --spec");
    const Json root = Json::parse(std::string(std::istreambuf_iterator<char>(in), {}), nullptr, false, true);
    if (root.is_discarded())
        return invalidArgument("the experiment spec '" + path + "' is not valid JSON; check it with `python3 -m json.tool`");
    if (!root.is_object()) return invalidArgument("the experiment spec '" + path + "' must hold a JSON object");
    return root;
}

bool readStringList(const Json& value, std::vector<std::string>& out) {
    if (!value.is_array()) return false;
    out.clear();
    for (const Json& item : value) {
        if (!item.is_string()) return false;
        out.push_back(item.get<std::string>());
    }
    return true;
}

Status claimError(const std::string& where, const std::string& what) { return invalidArgument(where + ": " + what); }

Result<ClaimSpec> readClaim(const Json& item, const std::string& where) {
    if (!item.is_object()) return claimError(where, "a claim must be a JSON object");
    ClaimSpec c;
    for (const auto& [key, value] : item.items()) {
        const bool text = value.is_string(), number = value.is_number(), whole = value.is_number_integer();
        if ((key == "kind" || key == "title" || key == "paper" || key == "mode" || key == "baseline" || key == "part") && !text)
            return claimError(where, "\"" + key + "\" must be a string");
        if ((key == "max_ratio" || key == "max_points_lost") && !number) return claimError(where, "\"" + key + "\" must be a number");
        if ((key == "delay" || key == "baseline_delay") && !whole) return claimError(where, "\"" + key + "\" must be a whole number");
        if (key == "kind") c.kind = value;
        else if (key == "title") c.title = value;
        else if (key == "paper") c.paper = value;
        else if (key == "mode") c.mode = value;
        else if (key == "baseline") c.baseline = value;
        else if (key == "part") c.parts = {value.get<std::string>()};
        else if (key == "max_ratio") c.maxRatio = value;
        else if (key == "max_points_lost") c.maxPointsLost = value;
        else if (key == "delay") c.delay = value;
        else if (key == "baseline_delay") c.baselineDelay = value;
        else if (key == "parts" || key == "against") {
            if (!readStringList(value, key == "parts" ? c.parts : c.against))
                return claimError(where, "\"" + key + "\" must be a list of strings");
        } else if (key == "pairs") {
            if (!value.is_array()) return claimError(where, "\"pairs\" must be a list of {\"n\", \"fixed\", \"modulated\"}");
            for (const Json& p : value) {
                if (!p.is_object() || !p.contains("n") || !p["n"].is_number_integer() || !p.contains("fixed") ||
                    !p["fixed"].is_string() || !p.contains("modulated") || !p["modulated"].is_string())
                    return claimError(where, "each of \"pairs\" must be {\"n\": N, \"fixed\": MODE, \"modulated\": MODE}");
                c.pairs.push_back({p["n"].get<int>(), p["fixed"].get<std::string>(), p["modulated"].get<std::string>()});
            }
        } else {
            return claimError(where, "unknown key \"" + key +
                                         "\" (known: kind, title, paper, part, parts, mode, baseline, delay, "
                                         "baseline_delay, against, max_ratio, max_points_lost, pairs)");
        }
    }
    static const std::set<std::string> kinds{"straggler-rescue", "softsync", "faster-than", "near-best"};
    if (!kinds.count(c.kind))
        return claimError(where, "\"kind\" must be straggler-rescue, softsync, faster-than or near-best, got \"" + c.kind + "\"");
    if (c.parts.empty()) return claimError(where, "name the part(s) it reads: \"part\" or \"parts\"");
    if (c.kind == "softsync" ? c.pairs.empty() : c.mode.empty())
        return claimError(where, c.kind == "softsync" ? "a softsync claim needs \"pairs\"" : "a claim needs \"mode\"");
    if ((c.kind == "straggler-rescue" || c.kind == "faster-than") && c.baseline.empty())
        return claimError(where, "a " + c.kind + " claim needs \"baseline\"");
    return c;
}

// Every mode and delay a claim reads is in the part it reads it from.
Status checkClaim(const ClaimSpec& c, const std::vector<ReproductionPart>& parts, const std::string& where) {
    if (c.kind == "straggler-rescue" && c.parts.size() == 2) {  // the mode's part, then the baseline's
        ClaimSpec mode = c, base = c;
        mode.parts = {c.parts[0]};
        mode.baseline.clear();
        mode.baselineDelay = c.delay;
        base.parts = {c.parts[1]};
        base.mode = c.baseline;
        base.against.clear();
        base.baseline.clear();
        base.delay = c.baselineDelay;
        if (Status s = checkClaim(mode, parts, where); !s) return s;
        return checkClaim(base, parts, where);
    }
    if (c.kind == "straggler-rescue" && c.parts.size() > 2)
        return claimError(where, "a straggler-rescue claim reads one part, or two: the mode's and the baseline's");
    for (const auto& partName : c.parts) {
        auto part = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.name == partName; });
        if (part == parts.end()) return claimError(where, "no part named \"" + partName + "\"");
        const ExperimentSpec& g = part->grid;
        auto hasMode = [&](const std::string& m) {
            return std::any_of(g.modes.begin(), g.modes.end(), [&](const auto& mode) { return mode.name == m; });
        };
        auto hasDelay = [&](int d) { return std::count(g.delaysPercent.begin(), g.delaysPercent.end(), d) > 0; };
        std::vector<std::string> modes = c.against;
        for (const auto& m : {c.mode, c.baseline})
            if (!m.empty()) modes.push_back(m);
        for (const auto& p : c.pairs) modes.insert(modes.end(), {p.fixed, p.modulated});
        for (const auto& m : modes)
            if (!hasMode(m)) return claimError(where, "part \"" + partName + "\" has no mode \"" + m + "\"");
        if (c.kind == "straggler-rescue" && (!hasDelay(c.delay) || !hasDelay(c.baselineDelay)))
            return claimError(where, "part \"" + partName + "\" must run delays " + std::to_string(c.delay) + " and " +
                                         std::to_string(c.baselineDelay));
    }
    return Status::ok();
}

}  // namespace

bool isReproductionSpec(const std::string& path) {
    auto root = readJson(path);
    return root && root->contains("parts");
}

Result<ReproductionSpec> loadReproductionSpec(const std::string& path, bool quick) {
    auto root = readJson(path);
    if (!root) return root.status();
    ReproductionSpec spec;
    spec.quick = quick;
    Json defaults = Json::object();
    std::vector<ReproductionPart> fullParts;  // claims are checked against these, quick or not
    for (const auto& [key, value] : root->items()) {
        if (key == "name" || key == "description") {
            if (!value.is_string()) return invalidArgument(path + ": \"" + key + "\" must be a string");
            (key == "name" ? spec.name : spec.description) = value.get<std::string>();
        } else if (key == "defaults") {
            if (!value.is_object()) return invalidArgument(path + ": \"defaults\" must be an object of grid keys");
            defaults = value;
        } else if (key != "parts" && key != "claims") {
            return invalidArgument(path + ": unknown key \"" + key + "\" (known: name, description, defaults, parts, claims)");
        }
    }
    const Json& parts = (*root)["parts"];
    if (!parts.is_array() || parts.empty()) return invalidArgument(path + ": \"parts\" must be a non-empty list");
    for (const Json& item : parts) {
        if (!item.is_object() || !item.contains("name") || !item["name"].is_string())
            return invalidArgument(path + ": each part must be {\"name\": ..., \"grid\": {...}, \"quick\": {...}}");
        const std::string name = item["name"].get<std::string>();
        const std::string where = path + ", part \"" + name + "\"";
        for (const auto& [key, value] : item.items())
            if (key != "name" && key != "grid" && key != "quick" && key != "description")
                return invalidArgument(where + ": unknown key \"" + key + "\" (known: name, description, grid, quick)");
        Json grid = defaults;
        if (item.contains("grid")) grid.merge_patch(item["grid"]);
        grid["name"] = spec.name + "/" + name;
        auto full = parseExperimentSpec(grid.dump(), where);
        if (!full) return full.status();
        full->seedsTargets = false;  // the claims stand for them
        if (std::any_of(spec.parts.begin(), spec.parts.end(), [&](const auto& p) { return p.name == name; }))
            return invalidArgument(where + ": two parts have this name");
        fullParts.push_back({name, *full});
        if (!quick || !item.contains("quick")) {
            spec.parts.push_back({name, std::move(*full)});
            continue;
        }
        // The quick keys: grid keys merged over the grid, but "modes" names modes of the grid.
        Json patch = item["quick"];
        std::vector<std::string> quickModes;
        if (!patch.is_object() || (patch.contains("modes") && !readStringList(patch["modes"], quickModes)))
            return invalidArgument(where + ": \"quick\" must be an object of grid keys, its \"modes\" a list of mode names");
        patch.erase("modes");
        grid.merge_patch(patch);
        auto quickGrid = parseExperimentSpec(grid.dump(), where + " (quick)");
        if (!quickGrid) return quickGrid.status();
        quickGrid->seedsTargets = false;
        if (!quickModes.empty())
            if (Status s = selectModes(*quickGrid, quickModes); !s) return invalidArgument(where + " (quick): " + s.message());
        spec.parts.push_back({name, std::move(*quickGrid)});
    }
    const Json& claims = root->contains("claims") ? (*root)["claims"] : Json::array();
    if (!claims.is_array()) return invalidArgument(path + ": \"claims\" must be a list");
    for (size_t i = 0; i < claims.size(); ++i) {
        const std::string where = path + ", claim " + std::to_string(i + 1);
        auto claim = readClaim(claims[i], where);
        if (!claim) return claim.status();
        if (Status s = checkClaim(*claim, fullParts, where); !s) return s;
        spec.claims.push_back(std::move(*claim));
    }
    return spec;
}

}  // namespace syncscope::engine
