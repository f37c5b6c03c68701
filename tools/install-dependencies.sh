#!/usr/bin/env bash
# Installs what Slope needs on Debian 12 (bookworm): LLVM/Clang 19, CMake,
# Ninja, GoogleTest, Google Benchmark, Python (for lit), Eigen 3 (tests),
# lld (links of -flto builds that differentiate across files), libomp for
# clang 19 (OpenMP regions), Open MPI (MPI communication).
set -euo pipefail
packages=(
  clang-19 clangd-19 llvm-19-dev libclang-19-dev llvm-19-tools libclang-rt-19-dev
  lld-19
  cmake ninja-build g++ python3
  libgtest-dev libbenchmark-dev libeigen3-dev libomp-19-dev
  libopenmpi-dev openmpi-bin
)
sudo=""
if [[ $(id -u) != 0 ]]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
