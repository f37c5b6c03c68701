#!/usr/bin/env bash
# The by-hand fuzz campaign of issue 17: every seed in all eight builds
# (run-fuzz.sh with FUZZ_ALL=1), on a snapshot of the plugin so that a rebuild
# during the campaign does not change what is tested.
#
#   campaign.sh snapshot <build dir> <snapshot dir>
#       copy the plugin, the headers and the generator, and record the
#       commit they came from
#   campaign.sh run <snapshot dir> <first seed> <last seed> [<log>]
#       one line per seed on stdout and appended to <log>
#       (default tests/fuzz/campaign.log); a passing seed's files are deleted,
#       a failing seed's stay under <snapshot dir>/work<first>
#
# The log is committed: it is the campaign's record across sessions.
set -u
here=$(cd "$(dirname "$0")" && pwd)
command=${1:-}
case $command in
snapshot)
  build=$2 snapshot=$3
  mkdir -p "$snapshot"
  cp "$build/lib/SlopeClang.so" "$snapshot/"
  rm -rf "$snapshot/include" && cp -r "$here/../../include" "$snapshot/include"
  # The generator too: editing it during a campaign changes no seed's file.
  cp "$here/generate.py" "$here/run-fuzz.sh" "$snapshot/"
  git -C "$here" rev-parse --short HEAD >"$snapshot/commit"
  if ! git -C "$here" diff --quiet HEAD -- src include tests/fuzz; then
    echo "+dirty" >>"$snapshot/commit"
  fi
  echo "snapshot of $(tr '\n' ' ' <"$snapshot/commit")in $snapshot"
  ;;
run)
  snapshot=$2 first=$3 last=$4 log=${5:-$here/campaign.log}
  commit=$(tr -d '\n' <"$snapshot/commit")
  work="$snapshot/work$first"
  for seed in $(seq "$first" "$last"); do
    output=$(FUZZ_ALL=1 "$snapshot/run-fuzz.sh" clang++-19 "$snapshot/SlopeClang.so" \
      "$snapshot/include" "$work" "$seed")
    correct=$(grep -c '^correct' <<<"$output")
    line="seed $seed: $correct/8 correct, plugin $commit, $(date -u +%FT%RZ)"
    if [[ $correct == 8 ]]; then
      rm -f "$work/fuzz$seed"*
    else
      line+=$'\n'"$(grep -v '^correct' <<<"$output" | sed 's/^/    /')"
    fi
    echo "$line" | tee -a "$log"
  done
  ;;
*)
  sed -n '2,13p' "$0"
  exit 2
  ;;
esac
