#!/usr/bin/env bash
# The fuzz smoke test (ctest -L fuzz): builds the libFuzzer targets in a clang build folder of their
# own (the main build uses gcc), runs every regression input once, then fuzzes each target for a
# while on its seed corpus. Exits 77 (ctest's skip) when clang or libFuzzer is missing.
#   tests/fuzz/run_fuzz_smoke.sh BUILD_DIR [SECONDS]     (default 30 s per target)
# Set CMAKE_BUILD_PARALLEL_LEVEL to limit the build's jobs. New corpus entries and crash inputs go
# under BUILD_DIR, never into the source tree.
set -euo pipefail
build_dir=${1:?usage: $0 BUILD_DIR [SECONDS]}
seconds=${2:-30}
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
skip=77

for tool in clang clang++; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found; libFuzzer needs clang (Debian: clang libclang-rt-14-dev; ./setup.sh installs them)"
    exit $skip
  fi
done
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe/probe.cpp"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/probe.cpp" -o "$probe/probe" 2>"$probe/errors"; then
  echo "SKIP: clang++ cannot link libFuzzer with ASan/UBSan (install libclang-rt-14-dev):"
  cat "$probe/errors"
  exit $skip
fi

# Only the fuzzers are built; the rest of the project is configured (its packages must be there) but
# not compiled. No Qt beyond Core, no CUDA, no tests. CC and CXX count on the first configure only.
CC=clang CXX=clang++ cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSYNCSCOPE_GUI=OFF -DSYNCSCOPE_CUDA=OFF -DBUILD_TESTING=OFF -DSYNCSCOPE_FUZZ=ON >"$probe/configure.log" 2>&1 ||
  { cat "$probe/configure.log"; exit 1; }
cmake --build "$build_dir" --target syncscope_fuzzers

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Inputs are a few KB: a decoder that asks for 64 MB for one trusted a length field.
limits=(-malloc_limit_mb=64 -timeout=25)
failed=()
summary=()
while read -r target; do
  [ -n "$target" ] || continue
  thing=${target#fuzz_}
  fuzzer="$build_dir/tests/fuzz/$target"
  work="$build_dir/fuzz-work/$thing"
  mkdir -p "$work/corpus" "$work/artifacts"
  log="$work/last-run.log"
  # Every input that once broke a decoder runs first, once each.
  regressions=("$here/regressions/$thing"/*)
  if [ -e "${regressions[0]}" ]; then
    if ! "$fuzzer" "${limits[@]}" "${regressions[@]}" >"$work/regressions.log" 2>&1 </dev/null; then
      cat "$work/regressions.log"
      failed+=("$target (regression inputs)")
    fi
  fi
  # New inputs go to the first folder (in the build tree); the seeds are only read.
  if "$fuzzer" "${limits[@]}" -max_total_time="$seconds" -print_final_stats=1 \
       -artifact_prefix="$work/artifacts/" "$work/corpus" "$here/corpus/$thing" >"$log" 2>&1 </dev/null; then
    result=ok
  else
    result="FAILED (see $log)"
    tail -n 60 "$log"
    failed+=("$target")
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  summary+=("$(printf '%-24s %12s %10s  %s' "$target" "${runs:-?}" "${rate:-?}" "$result")")
done <"$build_dir/fuzz_targets.txt"

printf '%-24s %12s %10s  %s\n' target executions exec/s result
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz smoke: failed: ${failed[*]}"
  exit 1
fi
