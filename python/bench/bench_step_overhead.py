#!/usr/bin/python3
"""What a PyTorch worker's push + pull costs per step, against a native worker's in the same run and
against torch.distributed (gloo) all-reduce of the same buffer among the same number of processes.

  1. mixed: 2 native + 2 PyTorch workers train the mlp in asp (no barrier, so held time is ~0); the
     coordinator's telemetry gives each worker's comm_ms (round trip minus held time), per kind the
     median and the mean of every tick's figure. Paced (the default, --pace-ms 20): every worker waits
     the same injected 20 ms a step, so both kinds push at about the same rate and the coordinator is
     never saturated: comm is the client and the transport. Saturated (--pace-ms 0): native workers
     (0.8 ms of compute) push about 5x as often as PyTorch ones, the coordinator always has a queue,
     and a push finds the other workers' pushes ahead of it; a PyTorch push, arriving among three
     workers that are mostly waiting in that queue, finds more ahead of it than a native one does, so
     the ratio there also measures the queue, not only the client.
  2. free: 4 PyTorch workers push a constant gradient without computing; mean step() time.
  3. gloo: 4 processes all-reduce 235,146 floats (the mlp) in a loop; mean time per all-reduce.

    PYTHONPATH=python:build/python /usr/bin/python3 python/bench/bench_step_overhead.py \\
        --engine build/app/syncscope-engine
Prints a table and one machine-readable line (BENCH ...). Run by hand, on an otherwise idle machine."""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
from conftest import Cluster, TelemetryReader  # noqa: E402  (the tests' process helpers)
from gloo_ranks import run_ranks  # noqa: E402
from host import cpu_model, describe  # noqa: E402

import syncscope  # noqa: E402

PARAMETERS = 235146


def comm_samples(cluster, seconds):
    """Every tick's comm_ms per worker over `seconds` of ticks, keyed by worker id."""
    reader = TelemetryReader(cluster.endpoints["telemetry"], cluster.keygen("view"))
    samples = {}
    reader.wait_for(lambda t: t.version > 100, 120)  # past the start-up
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        tick = reader.wait_for(lambda t: True, 5)
        for w in tick.workers if tick else []:
            if w.comm_ms > 0:
                samples.setdefault(w.worker_id, []).append(w.comm_ms)
    reader.close()
    return samples


def mixed(engine, seconds, data_plane, pace_ms):
    """One mixed run: {"native": (median, mean), "pytorch": (median, mean)} of comm_ms."""
    pace = [arg for i in range(4) for arg in ("--slowdown", "%d:1:%g" % (i, pace_ms))] if pace_ms > 0 else []
    with tempfile.TemporaryDirectory() as folder:
        cluster = Cluster(engine, folder)
        try:
            cluster.start_coordinator("--workers", "4", "--mode", "asp", "--lr-modulation", "dynsgd",
                                      "--data-plane", data_plane, "--max-seconds", str(seconds + 60), *pace)
            extra = ["--data-plane", data_plane]
            cluster.start_native_worker("native-a", *extra)
            cluster.start_python_worker("pytorch-a", *extra)
            cluster.start_native_worker("native-b", *extra)
            cluster.start_python_worker("pytorch-b", *extra)
            comm = comm_samples(cluster, seconds)
            joined = re.findall(r"worker (\d+) \(pid \S+, (\w+)\)", cluster.output("serve"))
        finally:
            cluster.stop()
    kinds = {int(i): kind for i, kind in joined}
    if len(comm) < 4:
        raise SystemExit("the mixed run did not train with 4 workers; the logs were in the cluster's folder")
    result = {}
    for kind in ("native", "pytorch"):
        values = [v for k, series in comm.items() if (kinds.get(k) == "pytorch") == (kind == "pytorch")
                  for v in series]
        result[kind] = (statistics.median(values), statistics.mean(values))
    return result


def free_worker(endpoint, credentials, data_plane, steps, out):
    syncscope.set_num_threads(1)
    worker = syncscope.Worker(connect=endpoint, credentials=credentials, data_plane=data_plane)
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.Linear(256, 128), torch.nn.Linear(128, 10))
    opt = worker.wrap(None, model)
    opt.flat_gradients.fill_(1e-6)
    times = []
    while opt.running and len(times) < steps:
        started = time.perf_counter()
        opt.step(0.0)
        times.append(time.perf_counter() - started)
    out.put(sum(times[10:]) / max(1, len(times) - 10) * 1000)
    worker.close()


