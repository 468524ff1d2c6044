#!/usr/bin/env bash
# test_mock_recommendation.sh - smfw-mock's AI recommendation jobs, with boto3 as the client:
#  1. A recommendation job over three instance types runs three real AI benchmark jobs
#     (<name>-1..3, listed by ListAIBenchmarkJobs) and ends Completed with three
#     Recommendations: each names a Completed benchmark job whose bundle is in the mock's
#     S3, its DeploymentConfiguration / ModelDetails are the documented ones, and its
#     ExpectedPerformance values equal the numbers of that bundle's
#     profile_export_aiperf.json (cost: the documented price / throughput). The types
#     differ in speed as docs/mock.md says, and the list is ordered by the first
#     constraint (ttft-ms ascending, or throughput descending for a second job).
#  2. ListAIRecommendationJobs: pages of one (MaxResults 1), NameContains, StatusEquals,
#     CreationTime filters, SortBy Name.
#  3. Stop on a running one: it and its running benchmark job end Stopped; Delete refuses
#     an InProgress job (ValidationException) and removes a finished one (ResourceNotFound
#     after); a second Create of a name is ResourceInUse.
#  4. Refusals: four instance types, a bad metric, an unknown instance type, a missing
#     config member (ValidationException), a config that does not exist (ResourceNotFound,
#     as CreateAIBenchmarkJob answers), a role SageMaker cannot assume (ValidationException).
#  5. `smfw results` (the newest job) picks the newest benchmark job no recommendation made.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SMFW_TESTDATA_DIR:?}" "${SMFW_PYTHON:?}"
# shellcheck source=test_managed_lib.bash
source "$here/test_managed_lib.bash"

start_mock --endpoint rec-endpoint --ttft-ms 8 --itl-ms 0.5 --role SageMakerExecutionRole \
    --role NoTrustRole:none

aws_py '
import time, tarfile, io
from botocore.exceptions import ClientError
spec = lambda n, c: {"WorkloadSpec": {"Inline": json.dumps({"benchmark": {"type": "aiperf"},
                     "parameters": {"concurrency": c, "request_count": n}})}}
sm.create_ai_workload_config(AIWorkloadConfigName="rec-wl", AIWorkloadConfigs=spec(24, 2))
sm.create_ai_workload_config(AIWorkloadConfigName="rec-long", AIWorkloadConfigs=spec(4000, 1))
role = "'"$ROLE"'"
out = {"S3OutputLocation": "s3://rec-bucket/recs/"}
model = {"S3": {"S3Uri": "s3://models/llama/"}}
# A plain benchmark job first: the newest one no recommendation made (5.)
sm.create_ai_benchmark_job(AIBenchmarkJobName="plain-job", AIWorkloadConfigIdentifier="rec-wl",
    BenchmarkTarget={"Endpoint": {"Identifier": "rec-endpoint"}}, OutputConfig=out, RoleArn=role)
def wait(name, want=("Completed", "Failed", "Stopped"), limit=40):
    t0 = time.time()
    while True:
        d = sm.describe_ai_recommendation_job(AIRecommendationJobName=name)
        if d["AIRecommendationJobStatus"] in want:
            return d
        assert time.time() - t0 < limit, d
        time.sleep(0.1)
while sm.describe_ai_benchmark_job(AIBenchmarkJobName="plain-job")["AIBenchmarkJobStatus"] == "InProgress":
    time.sleep(0.1)
types = ["ml.g5.xlarge", "ml.p5.48xlarge", "ml.g6e.2xlarge"]
scale = {"ml.g5.xlarge": 1.5, "ml.p5.48xlarge": 0.22, "ml.g6e.2xlarge": 1.0}  # docs/mock.md
price = {"ml.g5.xlarge": 1.41, "ml.p5.48xlarge": 113.07, "ml.g6e.2xlarge": 2.81}
def create(name, metric="ttft-ms", wl="rec-wl", types=types, **kw):
    args = dict(AIRecommendationJobName=name, ModelSource=model, OutputConfig=out,
                AIWorkloadConfigIdentifier=wl, RoleArn=role,
                PerformanceTarget={"Constraints": [{"Metric": metric}]},
                ComputeSpec={"InstanceTypes": types})
    args.update(kw)
    return sm.create_ai_recommendation_job(**args)
arn = create("rec-ttft")["AIRecommendationJobArn"]
assert arn.endswith(":ai-recommendation-job/rec-ttft"), arn
time.sleep(1.1)  # CreationTime filters travel in whole seconds
create("rec-thr", metric="throughput", types=types[:2])
d = wait("rec-ttft")
assert d["AIRecommendationJobStatus"] == "Completed", d
assert d["StartTime"] <= d["EndTime"] and d["CreationTime"] <= d["StartTime"], d
recs = d["Recommendations"]
assert len(recs) == 3, recs

