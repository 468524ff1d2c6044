#!/usr/bin/env bash
# test_mock_concurrent_jobs.sh - two managed benchmark jobs at once against
# one smfw-mock, whose jobs really run through the direct backend, each on its
# own thread with its own registry, configuration, results and log.
#  1. `smfw --backend managed --run` twice at the same moment: job A on
#     endpoint ep-alpha (40 requests, its own dataset of "alpha" prompts), job
#     B on ep-beta (60 requests, "beta" prompts); both exit 0 and both jobs are
#     Completed.
#  2. Independent results: A's bundle counts 40 requests and holds 40 records,
#     B's 60 and 60; every input A sent is an alpha prompt, every input B sent
#     a beta one; the mock's own CloudWatch counts agree per endpoint (40
#     invocations on ep-alpha, 60 on ep-beta).
#  3. Each job's log is its own: A's aiperf.log names ep-alpha and never
#     ep-beta, and the reverse (the core's lines go to the thread's sink).
#  4. They overlapped: the request windows of the two bundles
#     (min_request_timestamp .. max_response_timestamp) intersect, as do the
#     jobs' StartTime .. EndTime; jobs run one at a time would not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_managed_lib.bash"

"$SMFW_PYTHON" - <<'PY'
import json
for name, n in (("alpha", 40), ("beta", 60)):
    with open(f"{name}.jsonl", "w") as f:
        for i in range(n):
            f.write(json.dumps({"text": f"{name} prompt {i} " + "lorem " * (i % 7 + 3),
                                "output_length": 8}, separators=(",", ":")) + "\n")
PY

start_mock --endpoint ep-alpha --endpoint ep-beta --role SageMakerExecutionRole

# 1. Both at once. Each job paces its requests (about 4 s of sending), so two jobs run one at
# a time could not overlap.
launch() {
    local out=$1 ep=$2 ds=$3 n=$4 rate=$5
    "$SMFW" --backend managed --poll-interval 0.1s --role-arn "$ROLE" --endpoint "$ep" \
        --dataset custom --dataset-file "$ds.jsonl" --request-count "$n" --request-rate "$rate" \
        --concurrency 4 -o "$out" --run >"$out.out" 2>"$out.err"
}
launch runA ep-alpha alpha 40 10 &
pidA=$!
launch runB ep-beta beta 60 15 &
pidB=$!
set +e
wait "$pidA"
rcA=$?
wait "$pidB"
rcB=$?
set -e
[ "$rcA" -eq 0 ] || fail "job A: exit $rcA" runA.out runA.err "$work/mock.err"
[ "$rcB" -eq 0 ] || fail "job B: exit $rcB" runB.out runB.err "$work/mock.err"
JOBA=$(job_of runA)
JOBB=$(job_of runB)
[ -n "$JOBA" ] && [ -n "$JOBB" ] && [ "$JOBA" != "$JOBB" ] || fail "job names: '$JOBA' '$JOBB'" runA.err runB.err
for r in runA runB; do
    for f in output.tar.gz bundle/output/profile_export_aiperf.json bundle/output/profile_export.jsonl \
        bundle/output/inputs.json bundle/output/logs/aiperf.log; do
        [ -s "$r/$f" ] || fail "$r/$f missing" "$r.err"
    done
done

# 2-4, the jobs as the mock holds them, and each bundle on its own.
for ep in ep-alpha ep-beta; do
    "$SMFW" cloudwatch --endpoint "$ep" --since 10m --endpoint-url "$AWS_ENDPOINT_URL" \
        --region us-east-1 --format json >"cw-$ep.json" 2>"cw-$ep.err" || fail "cloudwatch $ep" "cw-$ep.err"
done
aws_py '
def bundle(run):
    b = run + "/bundle/output/"
    agg = json.load(open(b + "profile_export_aiperf.json"))
    recs = [json.loads(l) for l in open(b + "profile_export.jsonl") if l.strip()]
    inputs = json.dumps(json.load(open(b + "inputs.json")))
    log = open(b + "logs/aiperf.log").read()
    return agg, recs, inputs, log
jobs = {}
for run, name, ep, other, word, otherword, n in (
        ("runA", sys.argv[1], "ep-alpha", "ep-beta", "alpha prompt", "beta prompt", 40),
        ("runB", sys.argv[2], "ep-beta", "ep-alpha", "beta prompt", "alpha prompt", 60)):
    job = sm.describe_ai_benchmark_job(AIBenchmarkJobName=name)
    assert job["AIBenchmarkJobStatus"] == "Completed", job
    assert job["BenchmarkTarget"]["Endpoint"]["Identifier"] == ep, job["BenchmarkTarget"]
    agg, recs, inputs, log = bundle(run)
    assert agg["request_count"]["avg"] == n and "error_request_count" not in agg, (run, agg["request_count"])
    assert len(recs) == n, (run, len(recs))
    assert inputs.count(word) == n and otherword not in inputs, (run, inputs.count(word), otherword in inputs)
    assert ep in log and other not in log, (run, ep in log, other in log)
    cw = json.load(open(f"cw-{ep}.json"))["metrics"]
    assert cw["Invocations"]["total"] == n, (ep, cw["Invocations"])
    jobs[run] = (job, agg)
    print(f"2. {run}: job {name} Completed on {ep}: {n} requests, {n} records of its own prompts; "
          f"the mock served {n} invocations there; its log names only {ep}")
def window(agg):
    return agg["min_request_timestamp"]["avg"], agg["max_response_timestamp"]["avg"]
(a0, a1), (b0, b1) = window(jobs["runA"][1]), window(jobs["runB"][1])
overlap = min(a1, b1) - max(a0, b0)
assert overlap > 0, f"request windows do not overlap: A {a0:.0f}..{a1:.0f}, B {b0:.0f}..{b1:.0f}"
ja, jb = jobs["runA"][0], jobs["runB"][0]
assert max(ja["StartTime"], jb["StartTime"]) < min(ja["EndTime"], jb["EndTime"]), (ja, jb)
print(f"4. the two jobs sent requests at the same time for {overlap / 1e9:.2f} s")
' "$JOBA" "$JOBB"
echo "PASS"
