#!/bin/bash
# Every GPU check of the CUDA backend in one run, for a lent GPU machine (docs/performance.md, "GPU",
# names the exact device-tool call). Run from the repository root, after tests/gpu/stage_device_files.sh
# has packed CARRY_DIR on a build machine:
#
#   tests/gpu/device_check.sh [CARRY_DIR]        (default .device-carry)
#
# Checks, in order (DEVICE_CHECK_STEPS picks some, e.g. "versions bench"):
#   versions     GPU, driver, CUDA, cuDNN, PyTorch, CPU
#   consistency  tests/gpu/test_backend_consistency: every backend op, CUDA against CPU
#   verify       a recorded step (CUDA graph) trains bit for bit as the step launched call by call
#   train        train --backend cuda: mlp 20 epochs (>= 88.0%), cnn 15 epochs (>= 90.5%)
#   bench        bench_compute against PyTorch on CUDA, mlp and cnn at batch 64, 256 and 1024
#   workers      run --backend cuda: 1 and 8 worker processes on the GPU
#   stragglers   the seeds' straggler experiment on the cnn (resources/experiments/seeds-gpu-cnn.json)
#   sanitizer    compute-sanitizer memcheck and racecheck on the consistency test, memcheck on short runs
#
# Writes into $OUT (default ./device-check-out): device-check.md (every figure), device-check.log (all
# output), bench.jsonl (the BENCH/VERIFY lines) and details.tar.gz (run and experiment results).
# Exit: 0 when every check held, 1 when one failed, 2 when something it needs is missing, 77 when
# everything is present but no GPU is visible (nothing to check).
set -uo pipefail

carry=${1:-.device-carry}
out=${OUT:-$PWD/device-check-out}
steps=${DEVICE_CHECK_STEPS:-versions consistency verify train bench workers stragglers sanitizer}
data_dir=/usr/share/datasets/fashion-mnist  # the engine's default (SYNCSCOPE_FASHION_MNIST_DIR)
data_files=(train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz)
spec=resources/experiments/seeds-gpu-cnn.json
peer=tests/bench/torch_compute_peer.py

mkdir -p "$out"
report=$out/device-check.md
benchlog=$out/bench.jsonl
details=$out/details
mkdir -p "$details"

