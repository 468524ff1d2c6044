#!/usr/bin/env bash
# test_managed_gate.sh - managed jobs that fail, against smfw-mock.
#  1. ~5% of the endpoint's answers are HTTP 500 (mock --fault http-500:0.05):
#     SageMaker's 1% gate fails the job, whose bundle is still uploaded.
#     smfw downloads it, prints the metrics over the valid requests (equal
#     to the bundle's JSON, the invalid count too), quotes the job's
#     FailureReason (as DescribeAIBenchmarkJob gives it) and exits 3;
#     `smfw results --local` and `smfw results --job` say the same.
#  2. A concurrency list on that endpoint: one block per level, each with
#     its verdict, exit 3.
#  3. A job that fails without results (the mock refuses gamma arrivals):
#     exit 2 with the FailureReason and where the logs would be.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_managed_lib.bash"

start_mock --fault http-500:0.05

# 1. The gate trips: exit 3, bundle downloaded, metrics shown, reason quoted.
managed gate1 --endpoint mock-endpoint --request-count 120 --run
expect_rc 3 gate1
for f in output.tar.gz bundle/output/profile_export_aiperf.json bundle/output/failure_reason.txt \
    bundle/output/profile_export.jsonl profile_export_aiperf.json summary.md failure_reason.txt; do
    [ -s "gate1/$f" ] || fail "gate1/$f missing" gate1.err
done
check_numbers gate1 gate1/bundle/output/profile_export_aiperf.json
JOB=$(job_of gate1)
aws_py '
job = sm.describe_ai_benchmark_job(AIBenchmarkJobName=sys.argv[1])
assert job["AIBenchmarkJobStatus"] == "Failed", job["AIBenchmarkJobStatus"]
reason = job["FailureReason"]
assert reason.startswith("AlgorithmError: Benchmark error rate "), reason
agg = json.load(open("gate1/bundle/output/profile_export_aiperf.json"))
valid, invalid = agg["request_count"]["avg"], agg["error_request_count"]["avg"]
assert valid + invalid == 120 and invalid / 120 > 0.01, (valid, invalid)
out, err = open("gate1.out").read(), open("gate1.err").read()
assert f"validity: FAILED - {reason}\n" in out, out
assert f"failed its validity gate: {reason} (the metrics cover the valid requests)" in err, err
assert f"Request Count (requests)" in out and f"{valid:.2f}" in out
print(f"1. gate: {int(invalid)} of 120 failed; FailureReason quoted; exit 3")
open("reason.txt", "w").write(reason)
' "$JOB"
set +e
"$SMFW" results --local gate1 >res-local.out 2>res-local.err
rc_local=$?
"$SMFW" results --job "$JOB" -o fetched >res-job.out 2>res-job.err
rc_job=$?
set -e
[ "$rc_local" -eq 3 ] || fail "results --local: exit $rc_local" res-local.out res-local.err
[ "$rc_job" -eq 3 ] || fail "results --job: exit $rc_job" res-job.out res-job.err
check_numbers res-local gate1/bundle/output/profile_export_aiperf.json
check_numbers res-job fetched/bundle/output/profile_export_aiperf.json
grep -q "Validity: FAILED" res-local.out || fail "results --local verdict" res-local.out
grep -qF "  FailureReason: $(cat reason.txt)" res-job.out || fail "results --job reason" res-job.out
cmp -s gate1/output.tar.gz fetched/output.tar.gz || fail "results --job fetched another bundle"

# 2. A concurrency list: a block and a verdict per level.
managed gate2 --endpoint mock-endpoint --request-count 60 --concurrency 1,2 --run
expect_rc 3 gate2
check_numbers gate2 gate2/bundle/output/concurrency_1/profile_export_aiperf.json \
    gate2/bundle/output/concurrency_2/profile_export_aiperf.json
[ "$(grep -c "Validity: FAILED" gate2.out)" -eq 2 ] || fail "level verdicts" gate2.out
grep -q "failed its validity gate: AlgorithmError: Benchmark error rate .* at concurrency 1" gate2.err ||
    fail "list reason" gate2.err

# 3. A job that fails with no results: exit 2, the reason and the logs' location.
managed fail3 --endpoint mock-endpoint --request-rate 5 --arrival gamma --run
expect_rc 2 fail3
grep -q "benchmark job $(job_of fail3) failed: ClientError: .*gamma" fail3.err || fail "no ClientError" fail3.err
grep -q "CloudWatch log" fail3.err || fail "no log location" fail3.err
echo "managed gate and failures against smfw-mock: all checks passed"
