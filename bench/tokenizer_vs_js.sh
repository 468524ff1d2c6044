#!/usr/bin/env bash
# smfw's tokenizer against js-tiktoken and the tiktoken WASM build on the same
# texts (the curated prompts and the synthetic corpus lines, REPEAT times), on
# the same machine: encoding time only (smfw's load time is measured on an empty
# input and subtracted), best of 3. Needs `npm ci` in tests/interop.
#   bench/tokenizer_vs_js.sh [BUILD_DIR] [REPEAT]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
repeat=${2:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$src/bench/tokenizer_vs_js.mjs" prepare "$work" "$repeat"
ms() { # best of 3 wall times of a command, in ms
  local best=999999999 t0 t1
  for _ in 1 2 3; do
    t0=$(date +%s%N)
    "$@" >"$work/out"
    t1=$(date +%s%N)
    ((t1 - t0 < best)) && best=$((t1 - t0))
  done
  echo $((best / 1000000))
}
printf '%-12s %8s %10s %12s %12s %10s %10s %10s\n' encoding MB tokens smfw_ms js_ms wasm_ms js/smfw wasm/smfw
for enc in o200k_base cl100k_base; do
  run=(env SMFW_TIKTOKEN_DIR="$work" "$build/smfw" tokenize --tokenizer "builtin:$enc" --jsonl)
  load=$(ms "${run[@]}" "$work/empty.jsonl")
  full=$(ms "${run[@]}" "$work/input.jsonl")
  mine=$((full - load))
  ((mine < 1)) && mine=1
  tokens=$(awk '{s += $1} END {print s}' "$work/out")
  read -r js wasm jtokens < <(node "$src/bench/tokenizer_vs_js.mjs" time "$work" "$enc")
  [ "$tokens" = "$jtokens" ] || { echo "token totals differ: smfw $tokens, js $jtokens" >&2; exit 1; }
  mb=$(awk -v b="$(stat -c %s "$work/input.jsonl")" 'BEGIN {printf "%.1f", b / 1048576}')
  awk -v e="$enc" -v mb="$mb" -v t="$tokens" -v m="$mine" -v j="$js" -v w="$wasm" \
    'BEGIN {printf "%-12s %8s %10d %12d %12.0f %10.0f %9.1fx %9.1fx\n", e, mb, t, m, j, w, j / m, w / m}'
done
