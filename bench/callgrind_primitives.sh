#!/usr/bin/env bash
# callgrind_primitives.sh - instructions per operation of the hot path's primitives,
# counted by callgrind (repeatable under any load, where wall time is not):
#   SigV4  one signature of a SageMaker streaming request with a 2 KB chat body,
#          incl. its SHA-256 ("body", issue 16's figure) and with the hash
#          precomputed ("hashed", what the direct backend does per request)
#   CRC-32 per KB, PCLMULQDQ folding and the portable slicing-by-8 (16 KB calls, and
#          the event stream's typical 200-byte messages)
# Marginal costs, so start-up cancels out: per op = (I(2N ops) - I(N ops)) / N.
# Wall time (bench_sigv4's own ns per signature) is printed too, from a native run.
# usage: bench/callgrind_primitives.sh [BUILD_DIR]   (env N=2000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
N=${N:-2000}
command -v valgrind >/dev/null || { echo "valgrind not installed (apt-get install valgrind)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-cgprim.XXXXXX")
trap 'rm -rf "$work"' EXIT

# instr PROGRAM ARGS... -> instructions of one run
instr() {
    local out="$work/cg.$RANDOM"
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$out.err" ||
        { cat "$out.err" >&2; exit 1; }
    awk '/^summary:/ {print $2}' "$out"
}
# per_op LABEL UNIT DIVISOR PROGRAM ARGS_N... -- ARGS_2N...
per_op() {
    local label=$1 unit=$2 div=$3 prog=$4
    shift 4
    local a_args=() b_args=()
    while [ "$1" != -- ]; do a_args+=("$1"); shift; done
    shift
    b_args=("$@")
    local a b
    a=$(instr "$prog" "${a_args[@]}")
    b=$(instr "$prog" "${b_args[@]}")
    awk -v l="$label" -v u="$unit" -v a="$a" -v b="$b" -v d="$div" \
        'BEGIN { printf "  %-44s %10.0f instructions per %s\n", l, (b - a) / d, u }'
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (callgrind counts do not depend on it)"
sig="$build/bench/bench_sigv4" crc="$build/bench/bench_crc32"
if [ -x "$sig" ]; then
    for mode in body hashed; do
        "$sig" 20000 "$mode" | sed 's/^/  native: /'
        per_op "sigv4 ($mode)" signature "$N" "$sig" "$N" "$mode" -- $((2 * N)) "$mode"
    done
else
    echo "  (no $sig)"
fi
if [ -x "$crc" ]; then
    for impl in pclmul portable; do
        "$crc" 90000 "$impl" 16384 | sed 's/^/  native: /'
        # 900 more calls of 16 KB = 14,400 KB; 9,000 more calls of 200 bytes
        per_op "crc32 $impl, 16 KB calls" KB 14400 "$crc" 900 "$impl" 16384 -- 1800 "$impl" 16384
        per_op "crc32 $impl, 200-byte calls" call 9000 "$crc" 9000 "$impl" 200 -- 18000 "$impl" 200
    done
else
    echo "  (no $crc)"
fi
