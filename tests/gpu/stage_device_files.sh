#!/bin/bash
# Packs what tests/gpu/device_check.sh needs on a lent GPU machine, which has the NVIDIA driver, CUDA 13,
# PyTorch (with its cuDNN 9 and cuBLAS) and python3, but none of SyncScope's libraries and no package
# registry. Writes DEST (default .device-carry/, git-ignored):
#   syncscope-device.tar.xz  bin/ (the engine, the GPU test, bench_compute) and lib/ (every shared
#                            library they load except glibc's, libstdc++/libgcc and CUDA's own)
#   data/                    the Fashion-MNIST IDX files
# Usage: tests/gpu/stage_device_files.sh [BUILD_DIR] [DEST]   (BUILD_DIR built with CUDA, default build)
set -euo pipefail
build=${1:-build}
dest=${2:-.device-carry}
data=${SYNCSCOPE_FASHION_MNIST_DIR:-/usr/share/datasets/fashion-mnist}
binaries=(app/syncscope-engine tests/test_backend_consistency tests/bench/bench_compute)

for b in "${binaries[@]}"; do
    [[ -x $build/$b ]] || { echo "stage_device_files: $build/$b is missing: build it first (cmake --build $build --target ${b##*/})" >&2; exit 1; }
done
if [[ $(ldd "$build/app/syncscope-engine") != *libcudart* ]]; then
    echo "stage_device_files: $build/app/syncscope-engine has no CUDA backend: configure with -DSYNCSCOPE_CUDA=ON (nvcc and cuDNN 9 needed)" >&2
    exit 1
fi
for f in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
    [[ -r $data/$f ]] || { echo "stage_device_files: $data/$f is missing (Debian: apt install dataset-fashion-mnist)" >&2; exit 1; }
done

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/bin" "$staging/lib"
for b in "${binaries[@]}"; do cp "$build/$b" "$staging/bin/"; done
# The device brings these itself: glibc, the compiler's runtime (newer there), the driver, CUDA's libraries.
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libpthread|libdl\.|librt\.|libgcc_s|libstdc\+\+|libcuda\.|libcudart|libcublas|libcudnn)'
for b in "${binaries[@]}"; do
    ldd "$build/$b" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
    [[ $name =~ $skip ]] || cp -L "$path" "$staging/lib/$name"
done
rm -rf "$dest"
mkdir -p "$dest/data"
tar -C "$staging" -cJf "$dest/syncscope-device.tar.xz" bin lib
cp "$data"/*-ubyte.gz "$dest/data/"
du -sh "$dest" "$dest"/* | sed 's/^/stage_device_files: /'
