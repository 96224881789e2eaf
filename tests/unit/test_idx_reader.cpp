// IDX reading: a valid file round-trips; missing, truncated, wrong-magic and mismatched files each
// fail with a message naming the file, the problem and the fix. The test writes its own files.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/model/fashion_mnist.h"
#include "engine/model/idx_reader.h"
#include "tests/unit/test_support.h"

using namespace syncscope::engine;
using syncscope::testing::TempDir;

namespace {

void putBigEndian(std::vector<uint8_t>& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

std::vector<uint8_t> imageFile(uint32_t magic, uint32_t count, uint32_t side) {
    std::vector<uint8_t> bytes;
    putBigEndian(bytes, magic);
    for (uint32_t d : {count, side, side}) putBigEndian(bytes, d);
    for (uint32_t i = 0; i < count * side * side; ++i) bytes.push_back(static_cast<uint8_t>(i * 7));
    return bytes;
}

// Labels cycle through 0..9, except the last one, which is lastLabel.
std::vector<uint8_t> labelFile(uint32_t count, uint8_t lastLabel = 9) {
    std::vector<uint8_t> bytes;
    putBigEndian(bytes, 0x801);
    putBigEndian(bytes, count);
    for (uint32_t i = 0; i + 1 < count; ++i) bytes.push_back(static_cast<uint8_t>(i % 10));
    bytes.push_back(lastLabel);
    return bytes;
}

void writeGz(const std::string& path, const std::vector<uint8_t>& bytes) {
    gzFile f = gzopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), static_cast<int>(bytes.size()));
    gzclose(f);
}

}  // namespace

TEST(TestIdxReader, readsValidFiles) {
    TempDir dir;
    writeGz(dir.filePath("train-images-idx3-ubyte.gz"), imageFile(0x803, 5, 28));
    writeGz(dir.filePath("train-labels-idx1-ubyte.gz"), labelFile(5));
    auto images = readIdxImages(dir.filePath("train-images-idx3-ubyte.gz"));
    ASSERT_TRUE(images) << images.status().message();
    ASSERT_EQ(images->count, 5);
    ASSERT_EQ(images->rows, 28);
    ASSERT_EQ(images->pixels[28 * 28 + 1], static_cast<uint8_t>((28 * 28 + 1) * 7));
    auto split = loadFashionMnistSplit(dir.path(), "train");
    ASSERT_TRUE(split) << split.status().message();
    ASSERT_EQ(split->count, 5);
    ASSERT_EQ(split->labels[3], 3);
    ASSERT_EQ(split->labels[4], 9);
    ASSERT_LT(split->images[0], 0.0f);  // pixel 0 is below the mean after normalisation
}

TEST(TestIdxReader, missingFileNamesPathAndFix) {
    TempDir dir;
    auto images = readIdxImages(dir.filePath("nope.gz"));
    ASSERT_FALSE(images);
    ASSERT_EQ(images.status().code(), StatusCode::NotFound);
    const std::string& m = images.status().message();
    ASSERT_NE(m.find("nope.gz"), std::string::npos) << m;
    ASSERT_NE(m.find("dataset-fashion-mnist"), std::string::npos) << m;
    ASSERT_NE(m.find("data folder"), std::string::npos) << m;
}

TEST(TestIdxReader, truncatedFileIsReported) {
    TempDir dir;
    auto bytes = imageFile(0x803, 4, 28);
    bytes.resize(bytes.size() - 100);
    writeGz(dir.filePath("t.gz"), bytes);
    auto images = readIdxImages(dir.filePath("t.gz"));
    ASSERT_FALSE(images);
    ASSERT_EQ(images.status().code(), StatusCode::DataLoss);
    ASSERT_NE(images.status().message().find("truncated"), std::string::npos) << images.status().message();
}

TEST(TestIdxReader, truncatedGzipStreamIsReported) {
    TempDir dir;
    writeGz(dir.filePath("t.gz"), imageFile(0x803, 50, 28));
    std::error_code error;
    const auto size = std::filesystem::file_size(dir.filePath("t.gz"), error);
    ASSERT_FALSE(error) << error.message();
    std::filesystem::resize_file(dir.filePath("t.gz"), size / 2, error);  // a download cut off halfway
    ASSERT_FALSE(error) << error.message();
    auto images = readIdxImages(dir.filePath("t.gz"));
    ASSERT_FALSE(images);
    ASSERT_NE(images.status().message().find("truncated"), std::string::npos) << images.status().message();
}

TEST(TestIdxReader, wrongMagicIsReported) {
    TempDir dir;
    writeGz(dir.filePath("labels-as-images.gz"), labelFile(10));
    auto images = readIdxImages(dir.filePath("labels-as-images.gz"));
    ASSERT_FALSE(images);
    ASSERT_NE(images.status().message().find("wrong magic number 0x00000801"), std::string::npos)
        << images.status().message();
    auto labels = readIdxLabels(dir.filePath("labels-as-images.gz"));
    ASSERT_TRUE(labels) << labels.status().message();
}

TEST(TestIdxReader, implausibleDimensionsAreReported) {
    TempDir dir;
    writeGz(dir.filePath("huge.gz"), imageFile(0x803, 0, 28));
    auto images = readIdxImages(dir.filePath("huge.gz"));
    ASSERT_FALSE(images);
    ASSERT_NE(images.status().message().find("implausible"), std::string::npos) << images.status().message();
}

TEST(TestIdxReader, countMismatchAndBadLabelsAreReported) {
    TempDir dir;
    writeGz(dir.filePath("t10k-images-idx3-ubyte.gz"), imageFile(0x803, 6, 28));
    writeGz(dir.filePath("t10k-labels-idx1-ubyte.gz"), labelFile(5));
    auto split = loadFashionMnistSplit(dir.path(), "t10k");
    ASSERT_FALSE(split);
    ASSERT_NE(split.status().message().find("5 labels but"), std::string::npos) << split.status().message();

    writeGz(dir.filePath("t10k-labels-idx1-ubyte.gz"), labelFile(6, 10));
    split = loadFashionMnistSplit(dir.path(), "t10k");
    ASSERT_FALSE(split);
    ASSERT_NE(split.status().message().find("outside 0..9"), std::string::npos) << split.status().message();
}
