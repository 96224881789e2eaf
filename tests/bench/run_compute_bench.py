#!/usr/bin/env python3
"""Compute benchmark driver: runs bench_compute (SyncScope) and torch_compute_peer.py (PyTorch)
alternately for each model/threads/backend (the same time-based protocol on both sides: a warm-up,
then timed windows, the median window per run, the median of --repeats runs), and prints a table of
training samples/s with the ratio against the targets, the peer's configuration (BLAS library, SGD
update path), then one `BENCH_SUMMARY {json}` line. A peer that would run on the reference BLAS
refuses to report, and its rows say so instead of a ratio."""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BATCH = 64


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--engine-bench", default=str(REPO / "build/tests/bench/bench_compute"))
    p.add_argument("--warmup-seconds", type=float, default=3.0)
    p.add_argument("--windows", type=int, default=3)
    p.add_argument("--window-seconds", type=float, default=5.0)
    p.add_argument("--batches", default="64", help="comma-separated batch sizes (CUDA rows: 64,256,1024)")
    p.add_argument("--threads-list", default="1,2")
    p.add_argument("--models", default="mlp,cnn")
    p.add_argument("--device", choices=["cpu", "cuda", "both"], default="cpu")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--timeout", type=float, default=600, help="seconds allowed to one run")
    p.add_argument("--python", default=default_python(),
                   help="interpreter for the torch peer (default: one that has torch)")
    p.add_argument("--json-out")
    a = p.parse_args()
    try:
        a.threads_list = [int(t) for t in a.threads_list.split(",")]
    except ValueError:
        p.error("--threads-list takes comma-separated integers")
    a.models = a.models.split(",")
    try:
        a.batches = [int(b) for b in a.batches.split(",")]
    except ValueError:
        p.error("--batches takes comma-separated integers")
    if not set(a.models) <= {"mlp", "cnn"}:
        p.error("--models takes mlp and/or cnn")
    if min(a.threads_list + a.batches + [a.windows, a.repeats]) < 1 or a.warmup_seconds < 0 or a.window_seconds <= 0:
        p.error("threads, batches, --windows and --repeats must be >= 1, --warmup-seconds >= 0, --window-seconds > 0")
    return a


def default_python():
    if importlib.util.find_spec("torch"):
        return sys.executable
    return "/usr/bin/python3"  # Debian's python3-torch


def target(model, dev, threads):
    """The minimum syncscope/pytorch ratio for a row (issue 9): mlp 2.0x on 1 CPU thread, every other
    row (cnn, 2 threads, CUDA at every batch) 1.0x."""
    return 2.0 if dev == "cpu" and model == "mlp" and threads == 1 else 1.0


def torch_has_cuda(python):
    try:
        r = subprocess.run([python, "-c", "import torch; print(torch.cuda.is_available())"],
                           capture_output=True, text=True)
    except OSError:
        return False
    return r.stdout.strip() == "True"


def run_one(cmd, threads, timeout, want):
    """Runs one benchmark process; returns (its BENCH dict, None) or (None, error text)."""
    # The torch peer lowers OpenBLAS to 1 thread itself (see its --blas-threads).
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    # Let PyTorch's OpenBLAS pick its own kernels: an inherited OPENBLAS_CORETYPE=Haswell (set on
    # these machines) would hold the peer back on AVX-512 CPUs.
    env.pop("OPENBLAS_CORETYPE", None)
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:g} s"
    except OSError as e:
        return None, str(e)
    tail = "\n".join((r.stderr or r.stdout).strip().splitlines()[-15:])
    if r.returncode != 0:
        return None, f"exit code {r.returncode}\n{tail}"
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("BENCH ")]
    try:
        res = json.loads(lines[-1][len("BENCH "):])
        sps = float(res["samples_per_s"])
    except (IndexError, ValueError, KeyError, TypeError) as e:
        return None, f"no valid BENCH line ({e!r})\n{tail}"
    wrong = {k: res.get(k) for k, v in want.items() if res.get(k) != v}
    if wrong or not sps > 0:
        return None, f"BENCH line does not match the run asked for: {wrong or res}"
    return res, None


