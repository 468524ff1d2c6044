#!/usr/bin/env bash
# test_trust_listing.sh - listings cannot loop (issue 21, item 8): a fake S3
# whose ListObjectsV2 repeats its continuation token (A, B, A, ...; 100,001
# requests and a misleading error before) is stopped at the repeat, an
# endless listing of fresh tokens at bundle.max_list_pages (20 here), one of
# 1 MiB pages at bundle.max_list_bytes (3 MiB), and ListAIBenchmarkJobs
# repeating its NextToken likewise; each error names the cause and the
# number of requests stays within the cap.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-list.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" <<'PY'
import os, sys, urllib.parse
from trust_lib import FakeAws, run, fail
smfw = sys.argv[1]
top = os.getcwd()
mode = {"m": "loop"}

def s3_list(h, query):
    q = urllib.parse.parse_qs(query)
    tok = q.get("continuation-token", [""])[0]
    n = int(tok[1:]) if tok.startswith("t") else 0
    nxt = {"loop": "A" if tok != "A" else "B", "fresh": f"t{n + 1}", "big": f"t{n + 1}"}[mode["m"]]
    if mode["m"] == "loop" and tok == "B":
        nxt = "A"
    pad = "<Filler>" + "x" * (1 << 20) + "</Filler>" if mode["m"] == "big" else ""
    return ("<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>" + nxt +
            "</NextContinuationToken>" + pad + "</ListBucketResult>")

jobs_calls = []
def list_jobs(body):
    jobs_calls.append(body)
    tok = body.get("NextToken")
    return {"AIBenchmarkJobs": [], "NextToken": "B" if tok == "A" else "A"}

fake = FakeAws(json_ops={"ListAIRecommendationJobs": {"AIRecommendationJobs": []},
                         "ListAIBenchmarkJobs": list_jobs}, s3_list=s3_list)
env = fake.env(top)
open("smfw.conf", "w").write("[bundle]\nmax_list_pages = 20\nmax_list_bytes = 3145728\n")

def lists():
    return sum(1 for op, p in fake.requests if op == "GET" and "list-type=2" in p)

for m, expect, cap in (("loop", "repeated a continuation token", 3),
                       ("fresh", "bundle.max_list_pages", 20),
                       ("big", "bundle.max_list_bytes", 3)):
    mode["m"] = m
    fake.requests.clear()
    rc, out, _ = run([smfw, "results", "--s3", "s3://bkt/out/"], env=env, timeout=60)
    print(f"{m}: rc={rc} list requests={lists()}")
    if rc == 0 or expect not in out or "ListObjectsV2" not in out:
        fail(f"{m}: want an error naming {expect!r}:\n{out}")
    if lists() > cap:
        fail(f"{m}: {lists()} list requests, over {cap}")
rc, out, _ = run([smfw, "results"], env=env, timeout=60)
print(f"jobs: rc={rc} ListAIBenchmarkJobs calls={len(jobs_calls)}")
if rc == 0 or "ListAIBenchmarkJobs" not in out or "repeated" not in out or len(jobs_calls) > 3:
    fail(f"jobs: want the loop stopped at the repeat ({len(jobs_calls)} calls):\n{out}")
fake.close()
print("ok")
PY
