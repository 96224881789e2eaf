#!/usr/bin/python3
"""PyTorch DistributedDataParallel peer of a SyncScope bsp run: --world processes (gloo on 127.0.0.1,
one thread each) train the mlp on disjoint Fashion-MNIST shards until rank 0 measures the target test
accuracy or the time limit; prints one `BENCH {json}` line. Needs torch: Debian's /usr/bin/python3."""
import argparse
import json
import os
import socket
import subprocess
import sys
import time
from datetime import timedelta

from torch_compute_peer import build_model, read_idx, MEAN, STD


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--world", type=int, default=4, help="processes (one shard each)")
    p.add_argument("--batch", type=int, default=64, help="per process")
    p.add_argument("--target", type=float, default=85.0, help="test accuracy to reach, percent")
    p.add_argument("--max-seconds", type=float, default=120.0, help="limit on the training clock")
    p.add_argument("--eval-interval", type=float, default=0.5, help="training seconds between evaluations")
    p.add_argument("--check-every", type=int, default=10,
                   help="steps between rank 0's eval/stop decisions (one tiny broadcast each)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--rank", type=int, help=argparse.SUPPRESS)  # set by the launcher for its children
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    a = p.parse_args()
    if min(a.world, a.batch, a.check_every) < 1 or not 0 < a.target <= 100 or min(a.max_seconds, a.eval_interval) <= 0:
        p.error("--world, --batch, --check-every must be >= 1; --target in (0, 100]; times > 0")
    return a


def load_split(data_dir, prefix):
    """Normalised images (N, 784) and labels of one Fashion-MNIST split, as torch tensors."""
    import torch
    dims, images = read_idx(os.path.join(data_dir, f"{prefix}-images-idx3-ubyte.gz"), 2051)
    (count,), labels = read_idx(os.path.join(data_dir, f"{prefix}-labels-idx1-ubyte.gz"), 2049)
    if count != dims[0]:
        raise ValueError(f"{prefix}: {count} labels for {dims[0]} images")
    x = (torch.from_numpy(images.reshape(dims[0], -1).astype("float32")) / 255.0 - MEAN) / STD
    return x, torch.from_numpy(labels.astype("int64"))


def accuracy(model, x, y):
    import torch
    model.eval()
    with torch.no_grad():
        correct = sum(int((model(x[i:i + 2000]).argmax(1) == y[i:i + 2000]).sum()) for i in range(0, len(y), 2000))
    model.train()
    return correct / len(y)


def train(a):
    """One rank. The training clock stops while rank 0 evaluates (the other ranks wait for its verdict)."""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{a.port}", rank=a.rank,
                            world_size=a.world, timeout=timedelta(seconds=60))
    x, y = load_split(a.data, "train")
    test = load_split(a.data, "t10k") if a.rank == 0 else None
    shard = torch.arange(a.rank, len(y), a.world)  # sample i goes to rank i % world, as SyncScope shards
    torch.manual_seed(a.seed)
    model = DistributedDataParallel(build_model(torch.nn, "mlp"))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    loss_fn = torch.nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(a.seed * 7919 + a.rank)
    order, pos = shard[torch.randperm(len(shard), generator=gen)], 0
    steps, train_s, last_eval, evals, hit = 0, 0.0, 0.0, [], None
    dist.barrier()
    wall0 = mark = time.perf_counter()
    while True:
        if pos + a.batch > len(order):
            order, pos = shard[torch.randperm(len(shard), generator=gen)], 0
        idx = order[pos:pos + a.batch]
        pos += a.batch
        opt.zero_grad(set_to_none=True)
        loss_fn(model(x[idx]), y[idx]).backward()
        opt.step()
        steps += 1
        if steps % a.check_every:
            continue
        now = time.perf_counter()
        train_s, mark = train_s + now - mark, now
        flags = torch.tensor([train_s - last_eval >= a.eval_interval, train_s >= a.max_seconds], dtype=torch.int32)
        dist.broadcast(flags, 0)  # rank 0's clock decides for everyone
        stop = bool(flags[1])
        if flags[0]:
            last_eval = train_s
            verdict = torch.zeros(1, dtype=torch.int32)
            if a.rank == 0:
                acc = accuracy(model.module, *test)
                evals.append([round(train_s, 3), acc])
                if acc >= a.target / 100 and hit is None:
                    hit = (train_s, time.perf_counter() - wall0)
                    verdict[0] = 1
            dist.broadcast(verdict, 0)
            stop = stop or bool(verdict[0])
            mark = time.perf_counter()
        if stop:
            break
    if a.rank == 0:
        samples = steps * a.batch * a.world
        print("BENCH " + json.dumps({
            "impl": "pytorch-ddp-gloo", "torch_version": torch.__version__, "world": a.world, "batch": a.batch,
            "steps": steps, "samples": samples, "train_seconds": round(train_s, 4),
            "wall_seconds": round(time.perf_counter() - wall0, 4), "samples_per_s": round(samples / train_s, 2),
            "target": a.target, "time_to_target_s": round(hit[0], 4) if hit else None,
            "wall_to_target_s": round(hit[1], 4) if hit else None,
            "final_accuracy": evals[-1][1] if evals else None, "evals": evals}), flush=True)
    dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(a):
    """Starts the ranks as children with one thread each; passes on rank 0's BENCH line."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               GLOO_SOCKET_IFNAME="lo")
    env.pop("OPENBLAS_CORETYPE", None)  # let OpenBLAS pick its own kernels, as run_compute_bench does
    port = free_port()
    cmd = [sys.executable, os.path.abspath(__file__), *sys.argv[1:], "--port", str(port), "--rank"]
    procs = [subprocess.Popen(cmd + [str(r)], env=env, stdout=subprocess.PIPE if r == 0 else subprocess.DEVNULL,
                              text=True) for r in range(a.world)]
    deadline = time.monotonic() + a.max_seconds * 3 + 120  # evaluations and start-up on top
    while any(p.poll() is None for p in procs):
        failed = [p for p in procs if p.poll() not in (None, 0)]
        if failed or time.monotonic() > deadline:
            for p in procs:
                if p.poll() is None:
                    p.kill()
            for p in procs:
                p.wait()
            sys.exit(f"ddp_peer: rank {procs.index(failed[0]) if failed else '?'} "
                     f"{'failed' if failed else 'timed out'}; the other ranks were stopped")
        time.sleep(0.1)
    codes = [p.returncode for p in procs]
    if any(codes):
        sys.exit(f"ddp_peer: ranks exited with codes {codes}")
    sys.stdout.write(procs[0].stdout.read())
    return 0


def main():
    a = parse_args()
    if a.rank is None:
        return launch(a)
    try:
        train(a)
    except ImportError as e:
        sys.exit(f"ddp_peer: {e} under {sys.executable} (Debian's python3-torch is for /usr/bin/python3)")
    except (OSError, ValueError) as e:
        sys.exit(f"ddp_peer rank {a.rank}: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
