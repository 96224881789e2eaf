// The CPU limit a worker reports (engine/core/cpu_limit.h), read from fake /proc and cgroup trees:
// cgroup v1 and v2, a limit on a cgroup above the process's, a container's view (its cgroup mounted as
// the root), no limit, and files that say nothing sensible. And once on this machine's own tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/core/cpu_limit.h"
#include "tests/unit/test_support.h"

using namespace syncscope::engine;
using syncscope::testing::TempDir;

namespace {

// A fake tree under a temporary folder: proc/self/{cgroup,mountinfo} and cgroup files.
class FakeTree {
public:
    explicit FakeTree(const std::string& cgroup, const std::string& mountinfo) {
        put("/proc/self/cgroup", cgroup);
        put("/proc/self/mountinfo", mountinfo);
    }
    void put(const std::string& path, const std::string& text) {
        const std::filesystem::path file = m_dir.path() + path;
        std::filesystem::create_directories(file.parent_path());
        ASSERT_TRUE(syncscope::testing::writeFile(file.string(), text));
    }
    double limit() const { return cpuLimitCores("/proc/self", m_dir.path()); }

private:
    TempDir m_dir;
};

const char* kV1Mounts =
    "25 1 0:23 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
    "32 25 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n"
    "33 25 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n";
const char* kV2Mounts = "30 1 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";

}  // namespace

TEST(TestCpuLimit, readsACgroupV1Quota) {
    FakeTree tree("5:memory:/\n4:cpu,cpuacct:/syncscope-straggler-42\n0::/\n", kV1Mounts);
    tree.put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    tree.put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    tree.put("/sys/fs/cgroup/cpu,cpuacct/syncscope-straggler-42/cpu.cfs_quota_us", "1000\n");
    tree.put("/sys/fs/cgroup/cpu,cpuacct/syncscope-straggler-42/cpu.cfs_period_us", "10000\n");
    EXPECT_DOUBLE_EQ(tree.limit(), 0.1);
}

TEST(TestCpuLimit, readsACgroupV2CpuMaxAndTheTightestAbove) {
    FakeTree tree("0::/kubepods/pod7/ctr\n", kV2Mounts);
    tree.put("/sys/fs/cgroup/cpu.max", "max 100000\n");
    tree.put("/sys/fs/cgroup/kubepods/cpu.max", "max 100000\n");
    tree.put("/sys/fs/cgroup/kubepods/pod7/cpu.max", "50000 100000\n");  // the pod: half a CPU
    tree.put("/sys/fs/cgroup/kubepods/pod7/ctr/cpu.max", "150000 100000\n");  // its container asks for 1.5
    EXPECT_DOUBLE_EQ(tree.limit(), 0.5);
}

TEST(TestCpuLimit, readsAContainersOwnCgroupMountedAsTheRoot) {
    // Without a cgroup namespace a container sees its host path, and its cgroup is what is mounted.
    FakeTree tree("0::/docker/abc\n", "30 1 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
    tree.put("/sys/fs/cgroup/cpu.max", "200000 100000\n");
    EXPECT_DOUBLE_EQ(tree.limit(), 2.0);
    // A mount of another part of the hierarchy says nothing of this process.
    FakeTree other("0::/user.slice\n", "30 1 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
    other.put("/sys/fs/cgroup/cpu.max", "200000 100000\n");
    EXPECT_EQ(other.limit(), 0.0);
}

TEST(TestCpuLimit, findsAMountPointWithASpaceInIt) {
    FakeTree tree("0::/a\n", "30 1 0:26 / /sys/fs/my\\040cgroups rw - cgroup2 cgroup2 rw\n");
    tree.put("/sys/fs/my cgroups/a/cpu.max", "25000 100000\n");
    EXPECT_DOUBLE_EQ(tree.limit(), 0.25);
}

TEST(TestCpuLimit, noLimitOrNonsenseIsZero) {
    FakeTree none("0::/user.slice/session-1.scope\n", kV2Mounts);
    none.put("/sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
    EXPECT_EQ(none.limit(), 0.0);
    FakeTree bad("4:cpu,cpuacct:/x\n", kV1Mounts);
    bad.put("/sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_quota_us", "lots\n");
    bad.put("/sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_period_us", "0\n");
    EXPECT_EQ(bad.limit(), 0.0);
    FakeTree badV2("0::/x\n", kV2Mounts);
    badV2.put("/sys/fs/cgroup/x/cpu.max", "12abc 100000\n");
    EXPECT_EQ(badV2.limit(), 0.0);
    FakeTree slashless("0::x\n", kV2Mounts);  // a path that is not one: read where it points, then stop
    slashless.put("/sys/fs/cgroup/cpu.max", "max 100000\n");
    EXPECT_EQ(slashless.limit(), 0.0);
    FakeTree mounted("4:memory:/\n", kV1Mounts);  // no cpu hierarchy in the process's list
    EXPECT_EQ(mounted.limit(), 0.0);
    EXPECT_EQ(cpuLimitCores("/proc/self", "/nonexistent-root"), 0.0);
}

TEST(TestCpuLimit, thisProcessHasANumberAndCpuTimeThatGrows) {
    const double limit = cpuLimitCores();
    EXPECT_GE(limit, 0.0);
    const double before = processCpuMs();
    volatile double x = 0;
    for (int i = 0; i < 20'000'000; ++i) x = x + 1e-9 * i;
    EXPECT_GT(processCpuMs(), before);
    CpuLimitWatch watch;
    EXPECT_EQ(watch.cores(), limit);
}
