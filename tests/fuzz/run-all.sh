#!/usr/bin/env bash
# Run every built fuzz target for a bounded time with its seed corpus, as many at
# once as there are cores (each target is one single-threaded process that still
# gets its whole time budget).
#   tests/fuzz/run-all.sh BUILD_DIR SECONDS [JOBS]
set -euo pipefail
build=$(cd "${1:-build-fuzz}" && pwd)
seconds=${2:-60}
jobs=${3:-$(nproc 2>/dev/null || echo 1)}
here=$(cd "$(dirname "$0")" && pwd)
shopt -s nullglob
targets=("$build"/tests/fuzz/fuzz_*)
if ((${#targets[@]} == 0)); then
  echo "no fuzz targets built in $build/tests/fuzz" >&2
  exit 1
fi
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# run_one TARGET: its report lines go to $results/NAME.out, its verdict to NAME.rc
run_one() {
  local t=$1 name work seeds=()
  name=$(basename "$t")
  name=${name#fuzz_}
  work=$(mktemp -d)
  [ -d "$here/corpus/$name" ] && seeds=("$here/corpus/$name")
  {
    echo "-- fuzz_$name for ${seconds}s"
    if (cd "$work" && "$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
          -print_final_stats=1 "$work" "${seeds[@]}" >"$work/log" 2>&1); then
      grep -E 'stat::number_of_executed_units|Done' "$work/log" | tail -2 || true
      echo 0 >"$results/$name.rc"
    else
      echo "fuzz_$name FAILED:"; tail -60 "$work/log"
      mkdir -p "$build/fuzz-artifacts"
      cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$build/fuzz-artifacts/" 2>/dev/null || true
      echo 1 >"$results/$name.rc"
    fi
  } >"$results/$name.out"
  rm -rf "$work"
}

running=0
for t in "${targets[@]}"; do
  [ -x "$t" ] || continue
  run_one "$t" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

passed=0 failed=0
for out in "$results"/*.out; do
  cat "$out"
  if [ "$(cat "${out%.out}.rc" 2>/dev/null || echo 1)" = 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
