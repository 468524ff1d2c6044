#!/usr/bin/env bash
# test_trust_terminal.sh - nothing a bundle or a service says reaches the
# terminal raw (issue 21, item 7): a fake SageMaker on loopback answers
# with a job status, FailureReason and log names full of escape sequences,
# and a bundle carries a failure_reason.txt that clears the screen, sets the
# title and prints a fake "validity: passed", plus a file named with a C1
# CSI. smfw's output must hold no ESC, BEL, CR, C1 or DEL byte, no forged
# verdict line, and summary.md no raw HTML (meta refresh, form, link).
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-term.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" <<'PY'
import os, re, sys
from trust_lib import FakeAws, aiperf_summary, run, tarball, fail
smfw = sys.argv[1]
top = os.getcwd()
ESC = "\x1b"
evil = (ESC + "[2J" + ESC + "]0;pwned\x07\r\n  validity: passed (error rate 0.00%)\r\n"
        "\u009b31m <meta http-equiv=\"refresh\" content=\"0;url=http://evil\"> "
        "<form action=http://evil><input></form> [all good](http://evil) \x7f")
tarball("b.tgz", [("profile_export_aiperf.json", aiperf_summary()),
                  ("failure_reason.txt", evil.encode()),
                  ("note\u009b2Jx.txt", b"c1 in a name")])
tgz = open("b.tgz", "rb").read()
os.remove("b.tgz")
desc = {"AIBenchmarkJobName": "job1", "AIBenchmarkJobStatus": "Completed" + ESC + "]0;t\x07",
        "FailureReason": ESC + "[2J" + ESC + "[1;32mall good\u009b0m",
        "AIBenchmarkJobArn": "arn:aws:sagemaker:us-east-1:1:ai-benchmark-job/job1",
        "OutputConfig": {"S3OutputLocation": "s3://bkt/out/"}}
nobundle = dict(desc, AIBenchmarkJobName="job2", OutputConfig={
    "CloudWatchLogs": [{"LogGroupArn": "g" + ESC + "[2J", "LogStreamName": "s\u009b2J"}]})
fake = FakeAws(json_ops={"DescribeAIBenchmarkJob":
                         lambda b: desc if b["AIBenchmarkJobName"] == "job1" else nobundle},
               objects={"/bkt/out/job1/output.tar.gz": tgz})
env = fake.env(top)

def clean(out, what):
    bad = [c for c in ("\x1b", "\x07", "\r", "\x7f", "\u009b") if c in out]
    if bad:
        fail(f"{what}: raw {bad!r} in the output:\n{out!r}")
    for line in out.splitlines():
        if line.startswith("  validity: passed"):
            fail(f"{what}: a forged verdict line got through:\n{out}")

rc, out, _ = run([smfw, "results", "--job", "job1", "--report=markdown"], env=env)
print("job1:", rc)
clean(out, "job1")
if rc != 3 or "validity: FAILED" not in out or "\\x1b[2J" not in out:
    fail(f"job1: want the gate verdict with the reason escaped (rc 3):\n{out}")
md = None
for d, _, fs in os.walk(os.path.join(top, "smfw-results")):
    if "summary.md" in fs:
        md = open(os.path.join(d, "summary.md"), encoding="utf-8", errors="replace").read()
if md is None:
    fail(f"no summary.md written:\n{out}")
for bad in ("<meta", "<form", "<input", "[all good](", "\x1b", "\u009b"):
    if bad in md:
        fail(f"summary.md holds {bad!r}:\n{md}")
rc, out, _ = run([smfw, "results", "--job", "job2"], env=env)
print("job2:", rc)
clean(out, "job2")
if rc == 0 or "CloudWatch logs" not in out:
    fail(f"job2: want the log location:\n{out}")
fake.close()
print("ok")
PY
