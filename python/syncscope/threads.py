"""How many CPU threads a PyTorch worker computes with.

torch.set_num_threads(n) sets PyTorch's own pool (OpenMP) and MKL's, but not an OpenBLAS that PyTorch
reaches through libblas.so.3, as Debian's python3-torch does once libopenblas0-pthread is installed
(the fast BLAS there: the reference one is about 10x slower). OpenBLAS then runs every product on as
many threads as the host has cores, and its threads spin for a while after each one. On a host shared
by several workers and a coordinator, those spinning threads take the CPU that the worker's ZeroMQ
I/O thread and its neighbours need: a PyTorch worker's zero-copy send of the mlp's gradient took a
median 0.56 ms with them and 0.12 ms without (2-core Intel Xeon, 2026-11-29).

    syncscope.set_num_threads(1)   # instead of torch.set_num_threads(1)

`syncscope-engine run/launch --worker-command` sets OPENBLAS_NUM_THREADS beside OMP_NUM_THREADS, which
OpenBLAS reads when it loads; this call is for scripts started some other way."""

import ctypes
import os

from .errors import SyncScopeError


def _loaded_openblas():
    """The OpenBLAS this process has loaded, as a ctypes library, or None."""
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "blas" in line and "/" in line.split()[-1]})
    except OSError:  # not Linux: nothing to find this way
        return None
    for path in paths:
        try:
            library = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)  # the loaded copy, never a second
        except OSError:
            continue
        if hasattr(library, "openblas_set_num_threads") and hasattr(library, "openblas_get_num_threads"):
            return library
    return None


def set_num_threads(n):
    """torch.set_num_threads(n), and the same for an OpenBLAS that PyTorch computes with. Returns the
    libraries it set: ["torch"] or ["torch", "openblas"]."""
    import torch
    if not isinstance(n, int) or n < 1:
        raise SyncScopeError("set_num_threads(%r): the number of threads is a whole number >= 1" % (n,))
    torch.set_num_threads(n)
    limited = ["torch"]
    openblas = _loaded_openblas()
    if openblas is not None:
        openblas.openblas_set_num_threads(ctypes.c_int(n))
        limited.append("openblas")
    return limited


def blas_threads():
    """The threads of the OpenBLAS loaded in this process, or None where PyTorch computes with another BLAS."""
    openblas = _loaded_openblas()
    return None if openblas is None else int(openblas.openblas_get_num_threads())
