#!/usr/bin/env python3
"""Distributed training benchmark: a 4-worker SyncScope bsp run (`syncscope-engine run`, figures read
from its recording) against PyTorch DDP (ddp_peer.py, gloo) on the same mlp, batch and data, alternating
over --repeats; prints a table of samples/s and time to the target accuracy, then `BENCH_SUMMARY {json}`."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from run_compute_bench import default_python

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--engine", default=str(REPO / "build/app/syncscope-engine"))
    p.add_argument("--python", default=default_python(), help="interpreter with torch for the DDP peer")
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--target", type=float, default=85.0, help="test accuracy, percent")
    p.add_argument("--max-seconds", type=float, default=120.0)
    p.add_argument("--eval-interval", type=float, default=0.5, help="seconds between evaluations, both sides")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json-out")
    a = p.parse_args()
    if min(a.workers, a.repeats) < 1 or not 0 < a.target <= 100 or min(a.max_seconds, a.eval_interval) <= 0:
        p.error("--workers and --repeats must be >= 1, --target in (0, 100], times > 0")
    return a


def bench_env():
    """One thread per process on both sides; OpenBLAS picks its own kernels."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env.pop("OPENBLAS_CORETYPE", None)
    return env


def run(cmd, timeout):
    """Returns (stdout, None) or (None, error text with the output's tail)."""
    try:
        r = subprocess.run(cmd, env=bench_env(), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:g} s"
    except OSError as e:
        return None, str(e)
    if r.returncode != 0:
        return None, f"exit code {r.returncode}\n" + "\n".join((r.stderr or r.stdout).strip().splitlines()[-10:])
    return r.stdout, None


def summarize_recording(lines, workers, target):
    """SyncScope's figures from a recording's JSON Lines. Training begins when the last worker is first
    handed parameters (workers load their data after the start event); times are seconds since then."""
    start, ticks, update_time, first_release = None, [], {}, {}
    for line in lines:
        rec = json.loads(line)
        if "event" in rec and rec["event"].get("kind") == "start" and start is None:
            start = rec["event"]["time_s"]
        elif "tick" in rec:
            ticks.append(rec["tick"])
        elif "update" in rec:
            update_time[int(rec["update"].get("version", 0))] = rec["update"]["time_s"]
        elif "release" in rec:
            first_release.setdefault(rec["release"].get("worker_id", 0), rec["release"]["time_s"])
    if start is None or len(first_release) < workers or not ticks:
        raise ValueError(f"recording has no start event, {len(first_release)} of {workers} workers released, "
                         f"{len(ticks)} ticks")
    ready = max(first_release.values())
    hit = next((t for t in ticks if t.get("test_accuracy", -1) >= target / 100), None)
    end = hit or [t for t in ticks if t.get("state") == "RUN_RUNNING"][-1]
    samples = int(end.get("samples_total", 0))
    model_time = update_time.get(int(hit.get("test_version", 0))) if hit else None
    return {"impl": "syncscope-bsp", "samples": samples, "samples_per_s": round(samples / (end["time_s"] - ready), 2),
            "setup_seconds": round(ready - start, 4),
            # when the model that first measured >= target was made; comparable with DDP's training clock
            "time_to_target_s": round(model_time - ready, 4) if model_time is not None else None,
            # the first tick reporting it, since the start event (the run's own view, evaluation lag included)
            "wall_to_target_s": round(hit["time_s"] - start, 4) if hit else None,
            "final_accuracy": ticks[-1].get("test_accuracy")}


def run_syncscope(a, folder, rep):
    record = os.path.join(folder, f"bsp-{rep}.ssrec")
    _, err = run([a.engine, "run", "--workers", str(a.workers), "--model", "mlp", "--mode", "bsp", "--backend", "cpu",
                  "--target-accuracy", str(a.target), "--max-seconds", str(a.max_seconds),
                  "--threads-per-worker", "1", "--eval-interval", str(a.eval_interval), "--record", record],
                 a.max_seconds + 120)
    if err:
        return None, err
    out, err = run([a.engine, "export", record, "--format", "jsonl"], 120)
    if err:
        return None, "export: " + err
    try:
        return summarize_recording(out.splitlines(), a.workers, a.target), None
    except (ValueError, KeyError, IndexError, ZeroDivisionError) as e:
        return None, f"unreadable recording {record}: {e!r}"


