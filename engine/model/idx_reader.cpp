// IDX reading through zlib's gz* stream API (transparent for plain files too).
#include "engine/model/idx_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace syncscope::engine {
namespace {

constexpr uint32_t kImagesMagic = 0x00000803;  // unsigned byte, 3 dimensions
constexpr uint32_t kLabelsMagic = 0x00000801;  // unsigned byte, 1 dimension
constexpr uint32_t kMaxCount = 10'000'000;     // far above any MNIST-family file; guards allocations
constexpr uint32_t kMaxSide = 4096;

struct GzCloser {
    void operator()(gzFile_s* f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

Status fileError(const std::string& path, const std::string& what) {
    return dataLoss(path + ": " + what +
                    ". Reinstall the data (sudo apt-get install --reinstall dataset-fashion-mnist) or use a data "
                    "folder with intact Fashion-MNIST IDX files");
}

Result<GzFile> openGz(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        return notFound(path + ": cannot open (" + std::strerror(errno) +
                        "). Install the data set (sudo apt-get install dataset-fashion-mnist) or use a data folder "
                        "with the four Fashion-MNIST .gz files");
    gzbuffer(f, 1 << 17);
    return GzFile(f);
}

// Why a read stopped after `done` of `bytes`: zlib's error, or the end of the file.
Status truncated(gzFile f, const std::string& path, const char* what, size_t done, size_t bytes, int got) {
    int zerr = Z_OK;
    const char* msg = gzerror(f, &zerr);
    const std::string why = (got < 0 || zerr != Z_OK) ? std::string(msg) : "end of file";
    return fileError(path, std::string("truncated or corrupt while reading ") + what + " (got " + std::to_string(done) +
                               " of " + std::to_string(bytes) + " bytes: " + why + ")");
}

// Reads exactly `bytes` or says how far it got and why.
Status readExactly(gzFile f, const std::string& path, void* dst, size_t bytes, const char* what) {
    size_t done = 0;
    auto* out = static_cast<char*>(dst);
    while (done < bytes) {
        const unsigned chunk = static_cast<unsigned>(std::min<size_t>(bytes - done, 1u << 30));
        const int got = gzread(f, out + done, chunk);
        if (got <= 0) return truncated(f, path, what, done, bytes, got);
        done += static_cast<size_t>(got);
    }
    return Status::ok();
}

// Reads the `bytes` a header declares, growing `out` (geometrically) as they arrive: a header is
// not trusted with an allocation, since a 35-byte file can claim 3 GB of pixels.
Status readPayload(gzFile f, const std::string& path, std::vector<uint8_t>& out, size_t bytes, const char* what) {
    constexpr size_t kChunk = size_t(64) << 10;
    out.clear();
    while (out.size() < bytes) {
        const size_t done = out.size();
        out.resize(std::min(bytes, done + kChunk));
        const int got = gzread(f, out.data() + done, static_cast<unsigned>(out.size() - done));
        if (got <= 0) return truncated(f, path, what, done, bytes, got);
        out.resize(done + static_cast<size_t>(got));
    }
    return Status::ok();
}

Result<uint32_t> readBigEndian(gzFile f, const std::string& path, const char* what) {
    unsigned char b[4];
    if (Status s = readExactly(f, path, b, 4, what); !s) return s;
    return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | uint32_t(b[3]);
}

Status checkMagic(uint32_t magic, uint32_t expected, const std::string& path) {
    if (magic == expected) return Status::ok();
    char text[96];
    std::snprintf(text, sizeof text, "wrong magic number 0x%08x (expected 0x%08x, an IDX %s file)", magic,
                  expected, expected == kImagesMagic ? "image" : "label");
    return fileError(path, text);
}

// A gzip stream must end where the payload ends; trailing bytes mean a different file layout.
Status checkAtEnd(gzFile f, const std::string& path) {
    char extra;
    if (gzread(f, &extra, 1) > 0) return fileError(path, "more data after the last item than the header declares");
    return Status::ok();
}

}  // namespace

Result<IdxImages> readIdxImages(const std::string& path) {
    auto file = openGz(path);
    if (!file) return file.status();
    gzFile f = file->get();
    auto magic = readBigEndian(f, path, "the header");
    if (!magic) return magic.status();
    if (Status s = checkMagic(*magic, kImagesMagic, path); !s) return s;
    uint32_t dims[3];
    for (uint32_t& d : dims) {
        auto value = readBigEndian(f, path, "the header");
        if (!value) return value.status();
        d = *value;
    }
    if (dims[0] == 0 || dims[0] > kMaxCount || dims[1] == 0 || dims[1] > kMaxSide || dims[2] == 0 || dims[2] > kMaxSide)
        return fileError(path, "implausible dimensions " + std::to_string(dims[0]) + " x " + std::to_string(dims[1]) +
                                   " x " + std::to_string(dims[2]));
    IdxImages images{static_cast<int>(dims[0]), static_cast<int>(dims[1]), static_cast<int>(dims[2]), {}};
    const size_t pixels = size_t(dims[0]) * dims[1] * dims[2];
    if (Status s = readPayload(f, path, images.pixels, pixels, "the pixels"); !s) return s;
    if (Status s = checkAtEnd(f, path); !s) return s;
    return images;
}

Result<std::vector<uint8_t>> readIdxLabels(const std::string& path) {
    auto file = openGz(path);
    if (!file) return file.status();
    gzFile f = file->get();
    auto magic = readBigEndian(f, path, "the header");
    if (!magic) return magic.status();
    if (Status s = checkMagic(*magic, kLabelsMagic, path); !s) return s;
    auto count = readBigEndian(f, path, "the header");
    if (!count) return count.status();
    if (*count == 0 || *count > kMaxCount) return fileError(path, "implausible label count " + std::to_string(*count));
    std::vector<uint8_t> labels;
    if (Status s = readPayload(f, path, labels, *count, "the labels"); !s) return s;
    if (Status s = checkAtEnd(f, path); !s) return s;
    return labels;
}

}  // namespace syncscope::engine
