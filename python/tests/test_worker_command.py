"""Workers that are the user's command (`--worker-command`, issue 28 point 4): `syncscope-engine run`
starts each worker as `sh -c COMMAND` with the run's place in its environment (SYNCSCOPE_CONNECT,
SYNCSCOPE_CREDENTIALS, SYNCSCOPE_DATA_PLANE, RANK, LOCAL_RANK, WORLD_SIZE, OMP_NUM_THREADS), and a
PyTorch script joins with syncscope.Worker() and no address of its own: here the softmax regression of
external_model.py, a model the engine does not have, trains to its end. launch --hosts and --slurm
are covered by test_ssh_launch and test_slurm_launch."""

import os
import re
import shlex
import subprocess
import sys

from conftest import HERE, PYTHON_DIR

LINEAR_PARAMETERS = 784 * 10 + 10


def worker_command(*extra):
    path = os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")])
    return "PYTHONPATH=%s %s %s --role worker %s" % (shlex.quote(path), shlex.quote(sys.executable),
                                                     shlex.quote(os.path.join(HERE, "external_model.py")),
                                                     " ".join(extra))


def test_run_starts_pytorch_workers_from_a_command(engine):
    run = subprocess.run([engine, "run", "--workers", "3", "--model", "external", "--parameters",
                          str(LINEAR_PARAMETERS), "--epochs", "1", "--threads-per-worker", "2", "--worker-command",
                          worker_command()], capture_output=True, text=True, timeout=300)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    places = sorted(re.findall(r"^rank (\d) of (\d) \(local rank (\d)\), OMP_NUM_THREADS (\d)$", run.stdout, re.M))
    assert places == [("0", "3", "0", "2"), ("1", "3", "1", "2"), ("2", "3", "2", "2")], said
    # Not anchored to lines: three processes share the pipe, and one's line can land inside another's
    # ("worker 1: done at version 322worker 2: done at version 322", seen once on a 2-core Intel host).
    done = re.findall(r"worker \d: done at version (\d+)", run.stdout)
    assert len(done) == 3 and len(set(done)) == 1 and int(done[0]) >= 250, said  # an epoch of bsp rounds of 3 x 64
    assert "training started with 3 workers" in said, said


def test_what_a_worker_command_cannot_do_is_refused(engine):
    native = subprocess.run([engine, "run", "--model", "external", "--parameters", "10"], capture_output=True,
                            text=True, timeout=30)
    assert native.returncode != 0 and "--worker-command" in native.stderr, native.stderr
    quota = subprocess.run([engine, "run", "--workers", "2", "--cpu-quota", "0:0.5", "--worker-command", "true"],
                           capture_output=True, text=True, timeout=30)
    assert quota.returncode != 0 and "--slowdown" in quota.stderr, quota.stderr