def bench_config(a, model, dev, threads, batch, progress):
    """Runs both sides a.repeats times, alternating, and returns the table row."""
    args = ["--model", model, "--threads", str(threads), "--batch", str(batch),
            "--warmup-seconds", str(a.warmup_seconds), "--windows", str(a.windows),
            "--window-seconds", str(a.window_seconds)]
    peer = [a.python, str(HERE / "torch_compute_peer.py")]
    sides = {"syncscope": [a.engine_bench] + args + ["--backend", dev],
             "pytorch": peer + args + ["--device", dev]}
    runs, errors = {s: [] for s in sides}, []
    for rep in range(a.repeats):
        for side, cmd in sides.items():
            progress(f"{model} {dev} t={threads} {side} (repeat {rep + 1}/{a.repeats})")
            want = {"impl": f"{side}-{dev}", "model": model, "threads": threads, "batch": batch}
            res, err = run_one(cmd, threads, a.timeout, want)
            print(f" {res['samples_per_s']:.1f} samples/s" if res else " FAILED",
                  file=sys.stderr, flush=True)
            if err:
                print(f"  {' '.join(cmd)}\n  " + err.replace("\n", "\n  "), file=sys.stderr)
                errors.append(f"{side}: {err.splitlines()[0]}")
            else:
                runs[side].append(res)
    med = {s: round(statistics.median(r["samples_per_s"] for r in runs[s]), 2) if runs[s]
           else None for s in sides}
    goal = target(model, dev, threads)
    ratio = None if errors else round(med["syncscope"] / med["pytorch"], 3)
    met = "FAILED" if errors else "-" if goal is None else "yes" if ratio >= goal else "no"
    peer = runs["pytorch"][-1] if runs["pytorch"] else {}
    return {"model": model, "backend": dev, "threads": threads, "batch": batch,
            "syncscope_samples_per_s": med["syncscope"], "pytorch_samples_per_s": med["pytorch"],
            "ratio": ratio, "target": goal, "met": met,
            "torch_version": peer.get("torch_version"), "peer_update": peer.get("update"),
            "peer_update_probes": peer.get("update_probes"), "peer_blas": peer.get("blas_files"),
            "runs": {s: [r["samples_per_s"] for r in runs[s]] for s in sides}, "errors": errors}


def main():
    a = parse_args()
    if not os.access(a.engine_bench, os.X_OK):
        sys.exit(f"run_compute_bench: engine benchmark not found or not executable: "
                 f"{a.engine_bench} (build it, or pass --engine-bench)")
    devices = ["cpu", "cuda"] if a.device == "both" else [a.device]
    if a.device == "both" and not torch_has_cuda(a.python):
        print("run_compute_bench: torch sees no CUDA device; cuda rows skipped", file=sys.stderr)
        devices = ["cpu"]
    configs = [(m, d, t, b) for d in devices for m in a.models for t in a.threads_list for b in a.batches
               if d == "cuda" or b == BATCH]  # the CPU rows are at batch 64
    count = iter(range(1, len(configs) * 2 * a.repeats + 1))

    def progress(what):
        print(f"[{next(count)}/{len(configs) * 2 * a.repeats}] {what} ...",
              end="", file=sys.stderr, flush=True)

    rows = [bench_config(a, m, d, t, b, progress) for m, d, t, b in configs]
    print_table(rows)
    summary = {"warmup_seconds": a.warmup_seconds, "windows": a.windows, "window_seconds": a.window_seconds,
               "repeats": a.repeats, "rows": rows}
    print("BENCH_SUMMARY " + json.dumps(summary), flush=True)
    if a.json_out:
        try:
            Path(a.json_out).write_text(json.dumps(summary, indent=2) + "\n")
        except OSError as e:
            print(f"run_compute_bench: cannot write {a.json_out}: {e}", file=sys.stderr)
            return 1
    return 1 if any(r["errors"] for r in rows) else 0


def print_table(rows):
    head = ["model", "backend", "threads", "batch", "syncscope samples/s", "pytorch samples/s",
            "ratio", "target", "met", "peer update"]

    def fmt(v, spec):
        return "-" if v is None else format(v, spec)

    body = [[r["model"], r["backend"], str(r["threads"]), str(r["batch"]),
             fmt(r["syncscope_samples_per_s"], ".1f"), fmt(r["pytorch_samples_per_s"], ".1f"),
             fmt(r["ratio"], ".2f"), fmt(r["target"], ".1f"), r["met"], r["peer_update"] or "-"] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    for i, line in enumerate([head] + body):
        print(" | ".join(x.rjust(w) for x, w in zip(line, widths)))
        if i == 0:
            print("-+-".join("-" * w for w in widths))
    blas = sorted({f for r in rows for f in (r["peer_blas"] or [])})
    versions = sorted({r["torch_version"] for r in rows if r["torch_version"]})
    print(f"peer: PyTorch {', '.join(versions) or '?'}, BLAS {', '.join(blas) or '?'}; "
          "update probes (samples/s): " + "; ".join(
              f"{r['model']} t={r['threads']}: " + ", ".join(f"{k} {v:.0f}" for k, v in (r["peer_update_probes"] or {}).items())
              for r in rows))


if __name__ == "__main__":
    sys.exit(main())
