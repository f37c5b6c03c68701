#!/usr/bin/env bash
# Crash resistance: every corpus program, compiled with the plugin at -O0
# and -O2, must either differentiate correctly (the program checks its own
# gradients and exits 0) or stop with a Slope diagnostic -- and the
# compiler must exit normally either way.
#
# usage: run-corpus.sh <clang++> <SlopeClang.so> <include dir> <work dir> <file>...
set -u
cxx=$1 plugin=$2 include=$3 work=$4
shift 4
mkdir -p "$work"
status=0
for source in "$@"; do
  name=$(basename "$source" .cpp)
  for level in 0 2; do
    binary="$work/$name-O$level"
    log="$work/$name-O$level.log"
    "$cxx" -std=c++20 -O$level -fplugin="$plugin" -I"$include" "$source" \
      -o "$binary" >"$log" 2>&1
    rc=$?
    if grep -q -e "PLEASE submit a bug report" -e "Stack dump" "$log"; then
      echo "CRASH      $name -O$level"; cat "$log"; status=1; continue
    fi
    if ((rc == 0)); then
      if timeout 60 "$binary" >>"$log" 2>&1; then
        echo "correct    $name -O$level"
      else
        echo "WRONG      $name -O$level"; cat "$log"; status=1
      fi
    elif ((rc == 1)) && grep -q "error: slope: " "$log"; then
      echo "diagnosed  $name -O$level: $(grep -m1 -o 'error: slope: .*' "$log")"
    else
      echo "FAILED     $name -O$level (exit $rc without a Slope diagnostic)"
      cat "$log"; status=1
    fi
  done
done
exit $status
