#!/usr/bin/python3
"""PyTorch peer of bench_compute: trains the same mlp/cnn on Fashion-MNIST and prints one
`BENCH {json}` line with its training samples/s, for run_compute_bench.py to compare.
Run it with an interpreter that has torch and numpy (Debian's python3-torch: /usr/bin/python3)."""
import argparse
import gzip
import json
import os
import sys
import time

MEAN, STD = 0.2860, 0.3530


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--model", choices=["mlp", "cnn"], required=True)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--blas-threads", type=int, default=1,
                   help="OpenBLAS threads (default 1): Debian's pthread OpenBLAS pool fights "
                        "torch's OpenMP pool when both have >1 thread (10-50x slower measured)")
    a = p.parse_args()
    if min(a.threads, a.batch, a.steps, a.blas_threads) < 1 or a.warmup < 0:
        p.error("--threads, --batch, --steps and --blas-threads must be >= 1, --warmup >= 0")
    return a


def read_idx(path, magic):
    """Returns (dims, uint8 payload) of a gzip'd IDX file, checking its magic and size."""
    import numpy as np  # not at the top: OpenBLAS reads its thread count when first loaded
    with gzip.open(path, "rb") as f:
        raw = f.read()
    ndim = magic & 0xFF
    head = np.frombuffer(raw, dtype=">u4", count=1 + ndim)
    if int(head[0]) != magic:
        raise ValueError(f"{path}: magic {int(head[0])}, expected {magic}")
    dims = [int(d) for d in head[1:]]
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 * (1 + ndim))
    if data.size != int(np.prod(dims)):
        raise ValueError(f"{path}: {data.size} bytes of data for dims {dims}")
    return dims, data


def load_train(data_dir):
    dims, images = read_idx(os.path.join(data_dir, "train-images-idx3-ubyte.gz"), 2051)
    (count,), labels = read_idx(os.path.join(data_dir, "train-labels-idx1-ubyte.gz"), 2049)
    if count != dims[0]:
        raise ValueError(f"{count} labels for {dims[0]} images")
    import numpy as np
    x = ((images.astype(np.float32) / 255.0 - MEAN) / STD).reshape(dims[0], 1, dims[1], dims[2])
    return x, labels.astype(np.int64)


def build_model(nn, name):
    if name == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(),
                             nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    return nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(800, 128), nn.ReLU(), nn.Linear(128, 10))


def main():
    a = parse_args()
    # OpenMP and OpenBLAS read these when torch loads them.
    os.environ["OMP_NUM_THREADS"] = str(a.threads)
    os.environ["OPENBLAS_NUM_THREADS"] = str(a.blas_threads)
    try:
        import torch
    except ImportError as e:
        sys.exit(f"torch_compute_peer: {e} under {sys.executable} "
                 "(Debian's python3-torch is for /usr/bin/python3)")
    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    if a.device == "cuda" and not torch.cuda.is_available():
        sys.exit("torch_compute_peer: --device cuda but torch.cuda.is_available() is False")
    try:
        x_np, y_np = load_train(a.data)
    except (OSError, ValueError) as e:
        sys.exit(f"torch_compute_peer: cannot load Fashion-MNIST from {a.data}: {e}")

    dev = torch.device(a.device)
    torch.manual_seed(0)
    x = torch.from_numpy(x_np).to(dev)
    y = torch.from_numpy(y_np).to(dev)
    model = build_model(torch.nn, a.model).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    loss_fn = torch.nn.CrossEntropyLoss()
    nbatches = x.shape[0] // a.batch

    def step(i):
        s = (i % nbatches) * a.batch
        loss = loss_fn(model(x[s:s + a.batch]), y[s:s + a.batch])
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    def sync():
        if a.device == "cuda":
            torch.cuda.synchronize()

    for i in range(a.warmup):
        step(i)
    sync()
    t0 = time.perf_counter()
    for i in range(a.warmup, a.warmup + a.steps):
        step(i)
    sync()
    seconds = time.perf_counter() - t0

    print("BENCH " + json.dumps({
        "impl": f"pytorch-{a.device}", "torch_version": torch.__version__, "model": a.model,
        "threads": a.threads, "blas_threads": a.blas_threads, "batch": a.batch,
        "steps": a.steps, "seconds": round(seconds, 6),
        "samples_per_s": round(a.steps * a.batch / seconds, 2)}), flush=True)


if __name__ == "__main__":
    main()
