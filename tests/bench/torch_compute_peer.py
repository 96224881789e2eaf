#!/usr/bin/python3
"""PyTorch peer of bench_compute: trains the same mlp/cnn on Fashion-MNIST in PyTorch's fastest
configuration on this machine and prints one `BENCH {json}` line with its training samples/s, for
run_compute_bench.py to compare. Run it with an interpreter that has torch and numpy (Debian's
python3-torch: /usr/bin/python3).

The same protocol as bench_compute: a time-based warm-up (covers oneDNN's first-call JIT), then
--windows timed windows of --window-seconds; samples/s is the median window. The update is the
engine's (SGD, momentum 0.9, L2 weight decay 5e-4 added to the gradient before momentum), applied
the fastest way PyTorch offers, and the cnn runs in the faster of PyTorch's two memory formats
(contiguous NCHW, or channels_last, which PyTorch documents for CPU convolutions): with --update auto
and --memory-format auto every combination is timed after a warm-up and the fastest is used and
reported, with each candidate's figure.

The peer refuses to report a figure when torch's GEMMs would run in the reference BLAS (Debian's
libblas3, which python3-torch pulls in; ~6 GFLOP/s): a ratio against that is meaningless."""
import argparse
import gzip
import json
import os
import statistics
import sys
import time

MEAN, STD = 0.2860, 0.3530
LR, MOMENTUM, WEIGHT_DECAY = 0.05, 0.9, 5e-4
UPDATES = ["sgd", "sgd-foreach", "fold-foreach", "flat"]
FORMATS = ["contiguous", "channels_last"]
REFERENCE_BLAS_DIR = "/usr/lib/x86_64-linux-gnu/blas/"  # Debian's libblas3 (netlib reference)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", choices=["mlp", "cnn"], required=True)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--warmup-seconds", type=float, default=3.0)
    p.add_argument("--windows", type=int, default=3)
    p.add_argument("--window-seconds", type=float, default=5.0)
    p.add_argument("--update", choices=["auto"] + UPDATES, default="auto",
                   help="how the SGD step with weight decay runs: sgd (torch.optim.SGD, weight_decay), "
                        "sgd-foreach (the same, foreach=True), fold-foreach (_foreach_add_ of wd*p into "
                        "the gradients, then SGD foreach=True without weight_decay), flat (parameters and "
                        "gradients as views of one flat buffer, the step as three in-place ops on it); "
                        "auto times each for --probe-seconds and keeps the fastest (default)")
    p.add_argument("--memory-format", choices=["auto"] + FORMATS, default="auto",
                   help="the cnn's activation and weight layout: contiguous (NCHW) or channels_last "
                        "(NHWC: PyTorch's vectorised CPU pooling and oneDNN without reorders); auto probes "
                        "both (the mlp has no 4-D tensors and runs contiguous)")
    p.add_argument("--probe-seconds", type=float, default=2.0)
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--cuda-tf32", choices=["default", "off"], default="default",
                   help="on CUDA: PyTorch's defaults (TF32 tensor cores for cuDNN convolutions, full FP32 "
                        "matmuls), or off (FP32 everywhere, the engine's CUDA backend's precision)")
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--blas-threads", type=int, default=1,
                   help="OpenBLAS threads (default 1): Debian's pthread OpenBLAS pool fights "
                        "torch's OpenMP pool when both have >1 thread")
    a = p.parse_args()
    if min(a.threads, a.batch, a.windows, a.blas_threads) < 1:
        p.error("--threads, --batch, --windows and --blas-threads must be >= 1")
    if min(a.window_seconds, a.probe_seconds) <= 0 or a.warmup_seconds < 0:
        p.error("--window-seconds and --probe-seconds must be > 0, --warmup-seconds >= 0")
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
    """The engine's two networks (engine/model/model_zoo.cpp): change both together."""
    if name == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(),
                             nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    return nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(800, 128), nn.ReLU(), nn.Linear(128, 10))


def blas_in_use(torch):
    """(the BLAS line of torch.__config__.show(), the libblas file this process mapped)."""
    torch.mm(torch.ones(64, 64), torch.ones(64, 64))  # make sure the BLAS is loaded
    info = next((part.split(":")[-1].strip() for line in torch.__config__.show().splitlines()
                 for part in line.split(",") if "BLAS_INFO" in part), "BLAS_INFO not shown")
    mapped = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            if "blas" in os.path.basename(path).lower():
                mapped.add(os.path.realpath(path))
    return info, sorted(mapped)