def free(engine, steps, data_plane):
    with tempfile.TemporaryDirectory() as folder:
        cluster = Cluster(engine, folder)
        try:
            cluster.start_coordinator("--workers", "4", "--mode", "asp", "--lr", "1e-6", "--data-plane", data_plane)
            credentials = cluster.keygen("worker")
            out = mp.get_context("spawn").Queue()
            procs = [mp.get_context("spawn").Process(target=free_worker, args=(
                cluster.endpoints["data"], credentials, data_plane, steps, out)) for _ in range(4)]
            for p in procs:
                p.start()
            results = [out.get(timeout=600) for _ in procs]
            for p in procs:
                p.join()
        finally:
            cluster.stop()
    return sum(results) / len(results)


def gloo_rank(rank, port, steps, out):
    syncscope.set_num_threads(1)
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=4)
    buffer = torch.ones(PARAMETERS)
    for _ in range(10):
        dist.all_reduce(buffer)
    started = time.perf_counter()
    for _ in range(steps):
        dist.all_reduce(buffer)
    elapsed = (time.perf_counter() - started) / steps * 1000
    if rank == 0:
        out.put(elapsed)
    dist.destroy_process_group()


def gloo(steps):
    return run_ranks(gloo_rank, 4, steps, timeout=600)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the syncscope-engine binary")
    parser.add_argument("--seconds", type=int, default=20, help="of mixed training measured")
    parser.add_argument("--repeats", type=int, default=3, help="mixed runs of each pacing (medians reported)")
    parser.add_argument("--pace-ms", type=float, default=20.0,
                        help="the wait injected into every worker's step (0: saturated; both are measured)")
    parser.add_argument("--steps", type=int, default=300, help="compute-free steps and all-reduces per process")
    parser.add_argument("--data-plane", default="authenticated", choices=["authenticated", "encrypted"])
    args = parser.parse_args()
    rows = []
    for pace_ms in (args.pace_ms, 0.0) if args.pace_ms > 0 else (0.0,):
        runs = [mixed(args.engine, args.seconds, args.data_plane, pace_ms) for _ in range(args.repeats)]
        ratios = [r["pytorch"][0] / r["native"][0] for r in runs]
        mean_ratios = [r["pytorch"][1] / r["native"][1] for r in runs]
        pick = runs[ratios.index(statistics.median_low(ratios))]  # the run with the median ratio
        rows.append((pace_ms, pick, statistics.median(ratios), statistics.median(mean_ratios), ratios))
    free_ms = free(args.engine, args.steps, args.data_plane)
    gloo_ms = gloo(args.steps)
    print("%s; medians of %d runs\n" % (describe(), args.repeats))
    print("| mlp, 0.94 MB, 4 processes, data plane %s | native comm ms (median / mean) | PyTorch comm ms | "
          "PyTorch / native (median; of means) | each run |" % args.data_plane)
    print("|---|---:|---:|---:|---|")
    for pace_ms, pick, ratio, mean_ratio, ratios in rows:
        label = "paced, %g ms a step injected into every worker" % pace_ms if pace_ms else "saturated, no pacing"
        print("| %s | %.2f / %.2f | %.2f / %.2f | **%.2fx**; %.2fx | %s |" % (
            label, pick["native"][0], pick["native"][1], pick["pytorch"][0], pick["pytorch"][1], ratio, mean_ratio,
            ", ".join("%.2f" % r for r in ratios)))
    print()
    print("| measure | ms per step |")
    print("|---|---:|")
    print("| PyTorch worker, whole step() without compute | %.2f (%.2fx gloo) |" % (free_ms, free_ms / gloo_ms))
    print("| torch.distributed gloo all_reduce | %.2f |" % gloo_ms)
    print("BENCH python_step_overhead cpu=%r data_plane=%s %s pytorch_free_step_ms=%.3f gloo_allreduce_ms=%.3f" % (
        cpu_model(), args.data_plane,
        " ".join("pace%g_ratio=%.3f pace%g_mean_ratio=%.3f" % (p, r, p, m) for p, _, r, m, _ in rows),
        free_ms, gloo_ms))


if __name__ == "__main__":
    main()
