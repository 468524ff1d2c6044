#!/usr/bin/env bash
# test_goodput_forms.sh - goodput SLOs have one grammar wherever they are read: AIPerf's
# space-separated form ("time_to_first_token:6 request_latency:1000") and repeated
# --goodput items give the same goodput in `smfw run` and in `smfw merge`, and that goodput
# is AIPerf's formula computed here from the records: requests meeting every SLO (TTFT and
# latency in ms, <= the threshold) divided by the benchmark duration.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

start_mock --ttft-ms 5:2 --itl-ms 1 --output-tokens 4
common=(--backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 -q
        --concurrency 4 --request-count 40 --random-seed 3)
"$SMFW" run "${common[@]}" --goodput "time_to_first_token:6 request_latency:1000" \
    -o "$work/aiperf_form" > /dev/null
"$SMFW" merge "$work/aiperf_form" --goodput time_to_first_token:6 --goodput request_latency:1000 \
    -o "$work/merged" > /dev/null
"$SMFW_PYTHON" - "$work/aiperf_form" "$work/merged" <<'PY'
import json, sys
run, merged = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(f"{run}/profile_export.jsonl")]
good = sum(1 for r in recs if "error" not in r or r["error"] is None
           if r["metrics"]["time_to_first_token"]["value"] <= 6
           and r["metrics"]["request_latency"]["value"] <= 1000)
for d in (run, merged):
    s = json.load(open(f"{d}/profile_export_aiperf.json"))
    dur = s["benchmark_duration"]["avg"]
    assert s["good_request_count"]["avg"] == good, (d, s["good_request_count"], good)
    want = good / dur
    got = s["goodput"]["avg"]
    assert abs(got - want) <= 1e-12 * want, (d, got, want)
assert 0 < good < len(recs), f"{good} of {len(recs)} good: the SLO separates nothing"
print(f"goodput: {good} of {len(recs)} requests met TTFT <= 6 ms, the same in run and merge")
PY
echo ok
