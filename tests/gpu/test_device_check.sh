#!/bin/bash
# ctest's check of the GPU device check on a machine without a GPU: the files it needs are packed from
# BUILD_DIR and found, and it then says there is no GPU and exits 77 (no figure claimed). On a machine
# with a GPU this test is skipped: run tests/gpu/device_check.sh itself there.
# Usage: tests/gpu/test_device_check.sh BUILD_DIR
set -uo pipefail
build=$1
cd "$(dirname "$0")/../.."
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    echo "a GPU is visible: run tests/gpu/device_check.sh instead of this test"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
XZ_OPT=-0 tests/gpu/stage_device_files.sh "$build" "$work/carry" || { echo "FAIL: staging failed"; exit 1; }
OUT=$work/out tests/gpu/device_check.sh "$work/carry" >"$work/log" 2>&1
rc=$?
cat "$work/log"
[[ $rc == 77 ]] || { echo "FAIL: device_check.sh exited $rc without a GPU, expected 77"; exit 1; }
grep -q "everything needed is present" "$work/log" || { echo "FAIL: no word that its files were checked"; exit 1; }
rm "$work/carry/data/t10k-labels-idx1-ubyte.gz"
OUT=$work/out tests/gpu/device_check.sh "$work/carry" >"$work/log" 2>&1
rc=$?
cat "$work/log"
[[ $rc == 2 ]] && grep -q "t10k-labels-idx1-ubyte.gz" "$work/log" || { echo "FAIL: a missing data file gave exit $rc, expected 2 naming it"; exit 1; }
echo "PASS: device_check.sh checks its files and exits 77 without a GPU"