# 1. each recommendation against its benchmark job and bundle
listed = {j["AIBenchmarkJobName"] for j in sm.list_ai_benchmark_jobs(MaxResults=100)["AIBenchmarkJobs"]}
assert {"rec-ttft-1", "rec-ttft-2", "rec-ttft-3"} <= listed, listed
ttft = {}
for r in recs:
    job_name = r["AIBenchmarkJobArn"].rsplit("/", 1)[1]
    job = sm.describe_ai_benchmark_job(AIBenchmarkJobName=job_name)
    assert job["AIBenchmarkJobStatus"] == "Completed", job
    assert job["AIBenchmarkJobArn"] == r["AIBenchmarkJobArn"]
    assert job["BenchmarkTarget"]["Endpoint"]["Identifier"] == "rec-endpoint", job
    assert job["AIWorkloadConfigIdentifier"] == "rec-wl", job
    dc = r["DeploymentConfiguration"]
    it = dc["InstanceType"]
    assert it in types and dc["InstanceCount"] == 1 and dc["CopyCountPerInstance"] == 1, dc
    assert dc["S3"] == [{"ChannelName": "model", "Uri": "s3://models/llama/"}], dc
    assert dc["ImageUri"] == "111122223333.dkr.ecr.us-east-1.amazonaws.com/smfw-mock-lmi:latest", dc
    assert r["ModelDetails"]["InstanceDetails"] == [{"InstanceType": it, "InstanceCount": 1,
                                                     "CopyCountPerInstance": 1}], r["ModelDetails"]
    body = s3.get_object(Bucket="rec-bucket", Key=f"recs/{job_name}/output/output.tar.gz")["Body"].read()
    with tarfile.open(fileobj=io.BytesIO(body)) as tf:
        agg = json.load(tf.extractfile("output/profile_export_aiperf.json"))
        inputs = tf.extractfile("output/inputs.json").read().decode()
    assert f"\"smfw_mock_instance_type\": \"{it}\"" in inputs or f"\"smfw_mock_instance_type\":\"{it}\"" in inputs, inputs[:400]
    perf = {(e["Metric"], e["Stat"]): e for e in r["ExpectedPerformance"]}
    assert set(perf) == {("ttft-ms", "p50"), ("throughput", "avg"), ("cost", "avg")}, perf
    assert float(perf["ttft-ms", "p50"]["Value"]) == agg["time_to_first_token"]["p50"], (perf, agg["time_to_first_token"])
    assert perf["ttft-ms", "p50"]["Unit"] == "ms"
    thr = agg["output_token_throughput"]["avg"]
    assert float(perf["throughput", "avg"]["Value"]) == thr, (perf, thr)
    assert perf["throughput", "avg"]["Unit"] == "tokens/sec"
    cost = price[it] / (thr * 3600) * 1e6
    assert abs(float(perf["cost", "avg"]["Value"]) - cost) <= 1e-9 * cost, (perf, cost)
    assert perf["cost", "avg"]["Unit"] == "USD/1M tokens"
    assert job_name in r["RecommendationDescription"], r
    ttft[it] = agg["time_to_first_token"]["p50"]
order = [r["DeploymentConfiguration"]["InstanceType"] for r in recs]
vals = [ttft[t] for t in order]
assert vals == sorted(vals), (order, vals)
# The speed model: 8 ms x the type scale, plus the time of the client itself, about the same for every
# type (under 1 ms in a plain build, a few ms under ASan), so it cancels in the differences.
assert order == ["ml.p5.48xlarge", "ml.g6e.2xlarge", "ml.g5.xlarge"], (order, vals)
for a, b in (("ml.g5.xlarge", "ml.p5.48xlarge"), ("ml.g6e.2xlarge", "ml.p5.48xlarge")):
    want = 8 * (scale[a] - scale[b])
    assert abs((ttft[a] - ttft[b]) - want) < 0.25 * want + 0.5, (a, b, ttft[a] - ttft[b], want)
print("1. rec-ttft Completed:", ", ".join(f"{t} ttft p50 {ttft[t]:.2f} ms" for t in order))
d2 = wait("rec-thr")
assert d2["AIRecommendationJobStatus"] == "Completed", d2
thr = [float({e["Metric"]: e["Value"] for e in r["ExpectedPerformance"]}["throughput"]) for r in d2["Recommendations"]]
assert len(thr) == 2 and thr == sorted(thr, reverse=True), thr
assert d2["Recommendations"][0]["DeploymentConfiguration"]["InstanceType"] == "ml.p5.48xlarge", d2
print("1. rec-thr ordered by throughput, descending:", thr)

# 2. listing
pages, token = [], None
while True:
    kw = {"MaxResults": 1, "SortBy": "Name", "SortOrder": "Ascending"}
    if token:
        kw["NextToken"] = token
    page = sm.list_ai_recommendation_jobs(**kw)
    assert len(page["AIRecommendationJobs"]) <= 1, page
    pages += page["AIRecommendationJobs"]
    token = page.get("NextToken")
    if not token:
        break