def make_update(torch, model, kind):
    """Returns (zero_grad, step) running the engine's update the way `kind` names."""
    params = list(model.parameters())
    if kind == "flat":
        flat_p = torch.cat([p.detach().reshape(-1) for p in params])
        flat_g, buf = torch.zeros_like(flat_p), torch.zeros_like(flat_p)
        offset = 0
        for p in params:
            n = p.numel()  # views with p's own strides, so a channels_last weight stays one
            p.data = flat_p[offset:offset + n].as_strided(p.shape, p.stride())
            p.grad = flat_g[offset:offset + n].as_strided(p.shape, p.stride())
            offset += n

        def step():
            if params[0].grad.data_ptr() != flat_g.data_ptr():  # autograd must accumulate in place
                raise RuntimeError("flat update: autograd replaced a gradient view")
            flat_g.add_(flat_p, alpha=WEIGHT_DECAY)
            buf.mul_(MOMENTUM).add_(flat_g)
            flat_p.add_(buf, alpha=-LR)
        return (lambda: flat_g.zero_()), step
    foreach = kind != "sgd"
    wd = 0.0 if kind == "fold-foreach" else WEIGHT_DECAY
    opt = torch.optim.SGD(params, lr=LR, momentum=MOMENTUM, weight_decay=wd, foreach=foreach)
    if kind == "fold-foreach":
        def step():
            torch._foreach_add_([p.grad for p in params], params, alpha=WEIGHT_DECAY)
            opt.step()
    else:
        step = opt.step
    return (lambda: opt.zero_grad(set_to_none=True)), step


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
    blas_info, blas_files = blas_in_use(torch)
    if a.device == "cpu" and (not blas_files or any(f.startswith(REFERENCE_BLAS_DIR) for f in blas_files)):
        sys.exit(f"torch_compute_peer: torch's GEMMs would run in the reference BLAS ({blas_info}; "
                 f"mapped: {', '.join(blas_files) or 'none'}); no figure reported. Install an optimised "
                 "one (`./setup.sh bench-deps` installs libopenblas0-pthread) and run again.")
    if a.device == "cuda" and not torch.cuda.is_available():
        sys.exit("torch_compute_peer: --device cuda but torch.cuda.is_available() is False")
    if a.device == "cuda":
        # PyTorch's performance guide: let cuDNN time its algorithms for the shapes at hand.
        torch.backends.cudnn.benchmark = True
        if a.cuda_tf32 == "off":
            torch.backends.cudnn.allow_tf32 = False
            torch.backends.cuda.matmul.allow_tf32 = False
    try:
        x_np, y_np = load_train(a.data)
    except (OSError, ValueError) as e:
        sys.exit(f"torch_compute_peer: cannot load Fashion-MNIST from {a.data}: {e}")

    dev = torch.device(a.device)
    x = torch.from_numpy(x_np).to(dev)
    y = torch.from_numpy(y_np).to(dev)
    loss_fn = torch.nn.CrossEntropyLoss()
    nbatches = x.shape[0] // a.batch

    def sync():
        if a.device == "cuda":
            torch.cuda.synchronize()

    def trainer(kind, fmt):
        torch.manual_seed(0)
        memory_format = torch.channels_last if fmt == "channels_last" else torch.contiguous_format
        model = build_model(torch.nn, a.model).to(dev).to(memory_format=memory_format)
        data = x.contiguous(memory_format=memory_format)
        zero_grad, update = make_update(torch, model, kind)
        state = {"i": 0}

        def run_for(seconds):
            """Trains for about `seconds`; returns samples/s over whole steps."""
            steps, t0 = 0, time.perf_counter()
            while True:
                s = (state["i"] % nbatches) * a.batch
                state["i"] += 1
                zero_grad()
                loss_fn(model(data[s:s + a.batch]), y[s:s + a.batch]).backward()
                update()
                steps += 1
                if steps % 8 == 0:
                    sync()
                    elapsed = time.perf_counter() - t0
                    if elapsed >= seconds:
                        return steps * a.batch / elapsed
        return run_for

    updates = UPDATES if a.update == "auto" else [a.update]
    formats = ["contiguous"] if a.model == "mlp" else FORMATS if a.memory_format == "auto" else [a.memory_format]
    candidates = [(u, f) for f in formats for u in updates]
    probes = {}
    if len(candidates) > 1:
        for kind, fmt in candidates:
            run_for = trainer(kind, fmt)
            run_for(min(a.warmup_seconds, 1.0))
            probes[f"{kind}/{fmt}"] = round(run_for(a.probe_seconds), 1)
        chosen, chosen_format = max(candidates, key=lambda c: probes[f"{c[0]}/{c[1]}"])
    else:
        chosen, chosen_format = candidates[0]
    run_for = trainer(chosen, chosen_format)
    run_for(a.warmup_seconds)
    windows = [run_for(a.window_seconds) for _ in range(a.windows)]

    print("BENCH " + json.dumps({
        "impl": f"pytorch-{a.device}", "torch_version": torch.__version__, "model": a.model,
        "threads": a.threads, "blas_threads": a.blas_threads, "batch": a.batch,
        "blas_info": blas_info, "blas_files": blas_files,
        "cuda": ({"device": torch.cuda.get_device_name(), "cuda": torch.version.cuda,
                  "cudnn": torch.backends.cudnn.version(), "cudnn_benchmark": torch.backends.cudnn.benchmark,
                  "cudnn_tf32": torch.backends.cudnn.allow_tf32,
                  "matmul_tf32": torch.backends.cuda.matmul.allow_tf32} if a.device == "cuda" else None), "update": f"{chosen}/{chosen_format}", "update_probes": probes,
        "warmup_seconds": a.warmup_seconds, "windows": [round(w, 1) for w in windows],
        "samples_per_s": round(statistics.median(windows), 1)}), flush=True)


if __name__ == "__main__":
    main()