missing=()
[[ -r $carry/syncscope-device.tar.xz ]] || missing+=("$carry/syncscope-device.tar.xz")
for f in "${data_files[@]}"; do [[ -r $carry/data/$f ]] || missing+=("$carry/data/$f"); done
for f in "$spec" "$peer"; do [[ -r $f ]] || missing+=("$f"); done
if ((${#missing[@]})); then
    echo "device_check: missing ${missing[*]}: run tests/gpu/stage_device_files.sh on the build machine and carry $carry"
    exit 2
fi
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "device_check: everything needed is present, but no NVIDIA GPU is visible (nvidia-smi -L fails): nothing to check"
    exit 77
fi
exec > >(tee -a "$out/device-check.log") 2>&1  # from here on, everything into the log as well

started=$(date +%s)
failures=0
note() { echo "$*" >>"$report"; }
fail() {
    note "- **FAILED**: $*"
    echo "device_check: FAILED: $*"
    failures=$((failures + 1))
}
step_header() {
    note ""
    note "## $1 (at $(($(date +%s) - started)) s)"
    echo "=== $1 at $(($(date +%s) - started)) s"
}
wants() { [[ " $steps " == *" $1 "* ]]; }

# The engine's files, and the CUDA libraries PyTorch's image already has (cuBLAS, cuDNN).
root=$(mktemp -d /tmp/syncscope-device.XXXX)
tar -C "$root" -xJf "$carry/syncscope-device.tar.xz" || { echo "device_check: cannot unpack $carry/syncscope-device.tar.xz"; exit 2; }
bin=$root/bin
lib_path=$root/lib
# PyTorch's own copies first, so both sides of the bench run the same cuBLAS and cuDNN.
torch_nvidia=$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(os.path.dirname(torch.__file__)), "nvidia"))' 2>/dev/null)
for so in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcudnn.so.9; do
    found=$(find ${torch_nvidia:+"$torch_nvidia"} /usr/local/cuda/lib64/ /usr/local/cuda/targets/ /usr/lib/x86_64-linux-gnu/ \
        /opt/ /usr/local/lib/ -name "$so" 2>/dev/null | head -1)
    [[ -n $found ]] || { echo "device_check: $so is not on this machine"; exit 2; }
    dir=$(dirname "$found")
    [[ ":$lib_path:" == *":$dir:"* ]] || lib_path=$lib_path:$dir
done
ss() { LD_LIBRARY_PATH=$lib_path "$@"; }
mkdir -p "$data_dir" && cp "$carry"/data/*.gz "$data_dir"/

: >"$report"
note "# Device check, $(date -u '+%Y-%m-%d %H:%M UTC')"
note ""
note "Libraries: $lib_path"

if wants versions; then
    step_header versions
    note "- GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader)"
    note "- $(nvidia-smi | grep -o 'CUDA Version: [0-9.]*')"
    note "- nvcc: $(nvcc --version 2>/dev/null | tail -1)"
    note "- PyTorch: $(python3 -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda, "cuDNN", torch.backends.cudnn.version())' 2>&1 | tail -1)"
    note "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
fi

if wants consistency; then
    step_header "consistency: every op, CUDA against CPU"
    ss timeout 180 "$bin/test_backend_consistency" >"$details/consistency.txt" 2>&1
    rc=$?
    cat "$details/consistency.txt"
    note "- test_backend_consistency: exit $rc; $(grep -E '^\[ *(PASSED|FAILED|SKIPPED) *\]' "$details/consistency.txt" | tr '\n' ' ')"
    grep -E '^\[  FAILED  \]' "$details/consistency.txt" | sed 's/^/  - /' >>"$report"
    ((rc == 0)) || fail "test_backend_consistency exit $rc"
fi

if wants verify; then
    step_header "verify: recorded step against call by call"
    for case in "mlp 64" "cnn 64" "cnn 1024"; do
        set -- $case
        ss timeout 120 "$bin/bench_compute" --backend cuda --model "$1" --batch "$2" --verify-steps 300 >"$details/verify-$1-$2.txt" 2>&1
        rc=$?
        line=$(grep '^VERIFY' "$details/verify-$1-$2.txt" || tail -3 "$details/verify-$1-$2.txt")
        echo "$line" | tee -a "$benchlog"
        note "- $1 batch $2, 300 steps: exit $rc ${line#VERIFY }"
        ((rc == 0)) || fail "recorded and call-by-call steps differ ($1, batch $2; exit $rc)"
    done
fi

if wants train; then
    step_header "train --backend cuda: accuracy"
    for case in "mlp 20 0.880" "cnn 15 0.905"; do
        set -- $case
        t0=$(date +%s.%N)
        json=$(ss timeout 300 "$bin/syncscope-engine" train --backend cuda --model "$1" --epochs "$2" --json 2>"$details/train-$1.txt")
        rc=$?
        t1=$(date +%s.%N)
        echo "$json" | tee -a "$benchlog"
        accuracy=$(echo "$json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["test_accuracy"])' 2>/dev/null)
        note "- $1, $2 epochs: test accuracy ${accuracy:-none} (target $3), $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s wall, exit $rc"
        python3 -c "import sys; sys.exit(0 if float('${accuracy:-0}') >= $3 else 1)" || fail "$1 below $3 (${accuracy:-no result}, exit $rc)"
    done
fi

if wants bench; then
    step_header "bench: training samples/s, SyncScope against PyTorch on CUDA"
    ours() { ss timeout 60 "$bin/bench_compute" --backend cuda --warmup-seconds 1 --windows 3 --window-seconds 1 "$@" 2>&1 | grep '^BENCH' | sed 's/^BENCH //'; }
    theirs() { timeout 120 python3 "$peer" --device cuda --warmup-seconds 1 --windows 3 --window-seconds 1 --probe-seconds 0.5 "$@" 2>&1 | grep '^BENCH' | sed 's/^BENCH //'; }
    for model in ${DEVICE_BENCH_MODELS:-mlp cnn}; do
        for batch in ${DEVICE_BENCH_BATCHES:-64 256 1024}; do  # alternating the two sides, one process each
            ours --model $model --batch $batch | tee -a "$benchlog"
            theirs --model $model --batch $batch | tee -a "$benchlog"
            if ((batch != 256)); then ours --model $model --batch $batch --step call-by-call | tee -a "$benchlog"; fi
            if [[ $model == cnn ]]; then
                ours --model cnn --batch $batch --conv-algorithms measured | tee -a "$benchlog"
                # PyTorch's own defaults on CUDA: TF32 convolutions, cudnn.benchmark, atomics allowed.
                ours --model cnn --batch $batch --conv-math tf32 --conv-algorithms measured-any | tee -a "$benchlog"
            fi
            if [[ $model == cnn && $batch == 256 ]]; then theirs --model cnn --batch 256 --cuda-tf32 off | tee -a "$benchlog"; fi
        done
    done
    python3 - "$benchlog" >>"$report" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{") and '"samples_per_s"' in l]
def pick(model, batch, impl, pred=lambda r: True):
    return [r for r in rows if r.get("model") == model and r.get("batch") == batch and r.get("impl") == impl and pred(r)]
print("\n| model | batch | SyncScope (FP32, heuristic algorithms) | call by call | FP32, measured algorithms | TF32, measured, atomics (PyTorch's defaults) | PyTorch (its defaults) | ratio, defaults | ratio, same settings | PyTorch FP32 | peer's update |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for model in ("mlp", "cnn"):
    for batch in (64, 256, 1024):
        ss = lambda pred: pick(model, batch, "syncscope-cuda", pred)
        rec = ss(lambda r: not r["step"].startswith("call") and "measured" not in r["backend"] and "TF32" not in r["backend"])
        cbc = ss(lambda r: r["step"].startswith("call"))
        measured = ss(lambda r: "measured" in r["backend"] and "TF32" not in r["backend"])
        like = ss(lambda r: "TF32" in r["backend"] and "non-deterministic" in r["backend"])
        peer = pick(model, batch, "pytorch-cuda", lambda r: (r.get("cuda") or {}).get("cudnn_tf32", True))
        fp32 = pick(model, batch, "pytorch-cuda", lambda r: not (r.get("cuda") or {}).get("cudnn_tf32", True))
        if not (rec or peer):
            continue
        f = lambda rs: f"{rs[-1]['samples_per_s']:,.0f}" if rs else "-"
        ratio = lambda a, b: f"**{a[-1]['samples_per_s'] / b[-1]['samples_per_s']:.2f}**" if a and b else "-"
        same = like if model == "cnn" else rec  # the mlp has no convolution: the settings are the same
        print(f"| {model} | {batch} | {f(rec)} | {f(cbc)} | {f(measured)} | {f(like)} | {f(peer)} | {ratio(rec, peer)} | "
              f"{ratio(same, peer)} | {f(fp32)} | {peer[-1]['update'] if peer else '-'} |")
backend = next((r["backend"] for r in rows if r.get("impl") == "syncscope-cuda"), "?")
torch = next((r for r in rows if r.get("impl") == "pytorch-cuda"), None)
print(f"\nSyncScope: {backend}. PyTorch: {torch['torch_version'] if torch else '?'} {json.dumps(torch['cuda']) if torch else ''}")
PY
fi

if wants sanitizer; then
    step_header "compute-sanitizer"
    sanitize() {  # TOOL LIMIT NAME COMMAND...
        local tool=$1 limit=$2 name=$3
        shift 3
        ss timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 20 "$@" \
            >"$details/sanitizer-$tool-$name.txt" 2>&1
        local rc=$?
        note "- $tool, $name: exit $rc ($(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$details/sanitizer-$tool-$name.txt" || echo 'no summary'))"
        tail -5 "$details/sanitizer-$tool-$name.txt"
        ((rc == 124)) && note "  (stopped at its ${limit} s limit)"
        ((rc == 0 || rc == 124)) || fail "compute-sanitizer $tool on $name: exit $rc"
    }
    sanitize memcheck 100 consistency "$bin/test_backend_consistency"
    sanitize racecheck 100 consistency "$bin/test_backend_consistency"
    sanitize memcheck 60 train-cnn "$bin/syncscope-engine" train --backend cuda --model cnn --epochs 1 --train-limit 2048
    sanitize memcheck 60 recorded-steps "$bin/bench_compute" --backend cuda --model cnn --verify-steps 20
fi

if wants workers; then
    step_header "workers: processes sharing the GPU (cnn, bsp, 15 s)"
    for workers in 1 8; do
        json=$(ss timeout 90 "$bin/syncscope-engine" run --backend cuda --model cnn --workers $workers --max-seconds 15 --json \
            2>"$details/run-$workers.txt")
        echo "$json" >"$details/run-$workers.json"
        rate=$(echo "$json" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print("%.0f samples/s (per worker: %s), final accuracy %.2f%%" % (r["samples_per_s"],
      " ".join("%.0f" % w["samples_per_s"] for w in r["workers"]), 100 * r["final_test_accuracy"]))' 2>/dev/null)
        note "- $workers worker(s): ${rate:-no result (see details/run-$workers.txt)}"
        [[ -n $rate ]] || fail "run --workers $workers --backend cuda"
    done
fi

if wants stragglers; then
    step_header "stragglers: the seeds' experiment on the GPU (cnn, 8 workers)"
    ss timeout 300 "$bin/syncscope-engine" experiment --spec "$spec" --out "$details/experiment" --no-plots \
        >"$details/experiment.json" 2>"$details/experiment.txt"
    rc=$?
    note "- exit $rc"
    [[ -r $details/experiment/results.md ]] && cat "$details/experiment/results.md" >>"$report"
    ((rc == 0)) || fail "experiment exit $rc"
fi

note ""
note "Finished in $(($(date +%s) - started)) s, $failures failure(s)."
tar -C "$out" --exclude="*.ssrec" --exclude="*.gz" -czf "$out/details.tar.gz" details && rm -rf "$details"
cat "$report"
((failures == 0))
