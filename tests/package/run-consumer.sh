#!/usr/bin/env bash
# Slope as users get it: the consumer project (samples/consumer) configured,
# built and run against the build tree and against an installed prefix;
# the installed slope++ wrapper compiling the quick start; and a consumer
# configured with another compiler failing with a message naming clang 19.
# usage: run-consumer.sh <source dir> <build dir> <work dir>
set -eu
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
step() { echo "== $*"; }

step "consumer against the build tree"
cmake -S "$src/samples/consumer" -B "$work/tree" -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++-19 -DSlope_DIR="$build" >/dev/null
cmake --build "$work/tree" >/dev/null
"$work/tree/consumer"

step "install, then the consumer against the prefix"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/slope++" -a -x "$work/prefix/bin/slope-cc" -a -x "$work/prefix/bin/slope-check"
test -f "$work/prefix/lib/SlopeClang.so" -a -f "$work/prefix/lib/SlopePass.so"
cmake -S "$src/samples/consumer" -B "$work/installed" -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/installed" >/dev/null
"$work/installed/consumer"

step "the installed slope++ compiles the quick start"
"$work/prefix/bin/slope++" -std=c++17 -O2 \
  "$src/samples/quickstart/quickstart.cpp" -o "$work/quickstart"
"$work/quickstart" | grep -q "reverse mode"

step "another compiler is refused with a message naming clang 19"
if cmake -S "$src/samples/consumer" -B "$work/gxx" -G Ninja \
     -DCMAKE_CXX_COMPILER=g++ -DCMAKE_PREFIX_PATH="$work/prefix" \
     >"$work/gxx.log" 2>&1; then
  echo "configuring with g++ succeeded"; exit 1
fi
grep -q "Slope needs clang 19 as the CXX compiler" "$work/gxx.log"
echo "package checks passed"