def run_ddp(a):
    out, err = run([a.python, str(HERE / "ddp_peer.py"), "--world", str(a.workers), "--target", str(a.target),
                    "--max-seconds", str(a.max_seconds), "--eval-interval", str(a.eval_interval)],
                   a.max_seconds * 3 + 240)
    if err:
        return None, err
    lines = [ln for ln in out.splitlines() if ln.startswith("BENCH ")]
    try:
        return json.loads(lines[-1][len("BENCH "):]), None
    except (IndexError, ValueError) as e:
        return None, f"no valid BENCH line ({e!r})"


def median(runs, key):
    values = [r[key] for r in runs if r.get(key) is not None]
    return round(statistics.median(values), 4) if values else None


def main():
    a = parse_args()
    if not os.access(a.engine, os.X_OK):
        sys.exit(f"run_distributed_bench: engine not found or not executable: {a.engine} (build it, or pass --engine)")
    sides = {"syncscope": lambda folder, rep: run_syncscope(a, folder, rep), "pytorch": lambda folder, rep: run_ddp(a)}
    runs, errors = {s: [] for s in sides}, []
    with tempfile.TemporaryDirectory(prefix="syncscope-distbench-") as folder:
        for rep in range(a.repeats):
            for side in (list(sides) if rep % 2 == 0 else list(sides)[::-1]):  # alternate who goes first
                print(f"[{rep + 1}/{a.repeats}] {side} ...", end="", file=sys.stderr, flush=True)
                res, err = sides[side](folder, rep)
                if err:
                    print(" FAILED\n  " + err.replace("\n", "\n  "), file=sys.stderr)
                    errors.append(f"{side}: {err.splitlines()[0]}")
                    continue
                runs[side].append(res)
                print(f" {res['samples_per_s']:.0f} samples/s, to {a.target:g}%: {res['time_to_target_s']} s",
                      file=sys.stderr)
    rows = [{"impl": runs[s][0]["impl"] if runs[s] else s, "samples_per_s": median(runs[s], "samples_per_s"),
             "time_to_target_s": median(runs[s], "time_to_target_s"),
             "wall_to_target_s": median(runs[s], "wall_to_target_s"),
             "setup_seconds": median(runs[s], "setup_seconds"), "final_accuracy": median(runs[s], "final_accuracy"),
             "reached": sum(r["time_to_target_s"] is not None for r in runs[s]), "runs": runs[s]} for s in sides]
    print_table(rows, a)
    summary = {"benchmark": "distributed", "model": "mlp", "mode": "bsp", "workers": a.workers, "batch": 64,
               "target": a.target, "eval_interval": a.eval_interval, "repeats": a.repeats, "rows": rows,
               "errors": errors}
    print("BENCH_SUMMARY " + json.dumps(summary), flush=True)
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(summary, indent=2) + "\n")
    return 1 if errors else 0


def print_table(rows, a):
    t = f"{a.target:g}%"
    head = ["impl", "workers", "samples/s", f"to {t} (train s)", f"to {t} (wall s)", "setup s", "final acc %",
            "reached"]

    def fmt(v, spec):
        return "-" if v is None else format(v, spec)

    body = [[r["impl"], str(a.workers), fmt(r["samples_per_s"], ".0f"), fmt(r["time_to_target_s"], ".2f"),
             fmt(r["wall_to_target_s"], ".2f"), fmt(r["setup_seconds"], ".2f"),
             fmt(r["final_accuracy"] and 100 * r["final_accuracy"], ".2f"),
             f"{r['reached']}/{len(r['runs'])}"] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    for i, line in enumerate([head] + body):
        print(" | ".join(x.rjust(w) for x, w in zip(line, widths)))
        if i == 0:
            print("-+-".join("-" * w for w in widths))
    print(f"train s: training time until the model that first measured >= {t} was made (DDP: evaluation "
          "excluded); wall s: until it was reported (SyncScope: since its start event, so its workers' data "
          "loading, setup s, is included; DDP: since all ranks loaded their data)")
    s, p = rows
    if s["samples_per_s"] and p["samples_per_s"]:
        print(f"syncscope / pytorch samples/s: {s['samples_per_s'] / p['samples_per_s']:.2f}", end="")
        if s["time_to_target_s"] and p["time_to_target_s"]:
            print(f"; pytorch / syncscope time to {t} (train s): {p['time_to_target_s'] / s['time_to_target_s']:.2f}",
                  end="")
        print()


if __name__ == "__main__":
    sys.exit(main())
