// Event kind names (see event_kind.h), derived from the enum itself so there is one list.
#include "engine/telemetry/event_kind.h"

#include <cctype>

namespace syncscope::engine {

std::string eventKindName(wire::EventKind kind) {
    std::string name = wire::EventKind_Name(kind);
    constexpr std::string_view prefix = "EVENT_";
    if (name.compare(0, prefix.size(), prefix) == 0) name.erase(0, prefix.size());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name.empty() ? "unknown" : name;
}

Result<wire::EventKind> parseEventKind(const std::string& name) {
    std::string upper = "EVENT_";
    for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    wire::EventKind kind{};
    if (!wire::EventKind_Parse(upper, &kind) || kind == wire::EVENT_KIND_UNSPECIFIED)
        return invalidArgument("unknown event kind '" + name + "'");
    return kind;
}

wire::EventKind eventKindOf(const wire::Event& event) {
    if (event.kind() != wire::EVENT_KIND_UNSPECIFIED || event.legacy_kind().empty()) return event.kind();
    auto parsed = parseEventKind(event.legacy_kind());
    return parsed ? *parsed : wire::EVENT_KIND_UNSPECIFIED;
}

}  // namespace syncscope::engine
