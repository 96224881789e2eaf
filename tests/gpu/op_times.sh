#!/bin/bash
# Where a CUDA training step's time goes, op by op (bench_compute --op-times; the lent GPU machines have
# no Nsight), for the cnn at batch 64, 256 and 1024 in FP32 and in PyTorch's default precision, and
# PyTorch's kernels for the same step (tests/gpu/profile_torch_step.py, TF32). Run on the GPU machine
# after tests/gpu/stage_device_files.sh: tests/gpu/op_times.sh [CARRY_DIR]; writes $OUT/op-times.txt
# (ours) and $OUT/torch-BATCH.txt (PyTorch's), prints each step's total.
set -uo pipefail
carry=${1:-.device-carry}
out=${OUT:-$PWD/op-times-out}
mkdir -p "$out"
root=$(mktemp -d /tmp/syncscope-optimes.XXXX)
tar -C "$root" -xJf "$carry/syncscope-device.tar.xz" || exit 2
lib_path=$root/lib
torch_nvidia=$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(os.path.dirname(torch.__file__)), "nvidia"))' 2>/dev/null)
for so in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcudnn.so.9; do
    found=$(find ${torch_nvidia:+"$torch_nvidia"} /usr/local/cuda/lib64/ /usr/lib/x86_64-linux-gnu/ -name "$so" 2>/dev/null | head -1)
    [[ -n $found ]] && lib_path=$lib_path:$(dirname "$found")
done
mkdir -p /usr/share/datasets/fashion-mnist && cp "$carry"/data/*.gz /usr/share/datasets/fashion-mnist/
for batch in ${OP_TIMES_BATCHES:-1024 256 64}; do
    for settings in "--conv-math fp32 --conv-algorithms heuristic" "--conv-math tf32 --conv-algorithms measured-any"; do
        echo "=== cnn batch $batch $settings" | tee -a "$out/op-times.txt"
        LD_LIBRARY_PATH=$lib_path timeout 60 "$root/bin/bench_compute" --backend cuda --model cnn --batch "$batch" \
            $settings --op-times 50 2>&1 | tee -a "$out/op-times.txt" | grep -E '^===|in all'
    done
    timeout 60 python3 tests/gpu/profile_torch_step.py "$batch" tf32 >"$out/torch-$batch.txt" 2>&1
    grep -m1 '^batch' "$out/torch-$batch.txt" | sed 's/^/PyTorch: /'
done
