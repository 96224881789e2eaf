"""The CPU limit a PyTorch worker reports with its pushes (syncscope.cpu_limit, protocol 1.14), read
from fake /proc and cgroup trees: the same cases as the engine's reader (tests/unit/test_cpu_limit.cpp),
so both kinds of worker report the same number on the same machine (test_worker_command.py checks it
on a real throttled PyTorch worker)."""

import os
import time

import pytest

from syncscope.cpu_limit import CpuLimitWatch, cpu_limit_cores, process_cpu_ms

V1_MOUNTS = ("25 1 0:23 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
             "32 25 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n"
             "33 25 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n")
V2_MOUNTS = "30 1 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"


def tree(root, cgroup, mountinfo, files):
    for path, text in dict(files, **{"/proc/self/cgroup": cgroup, "/proc/self/mountinfo": mountinfo}).items():
        full = str(root) + path
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return cpu_limit_cores("/proc/self", str(root))


def test_a_cgroup_v1_quota(tmp_path):
    assert tree(tmp_path, "5:memory:/\n4:cpu,cpuacct:/syncscope-straggler-42\n0::/\n", V1_MOUNTS, {
        "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
        "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
        "/sys/fs/cgroup/cpu,cpuacct/syncscope-straggler-42/cpu.cfs_quota_us": "1000\n",
        "/sys/fs/cgroup/cpu,cpuacct/syncscope-straggler-42/cpu.cfs_period_us": "10000\n",
    }) == pytest.approx(0.1)


def test_cgroup_v2_cpu_max_and_the_tightest_above(tmp_path):
    assert tree(tmp_path, "0::/kubepods/pod7/ctr\n", V2_MOUNTS, {
        "/sys/fs/cgroup/cpu.max": "max 100000\n",
        "/sys/fs/cgroup/kubepods/cpu.max": "max 100000\n",
        "/sys/fs/cgroup/kubepods/pod7/cpu.max": "50000 100000\n",
        "/sys/fs/cgroup/kubepods/pod7/ctr/cpu.max": "150000 100000\n",
    }) == pytest.approx(0.5)


def test_a_containers_own_cgroup_mounted_as_the_root(tmp_path):
    mounts = "30 1 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
    assert tree(tmp_path / "a", "0::/docker/abc\n", mounts, {"/sys/fs/cgroup/cpu.max": "200000 100000\n"}) == 2.0
    assert tree(tmp_path / "b", "0::/user.slice\n", mounts, {"/sys/fs/cgroup/cpu.max": "200000 100000\n"}) == 0.0


def test_a_mount_point_with_a_space(tmp_path):
    assert tree(tmp_path, "0::/a\n", "30 1 0:26 / /sys/fs/my\\040cgroups rw - cgroup2 cgroup2 rw\n",
                {"/sys/fs/my cgroups/a/cpu.max": "25000 100000\n"}) == 0.25


def test_no_limit_or_nonsense_is_zero(tmp_path):
    assert tree(tmp_path / "a", "0::/user.slice/session-1.scope\n", V2_MOUNTS,
                {"/sys/fs/cgroup/user.slice/cpu.max": "max 100000\n"}) == 0.0
    assert tree(tmp_path / "b", "4:cpu,cpuacct:/x\n", V1_MOUNTS, {
        "/sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_quota_us": "lots\n",
        "/sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_period_us": "0\n"}) == 0.0
    assert tree(tmp_path / "c", "0::/x\n", V2_MOUNTS, {"/sys/fs/cgroup/x/cpu.max": "12abc 100000\n"}) == 0.0
    assert tree(tmp_path / "d", "4:memory:/\n", V1_MOUNTS, {}) == 0.0
    assert tree(tmp_path / "e", "0::x\n", V2_MOUNTS, {"/sys/fs/cgroup/cpu.max": "max 100000\n"}) == 0.0
    assert cpu_limit_cores("/proc/self", "/nonexistent-root") == 0.0


def test_this_process_has_a_number_and_cpu_time_that_grows():
    before = process_cpu_ms()
    deadline = time.process_time() + 0.05
    while time.process_time() < deadline:
        pass
    assert process_cpu_ms() > before
    assert CpuLimitWatch().cores() == cpu_limit_cores() >= 0.0

