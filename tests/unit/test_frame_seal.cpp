// Sealed frames (engine/net/frame_seal.h): the two ends of a connection derive crossed keys from their
// CURVE pairs and both salts; a frame opens once, under its own connection's key only, and any changed
// byte, replay or reordering is refused without disturbing the frames after it. Each cipher the CPU
// runs is checked (AES-256-GCM is skipped, saying so, on a CPU without AES-NI).
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <thread>
#include <vector>

#include "engine/net/frame_seal.h"

namespace engine = syncscope::engine;
using engine::Cipher;

namespace {

struct Ends {
    engine::SessionKeys client, server;
};

Ends derive(const engine::KeyPair& worker, const engine::KeyPair& coordinator, const engine::Salt& clientSalt,
            const engine::Salt& serverSalt) {
    auto client = engine::deriveSessionKeys(engine::SessionSide::Client, worker, coordinator.publicKey, clientSalt, serverSalt);
    auto server = engine::deriveSessionKeys(engine::SessionSide::Server, coordinator, worker.publicKey, clientSalt, serverSalt);
    EXPECT_TRUE(client.isOk()) << client.status().message();
    EXPECT_TRUE(server.isOk()) << server.status().message();
    return {client.isOk() ? *client : engine::SessionKeys{}, server.isOk() ? *server : engine::SessionKeys{}};
}

std::vector<uint8_t> sealed(engine::FrameSealer& sealer, const std::vector<uint8_t>& plain) {
    std::vector<uint8_t> out(engine::sealedSize(plain.size()));
    sealer.seal(plain.data(), plain.size(), out.data());
    return out;
}

std::vector<uint8_t> bytes(size_t count, uint8_t first) {
    std::vector<uint8_t> values(count);
    std::iota(values.begin(), values.end(), first);
    return values;
}

class TestFrameSeal : public ::testing::TestWithParam<Cipher> {
protected:
    void SetUp() override {
        if (GetParam() == Cipher::Aes256Gcm && !engine::aesGcmAvailable())
            GTEST_SKIP() << "this CPU has no AES-NI/PCLMUL, so libsodium runs no AES-256-GCM here";
        const Ends ends = derive(m_worker, m_coordinator, engine::randomSalt(), engine::randomSalt());
        m_keys = ends.client;
        m_sealer = std::make_unique<engine::FrameSealer>(GetParam(), ends.client.send);
        m_opener = std::make_unique<engine::FrameOpener>(GetParam(), ends.server.receive);
    }
    engine::KeyPair m_worker = engine::KeyPair::generate(), m_coordinator = engine::KeyPair::generate();
    engine::SessionKeys m_keys;
    std::unique_ptr<engine::FrameSealer> m_sealer;
    std::unique_ptr<engine::FrameOpener> m_opener;
};

}  // namespace

TEST(TestSessionKeys, bothEndsDeriveCrossedKeysAndEachConnectionItsOwn) {
    const auto worker = engine::KeyPair::generate(), coordinator = engine::KeyPair::generate();
    const engine::Salt a = engine::randomSalt(), b = engine::randomSalt();
    const Ends ends = derive(worker, coordinator, a, b);
    EXPECT_EQ(ends.client.send, ends.server.receive);
    EXPECT_EQ(ends.client.receive, ends.server.send);
    EXPECT_NE(ends.client.send, ends.client.receive);
    // Another salt from either side: other keys (a connection's frames open under no other one's).
    EXPECT_NE(derive(worker, coordinator, engine::randomSalt(), b).client.send, ends.client.send);
    EXPECT_NE(derive(worker, coordinator, a, engine::randomSalt()).client.send, ends.client.send);
    // Someone holding another worker pair computes other keys than the coordinator expects.
    const auto stranger = engine::KeyPair::generate();
    auto forged = engine::deriveSessionKeys(engine::SessionSide::Client, stranger, coordinator.publicKey, a, b);
    ASSERT_TRUE(forged.isOk());
    EXPECT_NE(forged->send, ends.server.receive);
}

TEST(TestSessionKeys, aKeyThatIsNotZ85IsAClearError) {
    const auto pair = engine::KeyPair::generate();
    auto keys = engine::deriveSessionKeys(engine::SessionSide::Client, pair, "not a key", engine::randomSalt(),
                                          engine::randomSalt());
    ASSERT_FALSE(keys.isOk());
    EXPECT_NE(keys.status().message().find("keygen"), std::string::npos) << keys.status().message();
}

