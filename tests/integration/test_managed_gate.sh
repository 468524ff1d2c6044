#!/usr/bin/env bash
# test_managed_gate.sh - managed jobs that fail, against smfw-mock.
#  1. ~20% of the endpoint's answers are HTTP 500 (mock --fault http-500:0.2;
#     enough that every level of the 60-request runs trips the 1% gate, not just most):
#     SageMaker's 1% gate fails the job, whose bundle is still uploaded.
#     smfw downloads it, prints the metrics over the valid requests (equal
#     to the bundle's JSON, the invalid count too), quotes the job's
#     FailureReason (as DescribeAIBenchmarkJob gives it) and exits 3;
#     `smfw results --local` and `smfw results --job` say the same.
#  2. A concurrency list on that endpoint: one block per level, each with
#     its verdict, exit 3.
#  3. A job that fails without results (the mock refuses gamma arrivals):
#     exit 2 with the FailureReason and where the logs would be.
#  4. Hostile bundles in S3 (`smfw results --s3`): a ".." entry, a symbolic
#     link out of the folder and a file written through it are refused with
#     the entry named; nothing is written outside, nothing left inside.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_managed_lib.bash"

start_mock --fault http-500:0.2

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
grep -q "validity: FAILED" res-local.out || fail "results --local verdict" res-local.out
grep -qF "  FailureReason: $(cat reason.txt)" res-job.out || fail "results --job reason" res-job.out
cmp -s gate1/output.tar.gz fetched/output.tar.gz || fail "results --job fetched another bundle"

# 2. A concurrency list: a block and a verdict per level.
managed gate2 --endpoint mock-endpoint --request-count 60 --concurrency 1,2 --run
expect_rc 3 gate2
check_numbers gate2 gate2/bundle/output/concurrency_1/profile_export_aiperf.json \
    gate2/bundle/output/concurrency_2/profile_export_aiperf.json
[ "$(grep -c "validity: FAILED" gate2.out)" -eq 2 ] || fail "level verdicts" gate2.out
grep -q "failed its validity gate: AlgorithmError: Benchmark error rate .* at concurrency 1" gate2.err ||
    fail "list reason" gate2.err

# 3. A job that fails with no results: exit 2, the reason and the logs' location.
managed fail3 --endpoint mock-endpoint --request-rate 5 --arrival gamma --run
expect_rc 2 fail3
grep -q "benchmark job $(job_of fail3) failed: ClientError: .*gamma" fail3.err || fail "no ClientError" fail3.err
grep -q "CloudWatch log" fail3.err || fail "no log location" fail3.err

# 4. Hostile tarballs through the download path.
aws_py '
import io, tarfile
def tarball(entries):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, kind, arg in entries:
            ti = tarfile.TarInfo(name)
            if kind == "file":
                ti.size = len(arg)
                t.addfile(ti, io.BytesIO(arg))
            else:
                ti.type, ti.linkname = tarfile.SYMTYPE, arg
                t.addfile(ti)
    return buf.getvalue()
ok = b"{}"
evil = {"dotdot": [("output/profile_export_aiperf.json", "file", ok), ("output/../../escaped.txt", "file", b"x")],
        "symlink": [("output/link", "link", "/tmp"), ("output/link/escaped.txt", "file", b"x")],
        "relative": [("output/up", "link", "../.."), ("output/up/escaped.txt", "file", b"x")]}
for name, entries in evil.items():
    s3.put_object(Bucket="'"$BUCKET"'", Key=f"evil/{name}/output.tar.gz", Body=tarball(entries))
'
for name in dotdot symlink relative; do
    set +e
    "$SMFW" results --s3 "s3://$BUCKET/evil/$name/" -o "evil-$name" >"evil-$name.out" 2>"evil-$name.err"
    rc=$?
    set -e
    [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] || fail "hostile $name: exit $rc" "evil-$name.out" "evil-$name.err"
    grep -q "refus\|not allowed\|outside" "evil-$name.err" || fail "hostile $name: no reason" "evil-$name.err"
    [ -z "$(ls -A "evil-$name/bundle" 2>/dev/null)" ] || fail "hostile $name: files left in the bundle folder"
done
[ -z "$(find "$work" /tmp -maxdepth 2 -name escaped.txt 2>/dev/null)" ] || fail "a hostile entry escaped"
echo "managed gate and failures against smfw-mock: all checks passed"