assert [p["AIRecommendationJobName"] for p in pages] == ["rec-thr", "rec-ttft"], pages
assert all(p["AIRecommendationJobStatus"] == "Completed" and "EndTime" in p for p in pages), pages
newest = sm.list_ai_recommendation_jobs()["AIRecommendationJobs"]
assert [p["AIRecommendationJobName"] for p in newest] == ["rec-thr", "rec-ttft"], newest
names = lambda **kw: [p["AIRecommendationJobName"] for p in sm.list_ai_recommendation_jobs(**kw)["AIRecommendationJobs"]]
assert names(NameContains="ttft") == ["rec-ttft"]
assert names(StatusEquals="InProgress") == []
assert names(StatusEquals="Completed", SortBy="Name", SortOrder="Ascending") == ["rec-thr", "rec-ttft"]
between = d2["CreationTime"].replace(microsecond=0)  # after rec-ttft, before rec-thr
assert names(CreationTimeAfter=between) == ["rec-thr"], names(CreationTimeAfter=between)
assert names(CreationTimeBefore=between) == ["rec-ttft"], names(CreationTimeBefore=between)
print("2. listing: pages of one, NameContains, StatusEquals, CreationTime filters, SortBy")

# 3. Stop, Delete, ResourceInUse
def error(fn, **kw):
    try:
        fn(**kw)
    except ClientError as e:
        return e.response["Error"]["Code"], e.response["Error"]["Message"]
    raise AssertionError(f"{fn.__name__} {kw} succeeded")
create("rec-stop", wl="rec-long", types=["ml.g6.xlarge"])
t0 = time.time()
while True:
    jobs = {j["AIBenchmarkJobName"]: j["AIBenchmarkJobStatus"] for j in
            sm.list_ai_benchmark_jobs(NameContains="rec-stop")["AIBenchmarkJobs"]}
    if jobs.get("rec-stop-1") == "InProgress":
        break
    assert time.time() - t0 < 10, jobs
    time.sleep(0.05)
time.sleep(0.5)
code, msg = error(sm.delete_ai_recommendation_job, AIRecommendationJobName="rec-stop")
assert code == "ValidationException" and "InProgress" in msg, (code, msg)
assert error(create, name="rec-ttft")[0] == "ResourceInUse"
sm.stop_ai_recommendation_job(AIRecommendationJobName="rec-stop")
assert sm.describe_ai_recommendation_job(AIRecommendationJobName="rec-stop")["AIRecommendationJobStatus"] in ("Stopping", "Stopped")
ds = wait("rec-stop", limit=15)
assert ds["AIRecommendationJobStatus"] == "Stopped" and "Recommendations" not in ds, ds
bj = sm.describe_ai_benchmark_job(AIBenchmarkJobName="rec-stop-1")
assert bj["AIBenchmarkJobStatus"] == "Stopped", bj
code, msg = error(sm.stop_ai_recommendation_job, AIRecommendationJobName="rec-stop")
assert code == "ValidationException" and "Stopped" in msg, (code, msg)
assert sm.delete_ai_recommendation_job(AIRecommendationJobName="rec-stop")["AIRecommendationJobArn"].endswith("/rec-stop")
assert error(sm.describe_ai_recommendation_job, AIRecommendationJobName="rec-stop")[0] == "ResourceNotFound"
assert error(sm.delete_ai_recommendation_job, AIRecommendationJobName="rec-stop")[0] == "ResourceNotFound"
# Its benchmark job stays (a recommendation no longer lists it): removed here, so 5. holds.
sm.delete_ai_benchmark_job(AIBenchmarkJobName="rec-stop-1")
print(f"3. rec-stop and rec-stop-1 Stopped {time.time() - t0:.1f} s after the start; Delete refused while InProgress, then removed it")

# 4. refusals
four = ["ml.g5.xlarge", "ml.g5.2xlarge", "ml.g6.xlarge", "ml.g6e.xlarge"]
for what, kw, want in (
        ("4 instance types", dict(name="bad1", types=four), "length less than or equal to 3"),
        ("a bad metric", dict(name="bad2", metric="latency"), "enum value set: [ttft-ms, throughput, cost]"),
        ("an unknown instance type", dict(name="bad3", types=["ml.m5.large"]), "computeSpec.instanceTypes.1.member"),
        ("an unassumable role", dict(name="bad4", RoleArn="arn:aws:iam::111122223333:role/NoTrustRole"), "Could not assume role"),
        ("no ModelSource S3Uri", dict(name="bad5", ModelSource={"S3": {}}), "modelSource.s3.s3Uri")):
    code, msg = error(create, **kw)
    assert code == "ValidationException" and want in msg, (what, code, msg)
    print(f"4. {what}: {code}: {msg[:110]}")
code, msg = error(create, name="bad6", wl="no-such-config")
assert code == "ResourceNotFound" and "no-such-config" in msg, (code, msg)
print(f"4. a missing config: {code}: {msg}")
assert names(NameContains="bad") == []
'

# 5. The newest job for `smfw results` is the plain one, not a recommendation's.
"$SMFW" results -o newest >newest.out 2>newest.err ||
    fail "smfw results (the newest job)" newest.out newest.err
grep -q '^Job plain-job: Completed' newest.out || fail "smfw results did not pick plain-job" newest.out newest.err
echo "5. smfw results picked $(grep '^Job ' newest.out)"
echo "PASS"
