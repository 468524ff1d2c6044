#!/usr/bin/env bash
# test_jobs_cli.sh - `smfw jobs list|show|stop|delete` against smfw-mock's AI benchmark jobs
# and workload configs, with botocore (an independent client of the same mock) as the
# reference: the listing pages through more than one page and equals botocore's, the filters
# and --max-items/--all/--format json hold, show prints what DescribeAIBenchmarkJob says, stop
# stops a running job and delete removes a config (botocore sees both), every refusal comes
# before any request with exit 1, an AWS error is exit 2, and every request body smfw sent
# (recorded by json_record_proxy.py) is valid in botocore's SageMaker model. Last, the
# mock's AI recommendation jobs: list and show --kind recommendation equal botocore's, and
# stop --kind recommendation stops a running one and its benchmark job.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SMFW_TESTDATA_DIR:?}" "${SMFW_PYTHON:?}"
# shellcheck source=test_managed_lib.bash
source "$here/test_managed_lib.bash"

start_mock --endpoint mock-endpoint --ttft-ms 20
MOCK_URL=$URL
# Five configs, three quick jobs (done at once) and one long one (about 30 s of requests).
aws_py '
spec = lambda n: {"WorkloadSpec": {"Inline": json.dumps({"benchmark": {"type": "aiperf"},
                  "parameters": {"concurrency": 1, "request_count": n}})}}
for i in range(5):
    sm.create_ai_workload_config(AIWorkloadConfigName=f"wl-{i}", AIWorkloadConfigs=spec(2 if i < 4 else 1000))
def job(name, wl):
    sm.create_ai_benchmark_job(AIBenchmarkJobName=name, AIWorkloadConfigIdentifier=wl,
        BenchmarkTarget={"Endpoint": {"Identifier": "mock-endpoint"}},
        OutputConfig={"S3OutputLocation": "s3://out-bucket/jobs/"}, RoleArn="'"$ROLE"'")
for i in range(3):
    job(f"quick-{i}", f"wl-{i}")
import time
time.sleep(1.5)
job("long-run", "wl-4")
'

# Everything smfw sends goes through the recording proxy.
"$SMFW_PYTHON" "$here/json_record_proxy.py" "$MOCK_URL" "$work/proxy.log" "$work/proxy.port" \
    >"$work/proxy.out" 2>&1 &
proxy_pid=$!
trap 'kill $proxy_pid 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
[ -s "$work/proxy.port" ] || fail "the recording proxy did not start" "$work/proxy.out"
export AWS_ENDPOINT_URL="http://127.0.0.1:$(cat "$work/proxy.port")"
# botocore, the reference, talks to the mock itself: the proxy records only what smfw sends.
bpy() { AWS_ENDPOINT_URL="$MOCK_URL" aws_py "$@"; }

jobs() { # OUT ARGS... : smfw jobs ARGS into OUT.out / OUT.err; sets rc
    local out=$1
    shift
    set +e
    "$SMFW" jobs "$@" >"$out.out" 2>"$out.err"
    rc=$?
    set -e
}
requests() { grep -c "\"SageMaker.$1\"" "$work/proxy.log" || true; }

# 1. Every job, two per page: the table equals botocore's listing, newest first.
jobs all list --all --page-size 2
expect_rc 0 all
[ "$(requests ListAIBenchmarkJobs)" -eq 2 ] || fail "4 jobs at 2 a page took $(requests ListAIBenchmarkJobs) requests" "$work/proxy.log"
bpy '
got = [l.split()[0] for l in open("all.out").read().splitlines()[1:]]
jobs = sm.list_ai_benchmark_jobs(MaxResults=100)["AIBenchmarkJobs"]
want = [j["AIBenchmarkJobName"] for j in sorted(jobs, key=lambda j: j["CreationTime"], reverse=True)]
assert got == want and len(got) == 4, (got, want)
head = open("all.out").read().splitlines()[0].split()
assert head == ["NAME", "STATUS", "CREATED", "ENDED", "WORKLOAD", "CONFIG"], head
status = {j["AIBenchmarkJobName"]: j["AIBenchmarkJobStatus"] for j in jobs}
for line in open("all.out").read().splitlines()[1:]:
    name, st = line.split()[:2]
    assert st == status[name], (line, status)