TEST_P(TestFrameSeal, framesOpenInOrderAndInPlace) {
    // Up to many segments (the mlp's 0.94 MB is 4), and sizes at a segment's edge.
    for (const size_t size : {size_t(0), size_t(1), size_t(4096), engine::kSegmentBytes, engine::kSegmentBytes + 1,
                              size_t(940584), size_t(16) << 20}) {
        const auto plain = bytes(size, uint8_t(size));
        const uint64_t expected = m_sealer->nextCounter();
        auto frame = sealed(*m_sealer, plain);
        // The ciphertext is not the plaintext (past a few bytes, where a match could be chance).
        if (size >= 16) {
            EXPECT_NE(std::vector<uint8_t>(frame.begin() + engine::kCounterBytes, frame.begin() + engine::kCounterBytes + plain.size()), plain);
        }
        auto opened = m_opener->open(frame.data(), frame.size());
        ASSERT_TRUE(opened.isOk()) << opened.status().message();
        EXPECT_EQ(*opened, expected);
        EXPECT_EQ(std::vector<uint8_t>(frame.begin() + engine::kCounterBytes, frame.begin() + engine::kCounterBytes + plain.size()), plain);
    }
    // Sealed in place (the plaintext already where the ciphertext goes): the same frame format.
    const auto plain = bytes(1000, 7);
    std::vector<uint8_t> frame(engine::sealedSize(plain.size()));
    std::copy(plain.begin(), plain.end(), frame.begin() + engine::kCounterBytes);
    m_sealer->seal(frame.data() + engine::kCounterBytes, plain.size(), frame.data());
    auto opened = m_opener->open(frame.data(), frame.size());
    ASSERT_TRUE(opened.isOk()) << opened.status().message();
    EXPECT_EQ(std::vector<uint8_t>(frame.begin() + engine::kCounterBytes, frame.begin() + engine::kCounterBytes + plain.size()), plain);
}

TEST_P(TestFrameSeal, aChangedByteAnywhereIsRefusedAndTheNextFrameStillOpens) {
    const auto plain = bytes(300, 1);
    const auto genuine = sealed(*m_sealer, plain);
    for (const size_t at : {size_t(0), engine::kCounterBytes, engine::kCounterBytes + 150, genuine.size() - 1}) {
        auto tampered = genuine;
        tampered[at] ^= 0x01;
        auto opened = m_opener->open(tampered.data(), tampered.size());
        ASSERT_FALSE(opened.isOk()) << "a frame changed at byte " << at << " opened";
        EXPECT_EQ(m_opener->lastCounter(), 0u);
    }
    auto copy = genuine;
    ASSERT_TRUE(m_opener->open(copy.data(), copy.size()).isOk());
    auto next = sealed(*m_sealer, plain);
    ASSERT_TRUE(m_opener->open(next.data(), next.size()).isOk());
    EXPECT_EQ(m_opener->lastCounter(), 2u);
}

TEST_P(TestFrameSeal, aFrameCutShortOrWithSegmentsSwappedIsRefused) {
    const auto plain = bytes(3 * engine::kSegmentBytes, 5);  // three whole segments
    const auto genuine = sealed(*m_sealer, plain);
    const size_t tags = engine::kCounterBytes + plain.size();
    // Cut to its first two segments and their tags: a well-formed size, but the length is authenticated.
    std::vector<uint8_t> cut(genuine.begin(), genuine.begin() + engine::kCounterBytes + 2 * engine::kSegmentBytes);
    cut.insert(cut.end(), genuine.begin() + tags, genuine.begin() + tags + 2 * engine::kTagBytes);
    ASSERT_EQ(engine::plainSizeOf(cut.size()), 2 * engine::kSegmentBytes);
    EXPECT_FALSE(m_opener->open(cut.data(), cut.size()).isOk());
    // The first two segments swapped, with their tags: each segment's nonce holds its index.
    auto swapped = genuine;
    std::swap_ranges(swapped.begin() + engine::kCounterBytes,
                     swapped.begin() + engine::kCounterBytes + engine::kSegmentBytes,
                     swapped.begin() + engine::kCounterBytes + engine::kSegmentBytes);
    std::swap_ranges(swapped.begin() + tags, swapped.begin() + tags + engine::kTagBytes,
                     swapped.begin() + tags + engine::kTagBytes);
    EXPECT_FALSE(m_opener->open(swapped.data(), swapped.size()).isOk());
    auto copy = genuine;
    EXPECT_TRUE(m_opener->open(copy.data(), copy.size()).isOk());
}

