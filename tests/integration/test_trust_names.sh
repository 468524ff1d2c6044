#!/usr/bin/env bash
# test_trust_names.sh - names that become paths (issue 21, item 3): a fake
# SageMaker on loopback answers ListAIBenchmarkJobs with the job name
# "../../ESCAPED_JOB_DIR"; `smfw results` must refuse it, naming the field
# and SageMaker's pattern, and write nothing outside ./smfw-results (the
# parent tree is listed before and after). A user's --job "../x" is refused
# the same way; an --s3 bundle named with dots and controls gets a
# sanitised folder inside ./smfw-results.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-names.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" <<'PY'
import os, sys
from trust_lib import FakeAws, aiperf_summary, run, tarball, tree, fail
smfw = sys.argv[1]
top = os.getcwd()
cwd = os.path.join(top, "a", "b", "c")
os.makedirs(cwd)
tarball(os.path.join(top, "bundle.tgz"), [("profile_export_aiperf.json", aiperf_summary())])
tgz = open(os.path.join(top, "bundle.tgz"), "rb").read()
os.remove(os.path.join(top, "bundle.tgz"))
hostile = "../../ESCAPED_JOB_DIR"
fake = FakeAws(
    json_ops={
        "ListAIRecommendationJobs": {"AIRecommendationJobs": []},
        "ListAIBenchmarkJobs": {"AIBenchmarkJobs": [{"AIBenchmarkJobName": hostile,
                                "AIBenchmarkJobArn": "arn:aws:sagemaker:us-east-1:1:ai-benchmark-job/x",
                                "CreationTime": 1.0}]},
        "DescribeAIBenchmarkJob": {"AIBenchmarkJobName": hostile, "AIBenchmarkJobStatus": "Completed",
                                   "OutputConfig": {"S3OutputLocation": "s3://bkt/out/"}},
    },
    objects={"/bkt/out/output.tar.gz": tgz, "/bkt/x/..\x1b]0;t\x07/output.tar.gz": tgz})
env = fake.env(top)

def outside_changes(before):
    after = tree(top)
    return sorted(k for k in set(after) ^ set(before)
                  if not k.startswith("a/b/c/smfw-results") and not k.startswith("cache"))

before = tree(top)
rc, out, _ = run([smfw, "results"], env=env, cwd=cwd)
print("newest:", rc, out)
if rc == 0 or "AIBenchmarkJobName" not in out or "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}" not in out:
    fail(f"a hostile job name from the service was not refused by name and pattern:\n{out}")
if outside_changes(before):
    fail(f"written outside ./smfw-results: {outside_changes(before)}")

rc, out, _ = run([smfw, "results", "--job", "../x"], env=env, cwd=cwd)
if rc == 0 or "--job" not in out or "[a-zA-Z0-9]" not in out:
    fail(f"--job ../x was not refused:\n{out}")
if outside_changes(before):
    fail(f"written outside ./smfw-results: {outside_changes(before)}")

rc, out, _ = run([smfw, "results", "--s3", "s3://bkt/x/..\x1b]0;t\x07/output.tar.gz"], env=env, cwd=cwd)
print("s3:", rc, out)
if rc != 0:
    fail(f"--s3 with an odd key failed:\n{out}")
if outside_changes(before):
    fail(f"written outside ./smfw-results: {outside_changes(before)}")
made = os.listdir(os.path.join(cwd, "smfw-results"))
if any(c in n for n in made for c in "\x1b\x07/") or any(n.startswith(".") for n in made):
    fail(f"unsanitised folder names: {made!r}")
fake.close()
print("ok")
PY
