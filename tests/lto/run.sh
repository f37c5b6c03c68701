#!/usr/bin/env bash
# Builds Main.cpp (with the plugin) and Library.cpp (without it) with
# -flto at -O0 and -O2, links with lld loading SlopePass.so, and runs; a
# self-contained -flto program links without the pass.
# Without LTO, or with ThinLTO, the compile step's error says how to build. Skipped (77)
# where ld.lld is missing.
# usage: run.sh <clang++> <SlopeClang.so> <SlopePass.so> <include> <work>
set -eu
cxx=$1 plugin=$2 pass=$3 include=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
lld=$(dirname "$(readlink -f "$(command -v "$cxx")")")/ld.lld
[[ -x $lld ]] || { echo "no ld.lld beside $cxx (lld-19): skipped"; exit 77; }
mkdir -p "$work"
for level in O0 O2; do
  "$cxx" -std=c++17 -$level -flto -fplugin="$plugin" -I"$include" \
    -c "$here/Main.cpp" -o "$work/main-$level.o"
  "$cxx" -std=c++17 -$level -flto -c "$here/Library.cpp" \
    -o "$work/library-$level.o"
  "$cxx" -$level -flto -fuse-ld="$lld" -Wl,--load-pass-plugin="$pass" \
    "$work/main-$level.o" "$work/library-$level.o" -o "$work/lto-$level"
  "$work/lto-$level"
  "$cxx" -std=c++17 -$level -flto -fplugin="$plugin" -I"$include" \
    "$here/SelfContained.cpp" -o "$work/self-$level"
  "$work/self-$level"
done
# Without -flto: one error at the call, naming -flto.
if "$cxx" -std=c++17 -O2 -fplugin="$plugin" -I"$include" \
  -c "$here/Main.cpp" -o "$work/plain.o" 2>"$work/plain.log"; then
  echo "compiled without -flto: expected an error"; exit 1
fi
grep -q "definition is not visible in this translation unit (to differentiate across files, build with -flto" "$work/plain.log"
echo "without -flto: the error says how to build"
# ThinLTO optimizes each module apart: the same error, at the compile step.
if "$cxx" -std=c++17 -O2 -flto=thin -fplugin="$plugin" -I"$include" \
  -c "$here/Main.cpp" -o "$work/thin.o" 2>"$work/thin.log"; then
  echo "compiled with -flto=thin: expected an error"; exit 1
fi
grep -q "build with -flto, full LTO rather than -flto=thin" "$work/thin.log"
echo "with -flto=thin: the error asks for full LTO"
