// printable (see printable.h).
#include "engine/core/printable.h"

#include <fmt/format.h>

namespace syncscope::engine {

std::string printable(std::string_view text, size_t maxBytes) {
    std::string out;
    const bool cut = text.size() > maxBytes;
    for (unsigned char c : text.substr(0, maxBytes)) {
        if (c >= 0x20 && c < 0x7f && c != '\\') out += static_cast<char>(c);
        else out += fmt::format("\\x{:02x}", c);  // control bytes and anything beyond ASCII
    }
    if (cut) out += fmt::format("...(+{} bytes)", text.size() - maxBytes);
    return out;
}

}  // namespace syncscope::engine
