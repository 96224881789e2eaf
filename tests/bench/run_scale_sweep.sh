#!/bin/sh
# The scale model (docs/scale.md): bench_coordinator at 32/64/128/256 compute-free workers for bsp
# and asp, bench_stream's loopback ceiling, bsp through A = round(sqrt(N)) group aggregators beside
# bsp without (and grouped G = A at 256), asp with the model on S = 1, 2, 4 parameter shards beside
# asp without, optionally one long snapshot run, then the fit of each figure against N
# (fit_scale_model.py). Run it on a quiet machine: it is all CPU-bound.
#
#   tests/bench/run_scale_sweep.sh [BUILD_DIR] [OUT_DIR]       # about 35 minutes on 2 cores
#   PARTS=aggregators WAIT_QUIET=1 tests/bench/run_scale_sweep.sh ...   # only the aggregator rows,
#                                                # each invocation waiting for a quiet machine
#   LONG_SECONDS=600 tests/bench/run_scale_sweep.sh ...         # + a 10-minute snapshot run at 256
# Insecure endpoints (as the issue's figures) at every N; CURVE on every endpoint at CURVE_WORKERS.
set -eu
BUILD=${1:-build}
OUT=${2:-scale-sweep}
PARTS=${PARTS:-"direct curve stream aggregators shards"}
SHARDS=${SHARDS:-"0,1,2,4"}
WORKERS=${WORKERS:-"32 64 128 256"}
GROUPED_WORKERS=${GROUPED_WORKERS:-256}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
WARMUP=${WARMUP:-3}
REPEATS=${REPEATS:-3}
LONG_SECONDS=${LONG_SECONDS:-0}
CURVE_WORKERS=${CURVE_WORKERS:-"32 256"}
WAIT_QUIET=${WAIT_QUIET:-0}      # 1: before each invocation, wait for load and other work to go
QUIET_LOAD=${QUIET_LOAD:-0.7}    # 1-minute load below which the machine counts as quiet
QUIET_MAX_WAIT=${QUIET_MAX_WAIT:-1800}
HERE=$(dirname "$0")
BENCH="$BUILD/tests/bench/bench_coordinator"
mkdir -p "$OUT"

has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

others_running() {
    # By process name, not command line: a shell whose command mentions cc1plus is no compiler.
    pgrep -x cc1plus >/dev/null || pgrep -x ctest >/dev/null || pgrep '^test_' >/dev/null
}

quiet_check() {
    # With WAIT_QUIET=1, waits (60 s at a time) until the 1-minute load is below QUIET_LOAD and no
    # compiler or test runs; the benchmark's own threads lift the load for a minute or two after
    # each invocation. Either way the load is logged: a busy machine measures its other work.
    waited=0
    while [ "$WAIT_QUIET" = 1 ] && [ "$waited" -lt "$QUIET_MAX_WAIT" ]; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        if awk -v l="$load" -v q="$QUIET_LOAD" 'BEGIN { exit !(l < q) }' && ! others_running; then break; fi
        sleep 60
        waited=$((waited + 60))
    done
    busy=""
    others_running && busy=" (a compiler or test runs)"
    echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)$busy, waited ${waited}s" | tee -a "$OUT/load.txt"
}

# A = round(sqrt(N)): the two levels of the tree carry about as many messages each.
root() { awk -v n="$1" 'BEGIN { printf "%d", int(sqrt(n) + 0.5) }'; }

if has direct; then
    for n in $WORKERS; do
        quiet_check
        # Modes take turns inside one invocation (bsp, asp, bsp, asp, ...); each figure is a median.
        "$BENCH" --workers "$n" --modes bsp,asp --repeats "$REPEATS" \
            --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" 2>"$OUT/coordinator-$n.log" | tee "$OUT/coordinator-$n.txt"
    done
fi
if has curve; then
    for n in $CURVE_WORKERS; do
        quiet_check
        "$BENCH" --workers "$n" --modes bsp,asp --repeats "$REPEATS" --curve \
            --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" 2>"$OUT/curve-$n.log" | tee "$OUT/curve-$n.txt"
    done
fi
if has stream; then
    quiet_check
    "$BUILD/tests/bench/bench_stream" --repeats "$REPEATS" --streams 1,4 2>"$OUT/stream.log" | tee "$OUT/stream.txt"
fi
if has aggregators; then
    # Without and with aggregators take turns inside one invocation (A=0, A, A=0, ...), as peers.
    for n in $WORKERS; do
        quiet_check
        "$BENCH" --workers "$n" --modes bsp --aggregators "0,$(root "$n")" --repeats "$REPEATS" \
            --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" 2>"$OUT/aggregators-$n.log" | tee "$OUT/aggregators-$n.txt"
    done
    for n in $GROUPED_WORKERS; do
        quiet_check
        "$BENCH" --workers "$n" --modes grouped --groups "$(root "$n")" --aggregators "0,$(root "$n")" \
            --repeats "$REPEATS" --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" 2>"$OUT/grouped-$n.log" \
            | tee "$OUT/grouped-$n.txt"
    done
fi
if has shards; then
    # Without and with shards take turns inside one invocation (S=0, 1, 2, 4, S=0, ...), as peers.
    for n in $WORKERS; do
        quiet_check
        "$BENCH" --workers "$n" --modes asp --shards "$SHARDS" --repeats "$REPEATS" \
            --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" 2>"$OUT/shards-$n.log" | tee "$OUT/shards-$n.txt"
    done
    # With CURVE on every endpoint, serve's default (kept out of the fit: its own table).
    for n in $CURVE_WORKERS; do
        quiet_check
        "$BENCH" --workers "$n" --modes asp --shards "$SHARDS" --repeats "$REPEATS" --curve \
            --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" 2>"$OUT/shards-curve-$n.log" | tee "$OUT/shards-curve-$n.txt"
    done
fi
if [ "$LONG_SECONDS" != 0 ]; then
    quiet_check
    "$BENCH" --workers 256 --modes asp --repeats 1 --seconds "$LONG_SECONDS" \
        --warmup "$WARMUP" --snapshot-every 30 2>"$OUT/long-256.log" | tee "$OUT/long-256.txt"
fi
# The long run's line stays out: the fit takes one row per mode and N. The aggregator rows (and
# their A=0 peers) go to a file of their own, so the one-coordinator fit keeps its own invocations.
cat /dev/null $(ls "$OUT"/coordinator-*.txt "$OUT"/stream.txt "$OUT"/curve-*.txt 2>/dev/null) \
    | grep '^BENCH_SUMMARY' >"$OUT/summary.jsonl" || true
cat /dev/null $(ls "$OUT"/aggregators-*.txt "$OUT"/grouped-*.txt 2>/dev/null) \
    | grep '^BENCH_SUMMARY' >"$OUT/aggregators.jsonl" || true
cat /dev/null $(ls "$OUT"/shards-[0-9]*.txt 2>/dev/null) | grep '^BENCH_SUMMARY' >"$OUT/shards.jsonl" || true
python3 "$HERE/fit_scale_model.py" "$OUT/summary.jsonl" --aggregators "$OUT/aggregators.jsonl" \
    --shards "$OUT/shards.jsonl" | tee "$OUT/model.txt"
