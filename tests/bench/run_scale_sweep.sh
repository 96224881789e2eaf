#!/bin/sh
# The scale model of one coordinator (docs/scale.md): bench_coordinator at 32/64/128/256 compute-free
# workers for bsp and asp, bench_stream's loopback ceiling, optionally one long snapshot run, then the
# fit of each figure against N (fit_scale_model.py). Run it on a quiet machine: it is all CPU-bound.
#
#   tests/bench/run_scale_sweep.sh [BUILD_DIR] [OUT_DIR]       # about 10 minutes on 2 cores
#   LONG_SECONDS=600 tests/bench/run_scale_sweep.sh ...         # + a 10-minute snapshot run at 256
# Insecure endpoints (as the issue's figures) at every N; CURVE on every endpoint at CURVE_WORKERS.
set -eu
BUILD=${1:-build}
OUT=${2:-scale-sweep}
WORKERS=${WORKERS:-"32 64 128 256"}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
WARMUP=${WARMUP:-3}
REPEATS=${REPEATS:-3}
LONG_SECONDS=${LONG_SECONDS:-0}
CURVE_WORKERS=${CURVE_WORKERS:-"32 256"}
HERE=$(dirname "$0")
mkdir -p "$OUT"

quiet_check() {
    # A busy machine measures its other work: say so in the output rather than refuse.
    echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
}

for n in $WORKERS; do
    quiet_check
    # Modes take turns inside one invocation (bsp, asp, bsp, asp, ...); each figure is a median.
    "$BUILD/tests/bench/bench_coordinator" --workers "$n" --modes bsp,asp --repeats "$REPEATS" \
        --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" 2>"$OUT/coordinator-$n.log" | tee "$OUT/coordinator-$n.txt"
done
for n in $CURVE_WORKERS; do
    quiet_check
    "$BUILD/tests/bench/bench_coordinator" --workers "$n" --modes bsp,asp --repeats "$REPEATS" --curve \
        --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" 2>"$OUT/curve-$n.log" | tee "$OUT/curve-$n.txt"
done
quiet_check
"$BUILD/tests/bench/bench_stream" --repeats "$REPEATS" --streams 1,4 2>"$OUT/stream.log" | tee "$OUT/stream.txt"
if [ "$LONG_SECONDS" != 0 ]; then
    quiet_check
    "$BUILD/tests/bench/bench_coordinator" --workers 256 --modes asp --repeats 1 --seconds "$LONG_SECONDS" \
        --warmup "$WARMUP" --snapshot-every 30 2>"$OUT/long-256.log" | tee "$OUT/long-256.txt"
fi
# The long run's line stays out: the fit takes one row per mode and N.
cat "$OUT"/coordinator-*.txt "$OUT"/stream.txt $(ls "$OUT"/curve-*.txt 2>/dev/null) | grep '^BENCH_SUMMARY' \
    > "$OUT/summary.jsonl"
python3 "$HERE/fit_scale_model.py" "$OUT/summary.jsonl" | tee "$OUT/model.txt"
