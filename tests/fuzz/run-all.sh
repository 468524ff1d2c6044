#!/usr/bin/env bash
# Run every built fuzz target for a bounded time with its seed corpus.
#   tests/fuzz/run-all.sh BUILD_DIR SECONDS
set -euo pipefail
build=$(cd "${1:-build-fuzz}" && pwd)
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
shopt -s nullglob
targets=("$build"/tests/fuzz/fuzz_*)
if ((${#targets[@]} == 0)); then
  echo "no fuzz targets built in $build/tests/fuzz" >&2
  exit 1
fi
failed=0
passed=0
for t in "${targets[@]}"; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  name=${name#fuzz_}
  corpus="$here/corpus/$name"
  work=$(mktemp -d)
  seeds=()
  [ -d "$corpus" ] && seeds=("$corpus")
  echo "-- fuzz_$name for ${seconds}s"
  if (cd "$work" && "$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "$work" "${seeds[@]}" >"$work/log" 2>&1); then
    grep -E 'stat::number_of_executed_units|Done' "$work/log" | tail -2 || true
    passed=$((passed + 1))
  else
    echo "fuzz_$name FAILED:"; tail -60 "$work/log"
    mkdir -p "$build/fuzz-artifacts"; cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$build/fuzz-artifacts/" 2>/dev/null || true
    failed=$((failed + 1))
  fi
  rm -rf "$work"
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
