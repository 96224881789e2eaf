// Credentials files (engine/net/credentials.h): named workers (keygen --name) survive a save and a
// load, are known by their key and by their token under their own User-Id, and a malformed entry is
// refused naming its line; a User-Id's role.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <string>

#include "engine/net/credentials.h"
#include "engine/net/zap_authenticator.h"
#include "tests/unit/test_helpers.h"

namespace engine = syncscope::engine;
using engine::Role;

TEST(TestCredentials, namedWorkersRoundTripAndAreKnownByKeyAndToken) {
    syncscope::testing::TempDir dir;
    engine::Credentials all = engine::Credentials::generate();
    auto alice = all.issueNamedWorker("alice");
    ASSERT_TRUE(alice) << alice.status().message();
    EXPECT_EQ(alice->serverPublic, all.serverPublic);
    EXPECT_TRUE(alice->serverSecret.empty());
    EXPECT_NE(alice->clients.at(Role::Worker).publicKey, all.clients.at(Role::Worker).publicKey);
    EXPECT_NE(alice->workerToken, all.workerToken);
    EXPECT_FALSE(all.issueNamedWorker("alice")) << "a name issued twice";
    EXPECT_FALSE(all.issueNamedWorker("a b")) << "a name with a space";
    EXPECT_FALSE(all.issueNamedWorker("")) << "an empty name";

    const std::string path = dir.filePath("all");
    ASSERT_TRUE(all.save(path));
    auto loaded = engine::Credentials::load(path);
    ASSERT_TRUE(loaded) << loaded.status().message();
    ASSERT_EQ(loaded->namedWorkers.size(), 1u);
    EXPECT_EQ(loaded->userOfKey(alice->clients.at(Role::Worker).publicKey), std::optional<std::string>("worker:alice"));
    EXPECT_EQ(loaded->userOfToken(alice->workerToken), std::optional<std::string>("worker:alice"));
    EXPECT_EQ(loaded->userOfToken(all.workerToken), std::optional<std::string>("worker"));
    EXPECT_EQ(loaded->userOfKey(all.clients.at(Role::Steer).publicKey), std::optional<std::string>("steer"));
    EXPECT_FALSE(loaded->userOfToken(""));
    EXPECT_FALSE(loaded->userOfKey(engine::KeyPair::generate().publicKey));
    // A named worker's own file is a worker file like any other: no names, no secrets but its own.
    const std::string own = dir.filePath("alice");
    ASSERT_TRUE(alice->save(own));
    auto worker = engine::Credentials::load(own);
    ASSERT_TRUE(worker);
    EXPECT_TRUE(worker->namedWorkers.empty());
    EXPECT_EQ(worker->clientRole(), std::optional<Role>(Role::Worker));
    // The sealed data plane's peers: the shared pair and each named one; control admits neither.
    const auto peers = engine::sealPeersOf(*loaded, engine::kDataDomain);
    EXPECT_EQ(peers.size(), 2u);
    EXPECT_EQ(peers.at("worker:alice"), alice->clients.at(Role::Worker).publicKey);
    EXPECT_FALSE(engine::sealPeersOf(*loaded, engine::kControlDomain).count("worker:alice"));
}

TEST(TestCredentials, aMalformedNamedWorkerIsRefusedNamingItsLine) {
    syncscope::testing::TempDir dir;
    const std::string path = dir.filePath("all");
    ASSERT_TRUE(engine::Credentials::generate().save(path));
    std::ofstream(path, std::ios::app) << "named-worker bob not-a-key sometoken\n";
    auto loaded = engine::Credentials::load(path);
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.status().message().find("line"), std::string::npos) << loaded.status().message();
    EXPECT_NE(loaded.status().message().find("named-worker NAME"), std::string::npos) << loaded.status().message();
}

TEST(TestCredentials, aUsersRoleIsItsNameBeforeTheColon) {
    EXPECT_EQ(engine::roleOfUser("worker"), std::optional<Role>(Role::Worker));
    EXPECT_EQ(engine::roleOfUser("worker:alice"), std::optional<Role>(Role::Worker));
    EXPECT_EQ(engine::roleOfUser("steer"), std::optional<Role>(Role::Steer));
    EXPECT_FALSE(engine::roleOfUser("steer:alice")) << "only workers are named";
    EXPECT_FALSE(engine::roleOfUser("admin"));
    EXPECT_FALSE(engine::roleOfUser(""));
}
