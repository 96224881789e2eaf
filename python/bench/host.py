"""The host a bench ran on, named beside its figures (hosts differ: an AMD EPYC, a slower Intel Xeon)."""

import os
import platform


def cpu_model():
    """The CPU's model name, as /proc/cpuinfo says it."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def describe():
    """'MODEL, N cores'."""
    return "%s, %d cores" % (cpu_model(), os.cpu_count() or 0)
