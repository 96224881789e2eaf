"""The CPU limit the kernel holds this process to, as the engine's workers report it with each push
(engine/core/cpu_limit.h, protocol 1.14: Push.cpu_ms and Push.cpu_limit).

A CFS bandwidth limit on the process's cgroup or one above it (cgroup v2 cpu.max, v1
cpu.cfs_quota_us / cpu.cfs_period_us: Kubernetes' and Docker's CPU limits, Slurm's and systemd's
CPUQuota, `run --cpu-quota`). Under a quota a worker runs a small batch at full speed on quota it
saved while waiting and is throttled later, so its compute times overstate its sustained speed; the
coordinator bounds its iteration time by its CPU time over the limit (elastic batch sizes, what-if).
"""

import time


def _has_item(items, item):
    return item in items.split(",")


def _hierarchies(cgroup_text):
    """(v2, path) of each hierarchy that can hold a CPU limit, from /proc/PID/cgroup."""
    out = []
    for line in cgroup_text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        ident, controllers, path = parts
        if ident == "0" and controllers == "":
            out.append((True, path))
        elif _has_item(controllers, "cpu"):
            out.append((False, path))
    return out


def _unescape(field):
    """mountinfo writes a space, tab, newline or backslash in a path as a backslash and 3 octal digits."""
    out, i = [], 0
    while i < len(field):
        chunk = field[i + 1:i + 4]
        if field[i] == "\\" and len(chunk) == 3 and all(c in "01234567" for c in chunk):
            out.append(chr(int(chunk, 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def _mounts(mountinfo_text):
    """(v2, hierarchy folder mounted, mount point) of the cgroup2 mounts and the v1 cpu mounts."""
    out = []
    for line in mountinfo_text.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        dash = fields.index("-")
        before, after = fields[:dash], fields[dash + 1:]
        if len(before) < 5 or len(after) < 3:
            continue
        kind, options = after[0], after[2]
        if kind == "cgroup2":
            out.append((True, _unescape(before[3]), _unescape(before[4])))
        elif kind == "cgroup" and _has_item(options, "cpu"):
            out.append((False, _unescape(before[3]), _unescape(before[4])))
    return out


def _read(path):
    try:
        with open(path) as f:
            return f.read().split()
    except OSError:
        return []


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def _limit_in(folder, v2):
    """Quota / period of one cgroup folder, in CPUs; 0 when none is set."""
    if v2:
        words = _read(folder + "/cpu.max")
        if len(words) < 2 or words[0] == "max":
            return 0.0
        quota, period = _number(words[0]), _number(words[1])
    else:
        quota_words, period_words = _read(folder + "/cpu.cfs_quota_us"), _read(folder + "/cpu.cfs_period_us")
        if not quota_words or not period_words:
            return 0.0
        quota, period = _number(quota_words[0]), _number(period_words[0])
    if quota is None or period is None or not quota > 0 or not period > 0:
        return 0.0
    return quota / period


def cpu_limit_cores(proc_entry="/proc/self", root=""):
    """The smallest CFS quota / period, in CPUs, over the process's cgroup and the cgroups above it,
    on every cgroup v1 cpu or v2 hierarchy mounted; 0 where none is set or none can be read. `root`
    prefixes every path read (the tests give a fake tree)."""
    try:
        with open(root + proc_entry + "/cgroup") as f:
            hierarchies = _hierarchies(f.read())
        with open(root + proc_entry + "/mountinfo") as f:
            mounts = _mounts(f.read())
    except OSError:
        return 0.0
    least = 0.0
    for v2, path in hierarchies:
        for mount_v2, mount_root, point in mounts:
            if mount_v2 != v2:
                continue
            whole = mount_root == "/"
            if not whole and path != mount_root and not path.startswith(mount_root + "/"):
                continue  # the mount shows another part of the hierarchy
            relative = (path if whole else path[len(mount_root):]).rstrip("/")
            while True:  # from the process's cgroup up to the mount's top: the tightest limit holds
                limit = _limit_in(root + point + relative, v2)
                if limit > 0:
                    least = min(least, limit) if least > 0 else limit
                if not relative:
                    break
                relative = relative[:max(relative.rfind("/"), 0)]  # (a path without a slash: stop)
    return least


class CpuLimitWatch:
    """cpu_limit_cores() of this process, read again at most once a second (a limit may be set,
    changed or lifted while the process runs: `run --cpu-quota` sets it once the worker has joined)."""

    REREAD_EVERY_S = 1.0

    def __init__(self):
        self._cores, self._read_at = 0.0, None

    def cores(self):
        now = time.monotonic()
        if self._read_at is None or now - self._read_at >= self.REREAD_EVERY_S:
            self._cores, self._read_at = cpu_limit_cores(), now
        return self._cores


def process_cpu_ms():
    """CPU time this process has used (all its threads, user and system), in ms."""
    return time.process_time() * 1000.0


__all__ = ["cpu_limit_cores", "CpuLimitWatch", "process_cpu_ms"]
