// printable: text from a peer made safe to keep and print: cut to a byte limit and with control
// characters and invalid bytes escaped as \xNN, so a hostname cannot forge log lines or fill memory.
#pragma once

#include <string>
#include <string_view>

namespace syncscope::engine {

std::string printable(std::string_view text, size_t maxBytes);

}  // namespace syncscope::engine
