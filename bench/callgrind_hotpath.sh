#!/usr/bin/env bash
# callgrind_hotpath.sh - instructions the direct backend spends per streamed
# request and per streamed token (SageMaker path: SigV4, event stream, SSE, JSON,
# records), counted by callgrind: repeatable on any machine and under any load,
# where wall time is not. Marginal costs, so start-up and reports cancel out:
#   per request = (I(2N requests) - I(N requests)) / N           at T tokens each
#   per token   = (I(N requests, 2T tokens) - I(N requests, T)) / (N T)
# With BASE (a commit), that commit is built in a temporary git worktree and
# measured in the same invocation; the ratios this/BASE are printed (the ABI 2.0
# issue allows at most +2 % per request).
# The same marginal costs are printed for the primitives named in FUNCS (inclusive
# instructions of each function, from callgrind_annotate): by default the event
# stream's CRC-32 and the SigV4 signer (issue 16's CRC and SigV4 rows).
# usage: bench/callgrind_hotpath.sh [BUILD_DIR] [BASE_COMMIT]
#        (env N=200 T=32 CONC=8 FUNCS="smfw_crc32 smfw_sigv4_sign")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
base=${2:-}
N=${N:-200} T=${T:-32} CONC=${CONC:-8}
FUNCS=${FUNCS:-smfw_crc32 smfw_sigv4_sign}
command -v valgrind >/dev/null || { echo "valgrind not installed (apt-get install valgrind)"; exit 1; }
export AWS_ACCESS_KEY_ID=AKIDBENCH AWS_SECRET_ACCESS_KEY=bench-secret-key-0123456789
export AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-callgrind.XXXXXX")
mock_pid= wt=
cleanup() {
    [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null
    [ -n "$wt" ] && git -C "$src" worktree remove --force "$wt" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

if [ -n "$base" ]; then
    wt="$work/base-src"
    git -C "$src" worktree add -q --detach "$wt" "$base"
    echo "building $base in a worktree ..."
    cmake -S "$wt" -B "$work/base-build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSMFW_BUILD_TESTS=OFF >/dev/null
    cmake --build "$work/base-build" -j"$(nproc)" >/dev/null
fi
MOCK="$build/tools/mock/smfw-mock"
for x in "$build/smfw" "$MOCK"; do [ -x "$x" ] || { echo "missing $x (build first)"; exit 1; }; done

# One mock for every measurement (not under callgrind: only smfw is counted). It
# answers at once; the client's instruction count does not depend on its timing.
# start_mock TOKENS -> sets URL
start_mock() {
    [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null || true
    "$MOCK" --listen 127.0.0.1:0 --endpoint bench --ttft-ms 0 --itl-ms 0 --output-tokens "$1" \
        --access-key-id "$AWS_ACCESS_KEY_ID" --secret-access-key "$AWS_SECRET_ACCESS_KEY" \
        >"$work/mock.out" 2>"$work/mock.err" &
    mock_pid=$!
    for _ in $(seq 200); do grep -q listening "$work/mock.out" && break; sleep 0.05; done
    URL=$(head -1 "$work/mock.out" | sed 's/.*listening on //')
}

# funcs CALLGRIND_OUT -> "name=inclusive" for each of FUNCS (0 when never called)
funcs() {
    local ann f v
    ann=$(callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$1" 2>/dev/null)
    for f in $FUNCS; do
        v=$(awk -v f="$f" '$0 !~ /=>/ && index($0, ":" f " [") { gsub(",", "", $1); s += $1 }
                          END { print s + 0 }' <<<"$ann")
        printf ' %s=%s' "$f" "$v"
    done
}

# count BUILD REQUESTS TOKENS -> instructions of one smfw run (all threads), then funcs
count() {
    local out="$work/cg.$RANDOM"
    valgrind --tool=callgrind --callgrind-out-file="$out" --trace-children=no \
        "$1/smfw" run --backend direct --endpoint bench --endpoint-url "$URL" --region us-east-1 \
        --concurrency "$CONC" --request-count "$2" --output-tokens-mean "$3" --workers 1 \
        --dataset synthetic --random-seed 1 -o "$work/run.$RANDOM" -q --report json \
        >/dev/null 2>"$out.err" || { cat "$out.err" >&2; exit 1; }
    echo "$(awk '/^summary:/ {print $2}' "$out")$(funcs "$out")"
}

measure() { # measure BUILD LABEL
    start_mock "$T"
    local a b c
    a=$(count "$1" "$N" "$T")
    b=$(count "$1" $((2 * N)) "$T")
    start_mock $((2 * T))
    c=$(count "$1" "$N" $((2 * T)))
    echo "$2 ${a%% *} ${b%% *} ${c%% *}"
    echo "$2.funcs ${a#* }|${b#* }|${c#* }"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (callgrind counts do not depend on it)"
{
    measure "$build" this
    [ -n "$base" ] && measure "$work/base-build" base
} >"$work/results"
"${SMFW_PYTHON:-python3}" - "$work/results" "$N" "$T" "$CONC" "${base:-}" <<'PY'
import sys
rows, funcs = {}, {}
for line in open(sys.argv[1]):
    label, rest = line.rstrip("\n").split(" ", 1)
    if label.endswith(".funcs"):
        runs = [dict(kv.split("=") for kv in part.split()) for part in rest.split("|")]
        funcs[label[:-6]] = {f: tuple(int(r.get(f, 0)) for r in runs) for f in runs[0]}
        continue
    a, b, c = rest.split()
    rows[label] = (int(a), int(b), int(c))
n, t, conc, base = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
print(f"callgrind, SageMaker streaming path, concurrency {conc}, N={n} requests, T={t} tokens")
res = {}
for label, (a, b, c) in rows.items():
    per_req = (b - a) / n
    per_tok = (c - a) / (n * t)
    res[label] = (per_req, per_tok)
    print(f"  {label:5s} instructions/request {per_req:12.0f}   /token {per_tok:10.0f}   (run of {n}: {a:,})")
    for f, (fa, fb, fc) in funcs.get(label, {}).items():
        print(f"        {f:22s} /request {(fb - fa) / n:10.0f}   /token {(fc - fa) / (n * t):10.1f}")
if "base" in res:
    r, k = (res["this"][i] / res["base"][i] for i in range(2))
    print(f"  ratio this/base ({base}): per request x{r:.4f} ({100 * (r - 1):+.2f} %), per token x{k:.4f}")
PY