' || fail "the listing differs from botocore's" all.out

# 2. --max-items stops early and says more remain; --format json says Truncated.
jobs some list --max-items 3 --page-size 2 --format json
expect_rc 0 some
bpy '
d = json.load(open("some.out"))
assert len(d["AIBenchmarkJobs"]) == 3 and d["Truncated"] is True, d
assert {"AIBenchmarkJobName", "AIBenchmarkJobArn", "AIBenchmarkJobStatus", "CreationTime"} <= set(d["AIBenchmarkJobs"][0]), d
' || fail "--max-items 3 --format json" some.out
grep -q "the first 3 benchmark jobs shown; --all lists every one" some.err || fail "no word about the rest" some.err

# 3. Filters go to the service: status, name, creation time.
jobs done list --status completed --name-contains quick
expect_rc 0 done
[ "$(tail -n +2 done.out | wc -l)" -eq 3 ] || fail "--status completed --name-contains quick" done.out
jobs none list --created-after 2099-01-01
expect_rc 0 none
grep -qx "no benchmark jobs" none.out || fail "a future --created-after" none.out
"$SMFW_PYTHON" - "$work/proxy.log" <<'PY' || fail "the filters were not sent" "$work/proxy.log"
import json, sys
bodies = [json.loads(l)["body"] for l in open(sys.argv[1]) if '"SageMaker.ListAIBenchmarkJobs"' in l]
assert any(b.get("StatusEquals") == "Completed" and b.get("NameContains") == "quick" for b in bodies), bodies
assert any(b.get("CreationTimeAfter") == 4070908800 for b in bodies), bodies
assert all(b["SortBy"] == "CreationTime" and b["SortOrder"] == "Descending" for b in bodies), bodies
PY

# 4. Workload configs, all of them, as botocore lists them.
jobs configs list --kind config --all --format json
expect_rc 0 configs
bpy '
got = sorted(c["AIWorkloadConfigName"] for c in json.load(open("configs.out"))["AIWorkloadConfigs"])
want = sorted(c["AIWorkloadConfigName"] for c in sm.list_ai_workload_configs()["AIWorkloadConfigs"])
assert got == want == [f"wl-{i}" for i in range(5)], (got, want)
' || fail "the configs differ from botocore's" configs.out

# 5. show: every member DescribeAIBenchmarkJob answers.
jobs show show quick-1
expect_rc 0 show
bpy '
d = sm.describe_ai_benchmark_job(AIBenchmarkJobName="quick-1")
lines = dict(l.split(": ", 1) for l in open("show.out").read().splitlines())
assert lines["AIBenchmarkJobName"] == "quick-1" and lines["AIBenchmarkJobArn"] == d["AIBenchmarkJobArn"], lines
assert lines["AIBenchmarkJobStatus"] == d["AIBenchmarkJobStatus"], lines
assert lines["CreationTime"] == d["CreationTime"].strftime("%Y-%m-%dT%H:%M:%SZ"), lines
assert json.loads(lines["BenchmarkTarget"]) == {"Endpoint": {"Identifier": "mock-endpoint"}}, lines
' || fail "show quick-1" show.out

# 6. stop the running job; delete a config. botocore sees both.
jobs stop stop long-run
expect_rc 0 stop
grep -q "^stopping benchmark job long-run (arn:aws:sagemaker:us-east-1:111122223333:ai-benchmark-job/long-run)$" stop.out ||
    fail "stop's answer" stop.out
jobs del delete wl-3 --kind config
expect_rc 0 del
bpy '
st = sm.describe_ai_benchmark_job(AIBenchmarkJobName="long-run")["AIBenchmarkJobStatus"]
assert st in ("Stopping", "Stopped"), st
names = [c["AIWorkloadConfigName"] for c in sm.list_ai_workload_configs()["AIWorkloadConfigs"]]
assert "wl-3" not in names and len(names) == 4, names
' || fail "stop or delete did not happen" stop.out del.out

