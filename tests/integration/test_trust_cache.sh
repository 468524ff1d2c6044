#!/usr/bin/env bash
# test_trust_cache.sh - a cached bundle is reused only for the same object
# (issue 21, item 2): a fake S3 on loopback serves bundle A (10 requests)
# at s3://bkt/out/output.tar.gz, then bundle B (20 requests, another ETag)
# under the same key; the second `smfw results --s3` must show 20 (it showed
# A's 10 and exited 0 before), the third reuses B without a download. For
# --job, the same job name in another account (another ARN and bundle)
# must show that account's bundle. A region change (same bucket, key and ETag;
# same job name) is another object too. smfw keys on the ETag, not the
# VersionId: a new version with other bytes has another ETag (tested above),
# and one with the same ETag holds the same bytes (an MD5 of them, or of
# their parts), so reusing it shows the right numbers.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-cache.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" <<'PY'
import os, re, sys
from trust_lib import FakeAws, aiperf_summary, run, tarball, fail
smfw = sys.argv[1]
top = os.getcwd()

def bundle(n):
    tarball("t.tgz", [("profile_export_aiperf.json", aiperf_summary(request_count=n))])
    data = open("t.tgz", "rb").read()
    os.remove("t.tgz")
    return data

A, B = bundle(10), bundle(20)
desc = {"AIBenchmarkJobName": "job1", "AIBenchmarkJobStatus": "Completed",
        "AIBenchmarkJobArn": "arn:aws:sagemaker:us-east-1:111111111111:ai-benchmark-job/job1",
        "OutputConfig": {"S3OutputLocation": "s3://acct1/out/"}}
fake = FakeAws(json_ops={"DescribeAIBenchmarkJob": lambda b: desc},
               objects={"/bkt/out/output.tar.gz": A, "/acct1/out/job1/output.tar.gz": A,
                        "/acct2/out/job1/output.tar.gz": B})
env = fake.env(top)

def valid(argv, want, what):
    rc, out, _ = run([smfw, "results", *argv], env=env)
    m = re.search(r"Request Count \(requests\) +(\d+)\.00\n", out)
    got = int(m.group(1)) if m else None
    print(f"{what}: rc={rc} valid={got}")
    if rc != 0 or got != want:
        fail(f"{what}: want valid {want}, got {got} (rc {rc}):\n{out}")
    return out

valid(["--s3", "s3://bkt/out/output.tar.gz"], 10, "s3 first")
fake.objects["/bkt/out/output.tar.gz"] = B
out = valid(["--s3", "s3://bkt/out/output.tar.gz"], 20, "s3 changed")
if "downloading" not in out:
    fail("the changed object was not downloaded again")
out = valid(["--s3", "s3://bkt/out/output.tar.gz"], 20, "s3 same")
if "downloading" in out or "downloaded before" not in out:
    fail(f"the same object was not reused:\n{out}")
# The same bucket and key (same bytes, same ETag) read in another region is another object:
# downloaded again, never taken from the us-east-1 entry; then reused in that region.
def gets():
    return sum(1 for op, p in fake.requests if op == "GET" and p.startswith("/bkt/out/output.tar.gz"))
west = dict(env, AWS_REGION="us-west-2")
n = gets()
rc, out, _ = run([smfw, "results", "--s3", "s3://bkt/out/output.tar.gz"], env=west)
print(f"s3 other region: rc={rc} GETs {gets() - n}")
if rc != 0 or "downloaded before" in out or "downloading" not in out or gets() == n:
    fail(f"the us-east-1 entry was reused for us-west-2 (rc {rc}):\n{out}")
n = gets()
rc, out, _ = run([smfw, "results", "--s3", "s3://bkt/out/output.tar.gz"], env=west)
if rc != 0 or "downloaded before" not in out or gets() != n:
    fail(f"the us-west-2 entry was not reused (rc {rc}):\n{out}")
valid(["--job", "job1"], 10, "job account 1")
desc = dict(desc, AIBenchmarkJobArn="arn:aws:sagemaker:us-east-1:222222222222:ai-benchmark-job/job1",
            OutputConfig={"S3OutputLocation": "s3://acct2/out/"})
valid(["--job", "job1"], 20, "job account 2")
# The same job name and account in another region: that region's job and bundle.
desc = dict(desc, AIBenchmarkJobArn="arn:aws:sagemaker:us-west-2:222222222222:ai-benchmark-job/job1",
            OutputConfig={"S3OutputLocation": "s3://west/out/"})
fake.objects["/west/out/job1/output.tar.gz"] = bundle(30)
env = west
valid(["--job", "job1"], 30, "job other region")
fake.close()
print("ok")
PY
