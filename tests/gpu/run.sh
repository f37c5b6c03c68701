#!/usr/bin/env bash
# GPU execution tests, one command: tests/gpu/run.sh [build dir]
# Builds kernel_gradients.cu with clang++-19 and the Slope plugin (host and
# device), then runs it on the GPU. Exits 77 -- ctest's "skipped" -- when
# the CUDA toolkit is missing (nothing built) or there is no GPU (built,
# not run). CUDA_PATH selects the toolkit, SLOPE_CUDA_ARCH the GPU
# architecture when no GPU is there to ask.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
cuda=${CUDA_PATH:-/usr/local/cuda}
if [[ ! -f $cuda/include/cuda_runtime.h ]]; then
  echo "skipped: no CUDA toolkit at $cuda (set CUDA_PATH)"; exit 77
fi
gpu=no
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu=yes
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
fi
arch=sm_${cap:-${SLOPE_CUDA_ARCH:-80}}
compat=()
if [[ ! -f $cuda/include/texture_fetch_functions.h ]]; then
  # CUDA 13+ with clang 19: see compat/.
  compat=(-isystem "$here/compat/include" -B "$here/compat/bin")
  export CUDA_FATBINARY=$cuda/bin/fatbinary
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
clang++-19 -std=c++17 -O2 -x cuda --cuda-gpu-arch="$arch" --cuda-path="$cuda" \
  -Wno-unknown-cuda-version "${compat[@]}" \
  -fplugin="$build/lib/SlopeClang.so" -I"$root/include" \
  "$here/kernel_gradients.cu" -o "$out/kernel_gradients" \
  -L"$cuda/lib64" -lcudart -Wl,-rpath,"$cuda/lib64" || exit 1
echo "built kernel_gradients for $arch"
if [[ $gpu == no ]]; then
  echo "skipped running: no GPU (nvidia-smi finds none)"; exit 77
fi
"$out/kernel_gradients"
