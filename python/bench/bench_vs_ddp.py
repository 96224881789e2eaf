#!/usr/bin/python3
"""SyncScope bsp against PyTorch DistributedDataParallel (gloo), side by side on one machine: the residual
CNN of python/examples/custom_model.py trained by 4 processes with the same global batch, learning-rate
schedule and SGD, to compare training samples/s and time to a test accuracy (issue 28, point 6).

  SyncScope: `serve --model external` (bsp, the engine's cosine schedule) and 4 PyTorch workers
             (syncscope.Worker, ShardBatchSampler), each 64 a step.
  DDP:       4 processes of torch.distributed (gloo, its CPU backend, as PyTorch's docs advise for CPU
             training), DistributedSampler, DistributedDataParallel(gradient_as_bucket_view=True),
             torch.optim.SGD with the same momentum, weight decay and cosine by epochs done.

Both sides use one PyTorch thread per process and snapshot the model every --snapshot-seconds (wall
clock from the start of the 4 processes): SyncScope through its evaluator, DDP on rank 0 after a step.
The snapshots are tested on the whole test set after the runs (untimed); time to target is placed
between the first snapshot at or above --target and the one before it, linearly (not quantised by the
snapshot interval). Samples/s is measured between the first and the last snapshot.

    PYTHONPATH=python:build/python /usr/bin/python3 python/bench/bench_vs_ddp.py --engine build/app/syncscope-engine

Prints a table and one machine-readable line (BENCH ...). Run by hand, on an otherwise idle machine:
the two sides take turns, --repeats times each, and medians are reported."""

import argparse
import math
import os
import statistics
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
from conftest import Cluster  # noqa: E402  (the tests' process helpers)
from custom_model import ResidualCnn  # noqa: E402
from gloo_ranks import run_ranks  # noqa: E402
from host import cpu_model  # noqa: E402

import syncscope  # noqa: E402
from syncscope.fashion_mnist import load_split  # noqa: E402

WORKERS, BATCH, MOMENTUM, WEIGHT_DECAY = 4, 64, 0.9, 0.0005
QUICK_TEST = 200  # test images each snapshot is also scored on at once (the evaluator must answer something)


def quick_score(model, images, labels):
    model.eval()
    with torch.no_grad():
        out = model(images[:QUICK_TEST])
        accuracy = (out.argmax(1) == labels[:QUICK_TEST]).float().mean().item()
        loss = F.cross_entropy(out, labels[:QUICK_TEST]).item()
    model.train()
    return accuracy, loss if math.isfinite(loss) else 1e30  # a diverged run still answers the coordinator


def flat_copy(model):
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()]).clone()


# ---- SyncScope: a coordinator, 4 PyTorch workers, this process as the evaluator taking snapshots

def syncscope_worker(args):
    syncscope.set_num_threads(1)
    torch.manual_seed(args.seed)
    model = ResidualCnn()
    images, labels = load_split("train")
    train_set = torch.utils.data.TensorDataset(torch.from_numpy(images), torch.from_numpy(labels))
    worker = syncscope.Worker(connect=args.connect, credentials=args.credentials, model=model,
                              data_plane=args.data_plane, train_examples=len(train_set))
    opt = worker.wrap(None, model)
    loader = torch.utils.data.DataLoader(train_set, batch_sampler=syncscope.ShardBatchSampler(opt, len(train_set),
                                                                                             args.seed))
    for x, y in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step(loss, batch_size=len(y))
    worker.close()


def run_syncscope(args):
    syncscope.set_num_threads(1)
    test_images, test_labels = map(torch.from_numpy, load_split("t10k"))
    with tempfile.TemporaryDirectory() as folder:
        cluster = Cluster(args.engine, folder)
        try:
            count = syncscope.parameter_count(ResidualCnn())
            cluster.start_coordinator(
                "--workers", str(WORKERS), "--model", "external", "--parameters", str(count), "--mode", "bsp",
                "--batch", str(BATCH), "--lr", str(args.lr), "--momentum", str(MOMENTUM), "--weight-decay",
                str(WEIGHT_DECAY), "--schedule", "cosine", "--epochs", str(args.epochs), "--eval-interval",
                str(args.snapshot_seconds), "--data-plane", args.data_plane)
            credentials = cluster.keygen("worker")
            started = time.time()
            for i in range(WORKERS):
                cluster.start_script("worker-%d" % i, os.path.abspath(__file__), "--role", "syncscope-worker",
                                     "--connect", cluster.endpoints["data"], "--credentials", credentials,
                                     "--data-plane", args.data_plane, "--seed", str(args.seed))
            snapshots = []
            model = ResidualCnn()

            def snapshot(m):
                snapshots.append((time.time() - started, None, flat_copy(m)))
                return quick_score(m, test_images, test_labels)
            evaluator = syncscope.Evaluator(cluster.endpoints["data"], model, snapshot, credentials=credentials,
                                           data_plane=args.data_plane)
            evaluator.run()
            if cluster.serve.wait(timeout=120) != 0:
                raise SystemExit("the SyncScope run failed:\n" + cluster.logs())
            # the evaluations' model versions: a bsp version is one step of the global batch
            versions = [r[0] for r in evaluator.results]  # the final model's is the last of them
            snapshots = [(t, v * WORKERS * BATCH, flat) for (t, _, flat), v in zip(snapshots, versions)]
        finally:
            cluster.stop()
    return snapshots


