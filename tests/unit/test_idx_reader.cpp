// IDX reading: a valid file round-trips; missing, truncated, wrong-magic and mismatched files each
// fail with a message naming the file, the problem and the fix. The test writes its own files.
#include <QTemporaryDir>
#include <QTest>
#include <zlib.h>

#include <string>
#include <vector>

#include "engine/model/fashion_mnist.h"
#include "engine/model/idx_reader.h"

using namespace syncscope::engine;

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

void writeGz(const QString& path, const std::vector<uint8_t>& bytes) {
    gzFile f = gzopen(path.toUtf8().constData(), "wb");
    QVERIFY(f);
    QCOMPARE(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), static_cast<int>(bytes.size()));
    gzclose(f);
}

}  // namespace

class TestIdxReader : public QObject {
    Q_OBJECT
private slots:
    void readsValidFiles() {
        QTemporaryDir dir;
        writeGz(dir.filePath("train-images-idx3-ubyte.gz"), imageFile(0x803, 5, 28));
        writeGz(dir.filePath("train-labels-idx1-ubyte.gz"), labelFile(5));
        auto images = readIdxImages(dir.filePath("train-images-idx3-ubyte.gz").toStdString());
        QVERIFY2(images, images.status().message().c_str());
        QCOMPARE(images->count, 5);
        QCOMPARE(images->rows, 28);
        QCOMPARE(images->pixels[28 * 28 + 1], static_cast<uint8_t>((28 * 28 + 1) * 7));
        auto split = loadFashionMnistSplit(dir.path().toStdString(), "train");
        QVERIFY2(split, split.status().message().c_str());
        QCOMPARE(split->count, 5);
        QCOMPARE(split->labels[3], 3);
        QCOMPARE(split->labels[4], 9);
        QVERIFY(split->images[0] < 0.0f);  // pixel 0 is below the mean after normalisation
    }

    void missingFileNamesPathAndFix() {
        QTemporaryDir dir;
        auto images = readIdxImages(dir.filePath("nope.gz").toStdString());
        QVERIFY(!images);
        QCOMPARE(images.status().code(), StatusCode::NotFound);
        const std::string& m = images.status().message();
        QVERIFY2(m.find("nope.gz") != std::string::npos, m.c_str());
        QVERIFY2(m.find("dataset-fashion-mnist") != std::string::npos, m.c_str());
        QVERIFY2(m.find("data folder") != std::string::npos, m.c_str());
    }

    void truncatedFileIsReported() {
        QTemporaryDir dir;
        auto bytes = imageFile(0x803, 4, 28);
        bytes.resize(bytes.size() - 100);
        writeGz(dir.filePath("t.gz"), bytes);
        auto images = readIdxImages(dir.filePath("t.gz").toStdString());
        QVERIFY(!images);
        QCOMPARE(images.status().code(), StatusCode::DataLoss);
        QVERIFY2(images.status().message().find("truncated") != std::string::npos, images.status().message().c_str());
    }

    void truncatedGzipStreamIsReported() {
        QTemporaryDir dir;
        writeGz(dir.filePath("t.gz"), imageFile(0x803, 50, 28));
        QFile file(dir.filePath("t.gz"));
        QVERIFY(file.open(QIODevice::ReadWrite));
        file.resize(file.size() / 2);  // a download cut off halfway
        file.close();
        auto images = readIdxImages(dir.filePath("t.gz").toStdString());
        QVERIFY(!images);
        QVERIFY2(images.status().message().find("truncated") != std::string::npos, images.status().message().c_str());
    }

    void wrongMagicIsReported() {
        QTemporaryDir dir;
        writeGz(dir.filePath("labels-as-images.gz"), labelFile(10));
        auto images = readIdxImages(dir.filePath("labels-as-images.gz").toStdString());
        QVERIFY(!images);
        QVERIFY2(images.status().message().find("wrong magic number 0x00000801") != std::string::npos,
                 images.status().message().c_str());
        auto labels = readIdxLabels(dir.filePath("labels-as-images.gz").toStdString());
        QVERIFY2(labels, labels.status().message().c_str());
    }

    void implausibleDimensionsAreReported() {
        QTemporaryDir dir;
        writeGz(dir.filePath("huge.gz"), imageFile(0x803, 0, 28));
        auto images = readIdxImages(dir.filePath("huge.gz").toStdString());
        QVERIFY(!images);
        QVERIFY2(images.status().message().find("implausible") != std::string::npos, images.status().message().c_str());
    }

    void countMismatchAndBadLabelsAreReported() {
        QTemporaryDir dir;
        writeGz(dir.filePath("t10k-images-idx3-ubyte.gz"), imageFile(0x803, 6, 28));
        writeGz(dir.filePath("t10k-labels-idx1-ubyte.gz"), labelFile(5));
        auto split = loadFashionMnistSplit(dir.path().toStdString(), "t10k");
        QVERIFY(!split);
        QVERIFY2(split.status().message().find("5 labels but") != std::string::npos, split.status().message().c_str());

        writeGz(dir.filePath("t10k-labels-idx1-ubyte.gz"), labelFile(6, 10));
        split = loadFashionMnistSplit(dir.path().toStdString(), "t10k");
        QVERIFY(!split);
        QVERIFY2(split.status().message().find("outside 0..9") != std::string::npos, split.status().message().c_str());
    }
};

QTEST_APPLESS_MAIN(TestIdxReader)
#include "test_idx_reader.moc"
