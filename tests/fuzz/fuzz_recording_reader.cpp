// Fuzzes the recording reader (engine/telemetry/recording_reader.*) with whole files: header,
// frames, checksums and the protobuf records inside them.
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>

#include "engine/telemetry/recording_reader.h"
#include "tests/fuzz/memory_file.h"

using namespace syncscope::engine;

// protobuf logs each string with invalid UTF-8 it refuses, at fuzzing speed; the decoder reports
// the refusal itself, so those lines only bury libFuzzer's output.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    google::protobuf::SetLogHandler(nullptr);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static syncscope::fuzz::MemoryFile file;
    const std::string& path = file.hold(data, size);
    size_t seen = 0;
    RecordVisitor visitor{{}, [&](syncscope::wire::Record&&) { ++seen; }, [&](uint64_t read, uint64_t total) {
                              SS_CHECK(read <= size && (total == 0 || total == size), "progress beyond the file");
                              return true;
                          }};
    if (auto scan = forEachRecord(path, visitor)) {
        SS_CHECK(scan->recordCount == seen, "the scan's count differs from the records handed out");
        SS_CHECK(!scan->truncatedTail || !scan->warning.empty(), "a truncated tail without a warning");
    }
    return 0;
}