# ---- DDP: 4 processes of torch.distributed (gloo)

def ddp_rank(rank, port, args, out):
    syncscope.set_num_threads(1)
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=WORKERS)
    torch.manual_seed(args.seed)
    model = ResidualCnn()
    ddp = torch.nn.parallel.DistributedDataParallel(model, gradient_as_bucket_view=True)
    images, labels = load_split("train")
    train_set = torch.utils.data.TensorDataset(torch.from_numpy(images), torch.from_numpy(labels))
    sampler = torch.utils.data.distributed.DistributedSampler(train_set, num_replicas=WORKERS, rank=rank,
                                                              shuffle=True, seed=args.seed, drop_last=True)
    loader = torch.utils.data.DataLoader(train_set, batch_size=BATCH, sampler=sampler, drop_last=True)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=args.lr, momentum=MOMENTUM, weight_decay=WEIGHT_DECAY)
    test_images, test_labels = map(torch.from_numpy, load_split("t10k")) if rank == 0 else (None, None)
    snapshots, samples, last = [], 0, -math.inf
    started = args.started
    for epoch in range(int(math.ceil(args.epochs))):
        sampler.set_epoch(epoch)
        for x, y in loader:
            done = samples / len(train_set) / args.epochs
            if done >= 1.0:
                break
            for group in optimizer.param_groups:  # the engine's cosine, by epochs done
                group["lr"] = 0.5 * args.lr * (1.0 + math.cos(math.pi * done))
            optimizer.zero_grad()
            F.cross_entropy(ddp(x), y).backward()
            optimizer.step()
            samples += WORKERS * BATCH
            if rank == 0 and time.time() - last >= args.snapshot_seconds:
                last = time.time()
                snapshots.append((last - started, samples, flat_copy(model).numpy()))
                quick_score(model, test_images, test_labels)
    if rank == 0:
        snapshots.append((time.time() - started, samples, flat_copy(model).numpy()))
        out.put(snapshots)
    dist.destroy_process_group()


def run_ddp(args):
    args.started = time.time()
    snapshots = run_ranks(ddp_rank, WORKERS, args)
    return [(t, n, torch.from_numpy(flat)) for t, n, flat in snapshots]


# ---- scoring the snapshots (untimed)

def accuracy_of(flat, images, labels):
    model = ResidualCnn()
    offset = 0
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(flat[offset:offset + p.numel()].view_as(p))
            offset += p.numel()
    model.eval()
    correct = 0
    with torch.no_grad():
        for start in range(0, len(labels), 2000):
            correct += (model(images[start:start + 2000]).argmax(1) == labels[start:start + 2000]).sum().item()
    return correct / len(labels)


def crossing(t_below, a_below, t_at, a_at, target):
    """The time the test accuracy reached `target` between a snapshot below it and the next one at or
    above it, linearly (as the engine places a run's time to target between two evaluations)."""
    if a_at <= a_below:
        return t_at
    return t_below + (target - a_below) / (a_at - a_below) * (t_at - t_below)


