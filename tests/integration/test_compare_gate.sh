#!/usr/bin/env bash
# test_compare_gate.sh - `smfw compare` as a nightly-canary gate against
# smfw-mock: a run compared with itself exits 0; a second run of the same
# workload passes a tolerant gate; a deliberately slower run (3x the time to
# first token) exits 4 naming TTFT; the other way round is an improvement
# (exit 0). Markdown and JSON land in -o DIR; a bad folder is exit 1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

start_mock --ttft-ms 30 --itl-ms 2 --output-tokens 16
rc=$(run_direct "$work/base" --concurrency 2 --request-count 40)
[ "$rc" = 0 ] || { cat "$work/base.log"; exit 1; }
rc=$(run_direct "$work/again" --concurrency 2 --request-count 40)
[ "$rc" = 0 ] || { cat "$work/again.log"; exit 1; }
stop_mock
start_mock --ttft-ms 90 --itl-ms 2 --output-tokens 16
rc=$(run_direct "$work/slow" --concurrency 2 --request-count 40)
[ "$rc" = 0 ] || { cat "$work/slow.log"; exit 1; }
stop_mock

expect() { # expect RC ARGS...
    local want=$1; shift
    set +e
    "$SMFW" compare "$@" > "$work/cmp.out" 2> "$work/cmp.err"
    local got=$?
    set -e
    if [ "$got" != "$want" ]; then
        echo "smfw compare $*: exit $got, want $want"; cat "$work/cmp.out" "$work/cmp.err"; exit 1
    fi
}
expect 0 "$work/base" "$work/base"
grep -q "no regression" "$work/cmp.out"
expect 0 "$work/base" "$work/again" --max-regression 60%
expect 4 "$work/base" "$work/slow" -o "$work/report"
grep -q "REGRESSION" "$work/cmp.out"
grep -q "TTFT p95" "$work/cmp.out"
"$SMFW_PYTHON" - "$work/report/compare.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["passed"] is False and r["regressions"] >= 1, r
rows = {m["metric"]: m for m in r["metrics"]}
t = rows["time_to_first_token_p50"]
assert t["regressed"] and t["direction"] == "lower_is_better", t
assert 150 < t["delta_pct"] < 300, t["delta_pct"]          # 30 ms -> 90 ms
assert not rows["inter_token_latency_p50"]["regressed"]
assert rows["output_token_throughput"]["direction"] == "higher_is_better"
print("TTFT p50 +%.0f%%, %d regressions" % (t["delta_pct"], r["regressions"]))
PY
[ -s "$work/report/compare.md" ]
expect 0 "$work/slow" "$work/base"
grep -q "improved" "$work/cmp.out"
# only the chosen metrics count: ITL did not move
expect 0 "$work/base" "$work/slow" --metrics itl_p50,error_rate
expect 0 "$work/base" "$work/slow" --metrics ttft_p95 --max-regression 1000%
expect 0 "$work/base" "$work/slow" --format json --metrics itl_p50
"$SMFW_PYTHON" -c "import json,sys; json.load(open('$work/cmp.out'))"
expect 1 "$work/base" "$work/nonexistent"
expect 1 "$work/base"
expect 1 "$work/base" "$work/slow" --metrics bogus_p95
echo "compare gate OK"
