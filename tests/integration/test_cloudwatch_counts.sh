#!/usr/bin/env bash
# test_cloudwatch_counts.sh - `smfw cloudwatch` against smfw-mock, which serves
# the CloudWatch metrics it observed (`smfw cloudwatch` is the command plugin aws's,
# plugins/command-aws): the invocations CloudWatch counts equal
# the requests the client sent (--run DIR), 5XX errors injected by the mock
# are counted and read as the server's queue limit, ModelLatency comes back in
# ms, the instance (GPU) metrics the mock does not publish are named as
# missing rather than invented, and `smfw sweep --cloudwatch` counts warm-ups too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

start_mock --ttft-ms 15 --itl-ms 2 --output-tokens 8 --fault http-500:0.1
rc=$(run_direct "$work/run" --concurrency 4 --request-count 60 --max-error-rate 0.5)
[ "$rc" = 0 ] || { cat "$work/run.log"; exit 1; }
"$SMFW" cloudwatch --run "$work/run" --endpoint-url "$MOCK_URL" --region us-east-1 \
    --format json > "$work/cw.json"
"$SMFW" cloudwatch --run "$work/run" --endpoint-url "$MOCK_URL" --region us-east-1 \
    -o "$work/cwout" > "$work/cw.md"
"$SMFW_PYTHON" - "$work" <<'PY'
import json, sys
w = sys.argv[1]
cw = json.load(open(w + "/cw.json"))
recs = [json.loads(l) for l in open(w + "/run/profile_export.jsonl")]
errors = [r for r in recs if r.get("error")]
m = cw["metrics"]
assert cw["endpoint"] == "bench", cw["endpoint"]
assert m["Invocations"]["total"] == len(recs) == 60, (m["Invocations"], len(recs))
assert errors, "the mock injected no 5xx"
assert m["Invocation5XXErrors"]["total"] == len(errors), (m["Invocation5XXErrors"], len(errors))
assert m["Invocation4XXErrors"]["total"] == 0
ml = m["ModelLatency"]["mean"]            # published in microseconds, reported in ms
assert 10 < ml < 200, ml
for g in ("GPUUtilization", "GPUMemoryUtilization", "CPUUtilization", "MemoryUtilization"):
    assert m[g]["present"] is False and "mean" not in m[g], m[g]
f = " ".join(cw["findings"])
assert "exactly the 60 requests" in f, f
assert "Invocation5XXErrors" in f and "queue limit" in f, f
assert "no data for GPUUtilization" in f, f
print("CloudWatch: %d invocations, %d 5XX, ModelLatency %.1f ms" %
      (m["Invocations"]["total"], m["Invocation5XXErrors"]["total"], ml))
PY
grep -q "| Invocations | AWS/SageMaker | count | 60.00 |" "$work/cw.md"
[ -s "$work/cwout/cloudwatch.md" ] && [ -s "$work/cwout/cloudwatch.json" ]
# --since: everything the mock served in the last minutes, endpoint by name
"$SMFW" cloudwatch --endpoint bench --since 10m --endpoint-url "$MOCK_URL" --region us-east-1 \
    --format json > "$work/since.json"
"$SMFW_PYTHON" -c "
import json; m = json.load(open('$work/since.json'))['metrics']
assert m['Invocations']['total'] == 60, m['Invocations']"
# an explicit window and request count (what run/sweep --cloudwatch hand the command),
# saved into a folder: the same invocations, read against the count given
read -r cw_start cw_end < <("$SMFW_PYTHON" -c "
import json; c = json.load(open('$work/cw.json')); print(c['start_time'], c['end_time'])")
"$SMFW" cloudwatch --endpoint bench --start "$cw_start" --end "$cw_end" --sent 61 \
    --save "$work/saved" --endpoint-url "$MOCK_URL" --region us-east-1 -q > "$work/quiet.out"
[ ! -s "$work/quiet.out" ] || { echo "-q with --save printed:"; cat "$work/quiet.out"; exit 1; }
grep -q "| Invocations | AWS/SageMaker | count | 60.00 |" "$work/saved/cloudwatch.md"
grep -q "counted 60 invocations but the client sent 61 requests" "$work/saved/cloudwatch.md" ||
    { cat "$work/saved/cloudwatch.md"; exit 1; }
[ -s "$work/saved/cloudwatch.json" ]
# bad values name their flag; a window given twice is refused; the private mock has no CloudWatch
for bad in "--start 5|--start and --end go together" "--start 9 --end 3|--end 3 is not after" \
    "--sent x --run $work/run|--sent wants a whole number" "--wait soon|--wait wants a duration" \
    "--start 1 --end 2 --since 5m|give one window" "--format xml|--format wants markdown or json"; do
    args=${bad%%|*} want=${bad#*|}
    # shellcheck disable=SC2086
    if "$SMFW" cloudwatch --endpoint bench $args 2> "$work/bad.err"; then
        echo "smfw cloudwatch $args succeeded"; exit 1
    fi
    grep -q -- "$want" "$work/bad.err" || { echo "$args:"; cat "$work/bad.err"; exit 1; }
done
rc=0; "$SMFW" cloudwatch --endpoint mock --since 5m 2> "$work/mock.err" || rc=$?
[ "$rc" = 1 ] && grep -q 'not "mock"' "$work/mock.err" || { echo "rc=$rc"; cat "$work/mock.err"; exit 1; }
# a variant the endpoint does not have: no data, said so
"$SMFW" cloudwatch --endpoint bench --variant Nope --since 10m --endpoint-url "$MOCK_URL" \
    --region us-east-1 > "$work/nope.md"
grep -q "no Invocations data points" "$work/nope.md"
stop_mock

# a sweep with --cloudwatch counts every request it sent, warm-ups included
start_mock --ttft-ms 5 --itl-ms 1 --output-tokens 4
"$SMFW" sweep --backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 \
    --concurrency 1,2 --request-count 20 --cloudwatch --progress none -o "$work/sweep" \
    > "$work/sweep.log" 2>&1 || { cat "$work/sweep.log"; exit 1; }
grep -q "exactly the 47 requests" "$work/sweep/cloudwatch.md" ||
    { cat "$work/sweep/cloudwatch.md"; exit 1; }   # 2 x 20 + (1 + 4) + 2 warm-ups
stop_mock

# `smfw run --cloudwatch` writes the server's view into the run folder
start_mock --ttft-ms 5 --itl-ms 1 --output-tokens 4
"$SMFW" run --backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 \
    --concurrency 3 --request-count 12 --cloudwatch --progress none -o "$work/runcw" \
    > "$work/runcw.log" 2>&1 || { cat "$work/runcw.log"; exit 1; }
grep -q "exactly the 12 requests" "$work/runcw/cloudwatch.md" ||
    { cat "$work/runcw/cloudwatch.md" "$work/runcw.log"; exit 1; }
[ -s "$work/runcw/cloudwatch.json" ]
# The window in ISO 8601 UTC, not Unix seconds.
grep -qE "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z to [0-9-]{10}T" "$work/runcw/cloudwatch.md" ||
    { echo "the CloudWatch window is not ISO 8601:"; head -3 "$work/runcw/cloudwatch.md"; exit 1; }
grep -q "exactly the 12 requests" "$work/runcw.log"   # also printed after the run
echo "cloudwatch OK"