TEST_P(TestFrameSeal, connectionsSealingAtOnceShareTheHelpersAndEveryFrameOpens) {
    // The helper threads serve one frame at a time, and a helper may wake after its frame's caller has
    // taken every segment: a helper that then ran a segment of the next frame with the last frame's
    // work, or a caller that returned while a helper still wrote, would give frames that do not open
    // or plaintexts that differ. Four connections (each its own keys) seal and open frames of 1 to 9
    // segments at once, 150 each.
    constexpr int kConnections = 4, kFrames = 150;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < kConnections; ++c)
        threads.emplace_back([&, c] {
            const Ends ends = derive(m_worker, m_coordinator, engine::randomSalt(), engine::randomSalt());
            engine::FrameSealer sealer(GetParam(), ends.client.send);
            engine::FrameOpener opener(GetParam(), ends.server.receive);
            for (int f = 0; f < kFrames; ++f) {
                const size_t size = engine::kSegmentBytes * size_t(1 + (f + c) % 9) - size_t(97 * f);
                const auto plain = bytes(size, uint8_t(f + 31 * c));
                auto frame = sealed(sealer, plain);
                auto opened = opener.open(frame.data(), frame.size());
                if (!opened.isOk() || !std::equal(plain.begin(), plain.end(), frame.begin() + engine::kCounterBytes))
                    ++failures;
            }
        });
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(failures.load(), 0) << "of " << kConnections * kFrames << " frames";
}

TEST(TestFrameSizes, everySealedSizeGivesItsPlaintextBack) {
    for (size_t plain : {size_t(0), size_t(1), engine::kSegmentBytes - 1, engine::kSegmentBytes, engine::kSegmentBytes + 1,
                         size_t(940584), size_t(16) << 20})
        EXPECT_EQ(engine::plainSizeOf(engine::sealedSize(plain)), plain) << plain;
    // Sizes no plaintext seals to: too short, or between one segment's frame and two's.
    EXPECT_FALSE(engine::plainSizeOf(engine::kSealOverhead - 1));
    EXPECT_FALSE(engine::plainSizeOf(engine::sealedSize(engine::kSegmentBytes) + 1));
}

TEST_P(TestFrameSeal, aReplayedOrReorderedFrameIsRefused) {
    const auto first = sealed(*m_sealer, bytes(64, 1)), second = sealed(*m_sealer, bytes(64, 2));
    auto copy = second;
    ASSERT_TRUE(m_opener->open(copy.data(), copy.size()).isOk());
    copy = second;
    auto replay = m_opener->open(copy.data(), copy.size());
    ASSERT_FALSE(replay.isOk());
    EXPECT_NE(replay.status().message().find("replayed"), std::string::npos) << replay.status().message();
    copy = first;  // older than the last opened
    EXPECT_FALSE(m_opener->open(copy.data(), copy.size()).isOk());
}

TEST_P(TestFrameSeal, aFrameUnderAnotherConnectionsKeyIsRefused) {
    const Ends other = derive(m_worker, m_coordinator, engine::randomSalt(), engine::randomSalt());
    engine::FrameSealer otherSealer(GetParam(), other.client.send);
    auto frame = sealed(otherSealer, bytes(128, 3));
    auto opened = m_opener->open(frame.data(), frame.size());
    ASSERT_FALSE(opened.isOk());
    EXPECT_NE(opened.status().message().find("another connection"), std::string::npos) << opened.status().message();
    // The other direction's key of the same connection opens nothing either.
    engine::FrameSealer wrongWay(GetParam(), m_keys.receive);
    auto reflected = sealed(wrongWay, bytes(128, 4));
    EXPECT_FALSE(m_opener->open(reflected.data(), reflected.size()).isOk());
}

TEST_P(TestFrameSeal, aFrameShorterThanItsCounterAndTagIsRefused) {
    std::vector<uint8_t> stub(engine::kSealOverhead - 1, 0);
    auto opened = m_opener->open(stub.data(), stub.size());
    ASSERT_FALSE(opened.isOk());
    EXPECT_NE(opened.status().message().find("shorter"), std::string::npos) << opened.status().message();
}

INSTANTIATE_TEST_SUITE_P(Ciphers, TestFrameSeal, ::testing::Values(Cipher::ChaCha20Poly1305, Cipher::Aes256Gcm),
                         [](const ::testing::TestParamInfo<Cipher>& cipher) {
                             return cipher.param == Cipher::Aes256Gcm ? "Aes256Gcm" : "ChaCha20Poly1305";
                         });
