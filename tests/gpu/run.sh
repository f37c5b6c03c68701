#!/usr/bin/env bash
# GPU execution tests, one command: tests/gpu/run.sh [build dir]
# Builds kernel_gradients.cu with clang++-19 and the Slope plugin for the
# GPU present, runs it, and exits with its status. Without a GPU or the
# CUDA toolkit it says so and exits 77 (ctest reports the test skipped).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
cuda=${CUDA_PATH:-/usr/local/cuda}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no GPU (nvidia-smi finds none)"; exit 77
fi
if [[ ! -f $cuda/include/cuda_runtime.h ]]; then
  echo "skipped: no CUDA toolkit at $cuda (set CUDA_PATH)"; exit 77
fi
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
arch=sm_${cap:-80}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
set -x
clang++-19 -std=c++17 -O2 -x cuda --cuda-gpu-arch="$arch" --cuda-path="$cuda" \
  -Wno-unknown-cuda-version -fplugin="$build/lib/SlopeClang.so" \
  -I"$root/include" "$here/kernel_gradients.cu" -o "$out/kernel_gradients" \
  -L"$cuda/lib64" -lcudart -Wl,-rpath,"$cuda/lib64" || exit 1
"$out/kernel_gradients"