def score(snapshots, target, images, labels):
    """(seconds to target or None, final accuracy, samples/s): the snapshots scanned every 4th until one
    reaches the target, then the 3 before it; the time to target is placed between the first snapshot
    at or above it and the one before (crossing())."""
    scores = {}

    def acc(i):
        if i not in scores:
            scores[i] = accuracy_of(snapshots[i][2], images, labels)
        return scores[i]
    reached = None
    for i in list(range(0, len(snapshots), 4)) + [len(snapshots) - 1]:
        if acc(i) >= target:
            reached = next(j for j in range(max(0, i - 3), i + 1) if acc(j) >= target)
            break
    tta = None
    if reached is not None:
        tta = snapshots[reached][0] if reached == 0 else crossing(
            snapshots[reached - 1][0], acc(reached - 1), snapshots[reached][0], acc(reached), target)
    (t0, n0, _), (t1, n1, _) = snapshots[0], snapshots[-1]
    return tta, acc(len(snapshots) - 1), (n1 - n0) / (t1 - t0) if t1 > t0 else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", help="the syncscope-engine binary")
    parser.add_argument("--epochs", type=float, default=4)
    parser.add_argument("--lr", type=float, default=0.05,
                        help="the engine's default: at custom_model.py's 0.1 one of 2 SyncScope runs and 2 of 3 DDP runs "
                             "blew up here")
    parser.add_argument("--target", type=float, default=0.90, help="test accuracy for the time to target")
    parser.add_argument("--snapshot-seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each side, taking turns")
    parser.add_argument("--data-plane", default="authenticated", choices=["authenticated", "encrypted"])
    parser.add_argument("--seed", type=int, default=1, help="of the first repeat; each next one adds 1")
    parser.add_argument("--role", default="bench", choices=["bench", "syncscope-worker"], help=argparse.SUPPRESS)
    parser.add_argument("--connect", help=argparse.SUPPRESS)
    parser.add_argument("--credentials", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "syncscope-worker":
        return syncscope_worker(args)
    if not args.engine:
        parser.error("--engine is required")
    images, labels = map(torch.from_numpy, load_split("t10k"))
    results = {"syncscope": [], "ddp": []}
    first_seed = args.seed
    for repeat in range(args.repeats):
        args.seed = first_seed + repeat  # the same seed for both sides: initial model and data orders
        order = ("syncscope", "ddp") if repeat % 2 == 0 else ("ddp", "syncscope")
        for side in order:
            started = time.time()
            snapshots = run_syncscope(args) if side == "syncscope" else run_ddp(args)
            wall = time.time() - started
            tta, final, rate = score(snapshots, args.target, images, labels)
            results[side].append((tta, final, rate, wall))
            print("%s run %d (seed %d): %.0f samples/s, time to %.0f%% %s, final %.2f%%, %.0f s" % (
                side, repeat + 1, args.seed, rate, 100 * args.target, "%.1f s" % tta if tta is not None else "not reached",
                100 * final, wall), flush=True)

    def median(side, k):
        # A run that never reached the target counts as the slowest (its time is infinite): the median
        # is a time while more than half the runs reached it.
        value = statistics.median([math.inf if r[k] is None else r[k] for r in results[side]])
        return None if math.isinf(value) else value
    fmt = lambda v, f: f % v if v is not None else "not reached"  # noqa: E731
    print("\nresidual CNN (%d parameters), %d processes x batch %d, %g epochs, cosine lr %g, momentum %g, "
          "1 thread each; %s, %d cores; medians of %d" % (syncscope.parameter_count(ResidualCnn()), WORKERS, BATCH,
                                                          args.epochs, args.lr, MOMENTUM, cpu_model(), os.cpu_count(),
                                                          args.repeats))
    print("| side | samples/s | time to %.0f%% (s) | final test accuracy |" % (100 * args.target))
    print("|---|---:|---:|---:|")
    print("| SyncScope bsp, data plane %s | %.0f | %s | %.2f%% |" % (args.data_plane, median("syncscope", 2),
                                                                    fmt(median("syncscope", 0), "%.1f"),
                                                                    100 * median("syncscope", 1)))
    print("| PyTorch DDP, gloo | %.0f | %s | %.2f%% |" % (median("ddp", 2), fmt(median("ddp", 0), "%.1f"),
                                                        100 * median("ddp", 1)))
    s_tta, d_tta = median("syncscope", 0), median("ddp", 0)
    print("| ratio SyncScope / DDP | %.2fx | %s | |" % (median("syncscope", 2) / median("ddp", 2),
                                                       "%.2fx" % (s_tta / d_tta) if s_tta and d_tta else "-"))
    print("BENCH vs_ddp cpu=%r data_plane=%s epochs=%g syncscope_samples_per_s=%.1f ddp_samples_per_s=%.1f "
          "syncscope_tta_s=%s ddp_tta_s=%s syncscope_final=%.4f ddp_final=%.4f" % (
              cpu_model(), args.data_plane, args.epochs, median("syncscope", 2), median("ddp", 2), s_tta, d_tta,
              median("syncscope", 1), median("ddp", 1)))


if __name__ == "__main__":
    main()
