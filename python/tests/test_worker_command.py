"""Workers that are the user's command (`--worker-command`, issue 28 point 4): `syncscope-engine run`
starts each worker as `sh -c COMMAND` with the run's place in its environment (SYNCSCOPE_CONNECT,
SYNCSCOPE_CREDENTIALS, SYNCSCOPE_DATA_PLANE, RANK, LOCAL_RANK, WORLD_SIZE, OMP_NUM_THREADS, SYNCSCOPE_SEED), and a
PyTorch script joins with syncscope.Worker() and no address of its own: here the softmax regression of
external_model.py, a model the engine does not have, trains to its end, tested by an evaluator that is a
command too (`--evaluator-command`), with one worker's own process limited by --cpu-quota. launch
--hosts and --slurm are covered by test_ssh_launch and test_slurm_launch."""

import os
import re
import shlex
import subprocess
import sys
import time

from conftest import HERE, PYTHON_DIR

LINEAR_PARAMETERS = 784 * 10 + 10


def worker_command(*extra, role="worker"):
    path = os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")])
    return "PYTHONPATH=%s %s %s --role %s %s" % (shlex.quote(path), shlex.quote(sys.executable),
                                                 shlex.quote(os.path.join(HERE, "external_model.py")), role,
                                                 " ".join(extra))


def test_run_starts_pytorch_workers_from_a_command(engine):
    run = subprocess.run([engine, "run", "--workers", "3", "--model", "external", "--parameters",
                          str(LINEAR_PARAMETERS), "--epochs", "3", "--seed", "7", "--threads-per-worker", "2", "--cpu-quota", "1:0.5",
                          # Python is the shell's child here (a command follows it), as under a wrapper script.
                          "--worker-command", worker_command() + '; echo "rank $RANK: script ended"', "--evaluator-command",
                          worker_command(role="evaluator")], capture_output=True, text=True, timeout=300)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    found = re.findall(r"^rank (\d) of (\d) \(local rank (\d)\), OMP_NUM_THREADS (\d), seed 7, pid (\d+), "
                       r"OPENBLAS_NUM_THREADS (\d), OpenBLAS loaded with (\w+) threads$", run.stdout, re.M)
    places = sorted(place[:4] for place in found)
    assert places == [("0", "3", "0", "2"), ("1", "3", "1", "2"), ("2", "3", "2", "2")], said
    # --threads-per-worker reaches an OpenBLAS under PyTorch too (torch.set_num_threads does not); "None":
    # this PyTorch computes with another BLAS.
    assert all(place[5] == "2" and place[6] in ("2", "None") for place in found), said
    # The limit lands on the Python process that joined, the child of the `sh -c` the run started.
    limited = re.findall(r"worker 1 \(pid (\d+)\) limited to 50% of a CPU", said)
    assert len(limited) == 1 and limited[0] in {place[4] for place in found}, said
    # Its pushes say so (syncscope.cpu_limit, read from the cgroup the limit put it in; the cpulimit
    # fallback stops and continues the process instead, and no cgroup shows a limit). A worker reads its
    # limit again once a second and the limit lands after it joined: three epochs, not one, so that
    # the run outlasts that second on a fast host (an epoch took 0.84 s in CI, and the limit went unseen).
    if "CFS quota" in said:
        assert "worker 1 runs under a CPU limit of 0.50 CPUs" in said, said
    # The evaluator command tested the final model: the run's final line has its accuracy.
    accuracy = re.search(r"final test accuracy: ([\d.]+)%", said)
    assert accuracy and float(accuracy.group(1)) > 70.0, said
    assert re.search(r"^evaluator: \d+ evaluations, final \(", run.stdout, re.M), said
    # Not anchored to lines: three processes share the pipe, and one's line can land inside another's
    # ("worker 1: done at version 322worker 2: done at version 322", seen once on a 2-core Intel host).
    done = re.findall(r"worker \d: done at version (\d+)", run.stdout)
    assert len(done) == 3 and len(set(done)) == 1 and int(done[0]) >= 750, said  # 3 epochs of bsp rounds of 3 x 64
    assert "training started with 3 workers" in said, said


def test_what_a_worker_command_cannot_do_is_refused(engine):
    native = subprocess.run([engine, "run", "--model", "external", "--parameters", "10"], capture_output=True,
                            text=True, timeout=30)
    assert native.returncode != 0 and "--worker-command" in native.stderr, native.stderr
    evaluator = subprocess.run([engine, "run", "--workers", "2", "--evaluator-command", "true"],
                               capture_output=True, text=True, timeout=30)
    assert evaluator.returncode != 0 and "--evaluator-command is for --model external" in evaluator.stderr, \
        evaluator.stderr


def test_a_run_whose_worker_commands_all_return_early_stops_and_says_so(engine):
    # Code 0 from every script while the run goes on (a loop that ends before opt.running turns false)
    # leaves nothing to train: the run stops, saying why, rather than wait for workers for ever.
    started = time.monotonic()
    run = subprocess.run([engine, "run", "--workers", "2", "--model", "external", "--parameters", "10",
                          "--worker-command", "echo done early"], capture_output=True, text=True, timeout=90)
    said = run.stdout + run.stderr
    assert run.returncode == 3, said
    assert "every worker process of this run has ended with code 0 while the run goes on" in said, said
    assert time.monotonic() - started < 60, said


def test_a_run_whose_worker_commands_all_fail_stops_and_says_so(engine):
    # A script that cannot start (here: exits 3 at once, as a missing module would) must not leave the
    # run waiting for workers for ever.
    run = subprocess.run([engine, "run", "--workers", "2", "--model", "external", "--parameters", "10",
                          "--worker-command", "echo no torch here >&2; exit 3"], capture_output=True, text=True,
                         timeout=60)
    said = run.stdout + run.stderr
    assert run.returncode == 3, said
    assert said.count("no torch here") == 2 and len(re.findall(r"worker process \d \(pid \d+\) ended with code 3", said)) == 2, said
    assert "every worker process of this run has ended" in said, said