# 7. Refusals before any request (exit 1); the service's own refusal is exit 2.
before=$(wc -l <"$work/proxy.log")
for args in "show not_a_name!" "stop wl-1 --kind config" "list --kind config --status Completed" \
    "list --status Done" "list --all --max-items 5" "list --page-size 101" "show quick-1 --all" \
    "list --created-after yesterday" "frobnicate" "show" "list --name-contains a_b"; do
    # shellcheck disable=SC2086
    jobs bad $args
    [ "$rc" -eq 1 ] || fail "smfw jobs $args: exit $rc, want 1" bad.out bad.err
    grep -q "error:" bad.err || fail "smfw jobs $args: no sentence" bad.err
done
[ "$(wc -l <"$work/proxy.log")" -eq "$before" ] || fail "a refused command sent a request" "$work/proxy.log"
jobs gone show no-such-job
[ "$rc" -eq 2 ] || fail "describe of a missing job: exit $rc, want 2" gone.out gone.err
grep -q "DescribeAIBenchmarkJob failed" gone.err || fail "the service's refusal is not named" gone.err

# 8. Every body smfw sent is one botocore's SageMaker model accepts.
PYTHONPATH="$here" "$SMFW_PYTHON" - "$SMFW_TESTDATA_DIR/awsmodels/sagemaker/2017-07-24/service-2.json" \
    "$work/proxy.log" <<'PY' || fail "a request body does not match botocore's model" "$work/proxy.log"
import collections, json, sys
from botocore_check import load_model, check_body
model = load_model(sys.argv[1], "sagemaker")
seen = collections.Counter()
for line in open(sys.argv[2]):
    rec = json.loads(line)
    op = rec["target"].split(".", 1)[1]
    check_body(model, op, rec["body"])
    seen[op] += 1
want = {"ListAIBenchmarkJobs", "ListAIWorkloadConfigs", "DescribeAIBenchmarkJob",
        "StopAIBenchmarkJob", "DeleteAIWorkloadConfig"}
assert want <= set(seen), seen
print("botocore's SageMaker model accepts every request smfw jobs sent:",
      ", ".join(f"{k} x{v}" for k, v in sorted(seen.items())))
PY

# 9. Recommendation jobs (smfw-mock runs them, docs/mock.md): list and show as botocore sees
# them, and stop of a running one.
bpy '
import time
spec = lambda n: {"WorkloadSpec": {"Inline": json.dumps({"benchmark": {"type": "aiperf"},
                  "parameters": {"concurrency": 1, "request_count": n}})}}
sm.create_ai_workload_config(AIWorkloadConfigName="wl-rec", AIWorkloadConfigs=spec(3))
sm.create_ai_workload_config(AIWorkloadConfigName="wl-rec-long", AIWorkloadConfigs=spec(1000))
def rec(name, wl, types):
    sm.create_ai_recommendation_job(AIRecommendationJobName=name, AIWorkloadConfigIdentifier=wl,
        ModelSource={"S3": {"S3Uri": "s3://models/m/"}}, OutputConfig={"S3OutputLocation": "s3://out-bucket/recs/"},
        PerformanceTarget={"Constraints": [{"Metric": "throughput"}]}, RoleArn="'"$ROLE"'",
        ComputeSpec={"InstanceTypes": types})
rec("rec-a", "wl-rec", ["ml.g5.xlarge", "ml.p5.48xlarge"])
time.sleep(0.05)
rec("rec-b", "wl-rec", [])
for name in ("rec-a", "rec-b"):
    t0 = time.time()
    while sm.describe_ai_recommendation_job(AIRecommendationJobName=name)["AIRecommendationJobStatus"] != "Completed":
        assert time.time() - t0 < 30, sm.describe_ai_recommendation_job(AIRecommendationJobName=name)
        time.sleep(0.1)
