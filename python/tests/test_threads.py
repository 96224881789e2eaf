"""syncscope.set_num_threads: PyTorch's threads and those of an OpenBLAS it computes with (torch's own
call does not reach the latter; threads.py says why that costs a worker its communication time)."""

import json
import os
import subprocess
import sys

import pytest

import syncscope
from conftest import PYTHON_DIR

PROBE = """
import json, torch, syncscope
torch.ones(64, 64) @ torch.ones(64, 64)
before = syncscope.blas_threads()
limited = syncscope.set_num_threads(1)
torch.ones(64, 64) @ torch.ones(64, 64)
mapped = any("openblas" in line for line in open("/proc/self/maps"))  # seen without the package's code
print(json.dumps({"before": before, "limited": limited, "torch": torch.get_num_threads(),
                  "after": syncscope.blas_threads(), "openblas_mapped": mapped}))
"""


def probe(openblas_threads):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")]))
    env.pop("OPENBLAS_NUM_THREADS", None)
    if openblas_threads is not None:
        env["OPENBLAS_NUM_THREADS"] = str(openblas_threads)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_set_num_threads_reaches_torch_and_the_openblas_under_it():
    found = probe(2)
    assert found["torch"] == 1, found
    # OpenBLAS arrives as Debian's libblas.so.3 or liblapack.so.3 (torch and numpy link both) once
    # libopenblas0-pthread is installed; without it nothing of OpenBLAS is in the process.
    if not found["openblas_mapped"]:
        assert found == {"before": None, "limited": ["torch"], "torch": 1, "after": None,
                         "openblas_mapped": False}, found
        pytest.skip("no OpenBLAS in this PyTorch's process (libopenblas0-pthread is not installed): only torch's "
                    "threads were checked")
    assert found["before"] == 2, found  # OpenBLAS read the variable when it loaded
    assert found["limited"] == ["torch", "openblas"] and found["after"] == 1, found


def test_set_num_threads_refuses_a_count_that_is_not_one_or_more():
    for bad in (0, -2, 1.5, "2"):
        with pytest.raises(syncscope.SyncScopeError, match="whole number >= 1"):
            syncscope.set_num_threads(bad)
