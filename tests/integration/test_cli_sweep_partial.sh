#!/usr/bin/env bash
# test_cli_sweep_partial.sh - an interrupted sweep: the level cut short is
# marked partial (PARTIAL.txt, a line on stdout, its summary "not judged") and
# left out of the analysis, so it is never "recommended" nor the base of an
# autoscaling target; each finished level prints its summary with the verdict;
# the sweep folder takes --run-name.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }
start_mock --ttft-ms=400 --output-tokens=3
"$SMFW" sweep --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 \
    --concurrency 1,2 -n 6 --run-name mysweep --results-dir "$work/res" --grace-period 0.1s \
    > "$work/sweep.out" 2> "$work/sweep.err" &
pid=$!
level2="$work/res/mysweep/concurrency_2/profile_export.jsonl"
for _ in $(seq 600); do [ -s "$level2" ] && break; sleep 0.05; done
[ -s "$level2" ] || { kill "$pid"; cat "$work/sweep.err"; fail "level 2 never started"; }
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" = 130 ] || { cat "$work/sweep.out" "$work/sweep.err"; fail "interrupted sweep exited $rc, want 130"; }
[ -d "$work/res/mysweep" ] || fail "the sweep folder does not take --run-name: $(ls "$work/res")"
[ -s "$work/res/mysweep/concurrency_2/PARTIAL.txt" ] || fail "the partial level is not marked"
grep -q "partial: interrupted after" "$work/sweep.out" || fail "stdout does not say partial: $(cat "$work/sweep.out")"
# Each level's summary (smfw_run_summary_print): level 1 judged, level 2 not.
"$SMFW_PYTHON" - "$work/sweep.out" "$work/res/mysweep" <<'PY' || fail "level summaries: $(cat "$work/sweep.out")"
import sys
blocks = {b.splitlines()[0]: b for b in open(sys.argv[1]).read().split("\n\n") if b.startswith("Results")}
one, two = blocks["Results at concurrency 1"], blocks["Results at concurrency 2"]
assert "  validity: passed (error rate 0.00%" in one, one
assert f"  results: {sys.argv[2]}/concurrency_1\n" in one + "\n", one
assert "Time to First Token (ms)" in one and "Request Count (requests)" in one, one
assert "  validity: not judged - the run was interrupted" in two, two
PY
! grep -q "^| 2 |" "$work/res/mysweep/sweep.md" || fail "the partial level is in the analysis"
! grep -q '"load": *2[,}]' "$work/res/mysweep/sweep.json" || fail "the partial level is in sweep.json"
grep -q "^| 1 |" "$work/res/mysweep/sweep.md" || fail "the finished level is missing"
echo ok