rec("rec-long", "wl-rec-long", ["ml.g6.xlarge"])
' || fail "the recommendation jobs did not complete" "$work/mock.err"
jobs recs list --kind recommendation --all --page-size 1
expect_rc 0 recs
jobs recsj list --kind recommendation --status completed --format json
expect_rc 0 recsj
jobs recshow show rec-a --kind recommendation --format json
expect_rc 0 recshow
jobs recshowt show rec-a --kind recommendation
expect_rc 0 recshowt
bpy '
listed = sm.list_ai_recommendation_jobs()["AIRecommendationJobs"]
want = [r["AIRecommendationJobName"] for r in sorted(listed, key=lambda r: r["CreationTime"], reverse=True)]
lines = open("recs.out").read().splitlines()
assert lines[0].split()[:2] == ["NAME", "STATUS"], lines
got = [l.split()[0] for l in lines[1:]]
assert got == want == ["rec-long", "rec-b", "rec-a"], (got, want)
status = {r["AIRecommendationJobName"]: r["AIRecommendationJobStatus"] for r in listed}
for l in lines[1:]:
    assert l.split()[1] == status[l.split()[0]], (l, status)
j = json.load(open("recsj.out"))
done = sm.list_ai_recommendation_jobs(StatusEquals="Completed")["AIRecommendationJobs"]
assert [r["AIRecommendationJobName"] for r in j["AIRecommendationJobs"]] == ["rec-b", "rec-a"], j
for a, b in zip(j["AIRecommendationJobs"], done):
    assert a["AIRecommendationJobArn"] == b["AIRecommendationJobArn"], (a, b)
    assert a["AIRecommendationJobStatus"] == b["AIRecommendationJobStatus"] == "Completed", (a, b)
    assert abs(a["CreationTime"] - b["CreationTime"].timestamp()) < 1e-3, (a, b)
assert j["Truncated"] is False, j
d = sm.describe_ai_recommendation_job(AIRecommendationJobName="rec-a")
shown = json.load(open("recshow.out"))
assert shown["Recommendations"] == d["Recommendations"] and len(d["Recommendations"]) == 2, (shown, d)
assert shown["AIRecommendationJobArn"] == d["AIRecommendationJobArn"], shown
assert shown["PerformanceTarget"] == d["PerformanceTarget"] and shown["ComputeSpec"] == d["ComputeSpec"], shown
t = dict(l.split(": ", 1) for l in open("recshowt.out").read().splitlines())
assert t["AIRecommendationJobStatus"] == "Completed", t
assert json.loads(t["Recommendations"]) == d["Recommendations"], t
print("9. smfw jobs list/show --kind recommendation equal botocore: rec-a best first",
      d["Recommendations"][0]["DeploymentConfiguration"]["InstanceType"])
' || fail "smfw jobs and botocore differ on recommendation jobs" recs.out recsj.out recshow.out recshowt.out
jobs recstop stop rec-long --kind recommendation
expect_rc 0 recstop
grep -q "rec-long (arn:aws:sagemaker:us-east-1:111122223333:ai-recommendation-job/rec-long)" recstop.out ||
    fail "stop's answer for a recommendation job" recstop.out
bpy '
import time
t0 = time.time()
while sm.describe_ai_recommendation_job(AIRecommendationJobName="rec-long")["AIRecommendationJobStatus"] != "Stopped":
    assert time.time() - t0 < 15, sm.describe_ai_recommendation_job(AIRecommendationJobName="rec-long")
    time.sleep(0.1)
assert sm.describe_ai_benchmark_job(AIBenchmarkJobName="rec-long-1")["AIBenchmarkJobStatus"] == "Stopped"
' || fail "smfw jobs stop --kind recommendation did not stop rec-long" recstop.out
PYTHONPATH="$here" "$SMFW_PYTHON" - "$SMFW_TESTDATA_DIR/awsmodels/sagemaker/2017-07-24/service-2.json" \
    "$work/proxy.log" <<'PY' || fail "a recommendation request body does not match botocore's model" "$work/proxy.log"
import json, sys
from botocore_check import load_model, check_body
model = load_model(sys.argv[1], "sagemaker")
seen = set()
for line in open(sys.argv[2]):
    rec = json.loads(line)
    op = rec["target"].split(".", 1)[1]
    check_body(model, op, rec["body"])
    seen.add(op)
assert {"ListAIRecommendationJobs", "DescribeAIRecommendationJob", "StopAIRecommendationJob"} <= seen, seen
PY
echo "PASS: smfw jobs list/show/stop/delete against smfw-mock (benchmark and recommendation jobs), checked with botocore"
