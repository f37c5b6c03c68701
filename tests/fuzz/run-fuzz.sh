#!/usr/bin/env bash
# Differential testing: for each seed, generate.py writes a file of random
# kernels with GoogleTest checks of their gradients (central differences,
# forward against reverse mode). The file is compiled with the plugin at
# -O0, at -O2, at -O2 with -fno-math-errno (math calls become intrinsics),
# at -O2 under AddressSanitizer and at -O2 in verify mode (what the reverse
# sweeps do not tape is checked against the tape), and run. Any Slope diagnostic,
# compiler crash, memory error or wrong gradient fails.
#
# usage: run-fuzz.sh <clang++> <SlopeClang.so> <include dir> <work dir> <seed>...
#   (a seed may be a range: 1-50)
set -u
cxx=$1 plugin=$2 include=$3 work=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
seeds=()
for s in "$@"; do
  if [[ $s == *-* ]]; then seeds+=($(seq "${s%-*}" "${s#*-}")); else seeds+=("$s"); fi
done
configs=("O0:-O0" "O2:-O2" "O2-intrinsics:-O2 -fno-math-errno"
         "O2-asan:-O2 -fsanitize=address -fno-omit-frame-pointer"
         "O2-verify:-O2 -fplugin-arg-slope-verify")
# By hand, FUZZ_ALL=1 adds -O1, -O3 and -O0 in verify mode.
if [[ ${FUZZ_ALL:-0} == 1 ]]; then
  configs+=("O1:-O1" "O3:-O3" "O0-verify:-O0 -fplugin-arg-slope-verify")
fi
status=0
for seed in "${seeds[@]}"; do
  source="$work/fuzz$seed.cpp"
  python3 "$here/generate.py" "$seed" >"$source" || exit 1
  for config in "${configs[@]}"; do
    name=${config%%:*}
    read -r -a flags <<<"${config#*:}"
    binary="$work/fuzz$seed-$name"
    log="$work/fuzz$seed-$name.log"
    if ! "$cxx" -std=c++17 "${flags[@]}" -fplugin="$plugin" -I"$include" \
      "$source" -o "$binary" -lgtest -lgtest_main -pthread >"$log" 2>&1; then
      echo "NO BUILD   seed $seed $name: $(grep -m1 -e 'error: .*' -e 'Stack dump' "$log")"
      status=1; continue
    fi
    if timeout 120 "$binary" --gtest_brief=1 >>"$log" 2>&1; then
      echo "correct    seed $seed $name"
    else
      echo "WRONG      seed $seed $name: $(grep -c '^\[  FAILED  \] Fuzz' "$log") failing kernels ($log)"
      grep -m3 -A2 "Actual: false\|ERROR: AddressSanitizer" "$log"
      status=1
    fi
  done
done
exit $status
