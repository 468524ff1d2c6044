#!/usr/bin/env bash
# test_direct_faults.sh - every smfw-mock fault kind through the direct
# backend (SageMaker streaming): the run completes, writes every record,
# counts each injected fault (from the mock's ground truth) in the right
# error class, and the validity gate trips (exit 3, failure_reason.txt)
# exactly when errors exceed 1%. Then the gate boundary: at concurrency 1
# the mock's seeded draws repeat, so the same k errors out of 100 pass with
# --max-error-rate k/100 and fail just below it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

check() { # check DIR KIND CLASS RC
    "$SMFW_PYTHON" - "$@" <<'PY'
import json, os, sys
d, kind, cls, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
recs = [json.loads(l) for l in open(d + "/profile_export.jsonl")]
gt = [json.loads(l) for l in open(d + ".gt")]
assert len(recs) == 120, f"{kind}: {len(recs)} records of 120"
faults = {g["inference_id"] for g in gt if g.get("fault") == kind}
assert faults, f"{kind}: the mock injected nothing"
errs = {r["metadata"]["x_request_id"]: r for r in recs if r.get("error")}
if cls == "valid":
    assert not errs, f"{kind}: {len(errs)} unexpected errors: {list(errs.values())[0]['error']}"
    for r in recs:
        if r["metadata"]["x_request_id"] in faults:   # reasoning only: valid, no output text
            m = r["metrics"]
            assert "reasoning_token_count" in m and "output_token_count" not in m, m.keys()
else:
    got = {i: r["smfw"]["error_class"] for i, r in errs.items()}
    assert set(got) == faults, f"{kind}: {len(got)} errors vs {len(faults)} faults"
    assert set(got.values()) == {cls}, f"{kind}: classes {set(got.values())}, want {cls}"
rate = len(errs) / len(recs)
tripped = rate > 0.01
assert rc == (3 if tripped else 0), f"{kind}: exit {rc} with error rate {rate:.3f}"
assert os.path.exists(d + "/failure_reason.txt") == tripped
summary = json.load(open(d + "/profile_export_aiperf.json"))
assert summary["request_count"]["avg"] == len(recs) - len(errs)
if errs:
    assert summary["error_request_count"]["avg"] == len(errs)
print(f"{kind:15s} {len(faults):3d} injected -> {len(errs):3d} x {cls}, exit {rc}")
PY
}

for spec in http-500:unavailable throttle:throttled model-error:model_error \
            stream-error:stream_error drop:connection corrupt-crc:crc empty:invalid \
            slow-headers:timeout reasoning-only:valid; do
    kind=${spec%%:*} cls=${spec#*:}
    extra=()
    [ "$kind" = slow-headers ] && extra=(--request-timeout 400ms)
    model=mock-model
    [ "$kind" = reasoning-only ] && model=qwen-mock
    start_mock --ground-truth "$work/$kind.gt" --ttft-ms 2 --itl-ms 1 --output-tokens 4 \
        --fault "$kind:0.15" --slow-headers-ms 1500
    rc=$(run_direct "$work/$kind" --concurrency 16 --request-count 120 --model "$model" "${extra[@]}")
    stop_mock
    check "$work/$kind" "$kind" "$cls" "$rc"
done

# The gate's boundary, with the default and explicit limits.
gate_run() { # gate_run NAME ARGS...
    local name=$1; shift
    start_mock --ttft-ms 1 --itl-ms 0.2 --output-tokens 4 --split line --fault http-500:0.08
    run_direct "$work/$name" --concurrency 1 --request-count 100 "$@"
    stop_mock
}
rc=$(gate_run g1)
k=$("$SMFW_PYTHON" -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if "\"error\"" in l))' "$work/g1/profile_export.jsonl")
echo "gate: $k errors of 100, exit $rc"
[ "$k" -ge 2 ] || { echo "need at least 2 errors for the boundary test"; exit 1; }
[ "$rc" = 3 ] && [ -s "$work/g1/failure_reason.txt" ] || { echo "gate did not trip"; exit 1; }
at=$("$SMFW_PYTHON" -c "print($k/100)")
below=$("$SMFW_PYTHON" -c "print(($k-0.5)/100)")
rc=$(gate_run g2 --max-error-rate "$at")
[ "$rc" = 0 ] && [ ! -e "$work/g2/failure_reason.txt" ] || { echo "rate == limit must pass (exit $rc)"; cat "$work/g2.log"; exit 1; }
rc=$(gate_run g3 --max-error-rate "$below")
[ "$rc" = 3 ] && [ -s "$work/g3/failure_reason.txt" ] || { echo "rate > limit must fail (exit $rc)"; exit 1; }
grep -q "$k of 100 requests failed" "$work/g3/failure_reason.txt"
echo "ok"
