#!/usr/bin/env bash
# test_recommend.sh - `smfw recommend` against smfw-mock's AI recommendation jobs, with
# botocore (an independent client of the same mock) as the reference:
#  1. The dry run (no --run) prints both request bodies and creates nothing: no workload
#     config, no recommendation job, no dataset object in S3.
#  2. --run over three instance types, ranked by throughput: exit 0; the job botocore
#     describes is Completed with the three types; one folder per recommendation, in
#     botocore's order, each a sweep over the three levels (sweep.json names its type); each
#     level's numbers equal the profile_export_aiperf.json of that level in the benchmark
#     job's bundle as botocore downloads it from the mock's S3; SageMaker's expected
#     performance is printed as DescribeAIRecommendationJob says it; the sweeps are set side
#     by side; recommendation.json is the job's Describe answer.
#  3. --job NAME --run follows a job that botocore created and presents it the same way.
#  4. Refusals before any request (exit 1): four instance types, one named twice, a bad
#     constraint, a bad framework, no --model-s3-uri, a model URI that is not s3://, a tag
#     without "=", a bad --job name; a role that does not trust SageMaker is refused by the
#     pre-flight (exit 1) before the workload config is created.
#  5. --timeout: a job still running at the timeout is stopped (StopAIRecommendationJob;
#     botocore sees it Stopped) and the command exits 2.
#  6. Every SageMaker request body smfw sent (recorded by json_record_proxy.py) is valid in
#     botocore's SageMaker model.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SMFW_TESTDATA_DIR:?}" "${SMFW_PYTHON:?}"
# shellcheck source=test_managed_lib.bash
source "$here/test_managed_lib.bash"

start_mock --endpoint rec-endpoint --ttft-ms 4 --itl-ms 0.2 --role SageMakerExecutionRole \
    --role NoTrustRole:none
MOCK_URL=$URL
"$SMFW_PYTHON" "$here/json_record_proxy.py" "$MOCK_URL" "$work/proxy.log" "$work/proxy.port" \
    >"$work/proxy.out" 2>&1 &
proxy_pid=$!
trap 'kill $proxy_pid 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
[ -s "$work/proxy.port" ] || fail "the recording proxy did not start" "$work/proxy.out"
export AWS_ENDPOINT_URL="http://127.0.0.1:$(cat "$work/proxy.port")"
bpy() { AWS_ENDPOINT_URL="$MOCK_URL" aws_py "$@"; }
touch "$work/proxy.log"

TYPES=ml.g5.xlarge,ml.p5.48xlarge,ml.g6e.2xlarge
recommend() { # OUT ARGS... : smfw recommend ARGS into OUT.out / OUT.err; sets rc
    local out=$1
    shift
    set +e
    "$SMFW" recommend --role-arn "$ROLE" --bucket rec-bucket --poll-interval 0.1s \
        --dataset synthetic --request-count 12 --output-tokens-mean 8 "$@" >"$out.out" 2>"$out.err"
    rc=$?
    set -e
}

# 1. The dry run creates nothing.
recommend plan --model-s3-uri s3://models/llama-3-8b/ --instance-types "$TYPES" --concurrency 1,2,4
expect_rc 0 plan
grep -q "X-Amz-Target: SageMaker.CreateAIRecommendationJob" plan.out || fail "no request body" plan.out
grep -q '"InstanceTypes"' plan.out || fail "the plan does not show the instance types" plan.out
bpy '
from botocore.exceptions import ClientError
assert sm.list_ai_workload_configs()["AIWorkloadConfigs"] == [], "a dry run made a config"
assert sm.list_ai_recommendation_jobs()["AIRecommendationJobs"] == [], "a dry run made a job"
try:
    s3.head_bucket(Bucket="rec-bucket")
    raise AssertionError("a dry run made the bucket")
except ClientError:
    pass
s3.create_bucket(Bucket="rec-bucket")  # for the runs below
' || fail "the dry run created something" plan.out
grep -q "SageMaker\.\(Create\|Put\)" "$work/proxy.log" && fail "the dry run sent a create" "$work/proxy.log"
echo "1. dry run: both bodies printed, nothing created"

# 2. Three instance types, by throughput then TTFT.
recommend three --model-s3-uri s3://models/llama-3-8b/ --instance-types "$TYPES" \
    --concurrency 1,2,4 --constraint throughput --constraint ttft-ms --framework VLLM \
    --tag team=ml-platform --name rec-three --run -o "$work/three"
expect_rc 0 three
bpy '
import tarfile, io, math, re
d = sm.describe_ai_recommendation_job(AIRecommendationJobName="rec-three")
assert d["AIRecommendationJobStatus"] == "Completed", d
assert d["ComputeSpec"]["InstanceTypes"] == ["ml.g5.xlarge", "ml.p5.48xlarge", "ml.g6e.2xlarge"], d
assert [c["Metric"] for c in d["PerformanceTarget"]["Constraints"]] == ["throughput", "ttft-ms"], d
assert d["InferenceSpecification"] == {"Framework": "VLLM"}, d
assert {"Key": "team", "Value": "ml-platform"} in d.get("Tags", []), d.get("Tags")
recs = d["Recommendations"]
assert len(recs) == 3, recs
root = "'"$work"'/three"
saved = json.load(open(f"{root}/recommendation.json"))
assert saved["AIRecommendationJobName"] == "rec-three" and len(saved["Recommendations"]) == 3, saved
assert [r["AIBenchmarkJobArn"] for r in saved["Recommendations"]] == [r["AIBenchmarkJobArn"] for r in recs]
out = open("three.out").read()
for rank, r in enumerate(recs, 1):
    it = r["DeploymentConfiguration"]["InstanceType"]
    folder = f"{root}/{rank}-{it}"
    sweep = json.load(open(f"{folder}/sweep.json"))
    assert sweep["instance_type"] == it, (folder, sweep.get("instance_type"))
    job = r["AIBenchmarkJobArn"].rsplit("/", 1)[1]
    loc = sm.describe_ai_benchmark_job(AIBenchmarkJobName=job)["OutputConfig"]["S3OutputLocation"]
    bucket, prefix = loc[5:].split("/", 1)
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket, Prefix=prefix)["Contents"]
            if o["Key"].endswith("output.tar.gz") and f"/{job}/" in o["Key"]]
    assert len(keys) == 1, keys
    tf = tarfile.open(fileobj=io.BytesIO(s3.get_object(Bucket=bucket, Key=keys[0])["Body"].read()))
    levels = {}
    for m in tf.getmembers():
        g = re.search(r"concurrency_(\d+)/profile_export_aiperf\.json$", m.name)
        if g:
            levels[int(g.group(1))] = json.load(tf.extractfile(m))
    assert sorted(levels) == [1, 2, 4], (job, sorted(levels))
    for c, agg in levels.items():
        mine = json.load(open(f"{folder}/concurrency_{c}/profile_export_aiperf.json"))
        for metric in ("time_to_first_token", "output_token_throughput", "request_latency"):
            for stat in ("avg", "p50", "p99"):
                if stat in agg[metric]:
                    a, b = mine[metric][stat], agg[metric][stat]
                    assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12), (job, c, metric, stat, a, b)
    # SageMaker expected performance, as Describe says it (four figures)
    row = [l for l in out.splitlines() if l.startswith(f"| {rank} | {it} |")]
    assert len(row) == 1, (rank, it, out[-3000:])
    for e in r["ExpectedPerformance"]:
        M, S, V, U = (e[k] for k in ("Metric", "Stat", "Value", "Unit"))
        want = f"{M} {S} {float(V):.4g} {U}"
        assert want in row[0], (want, row[0])
    assert job in row[0], row[0]
# the sweeps side by side: one row per instance type
side = out[out.index("Measured by smfw"):]
for r in recs:
    it = r["DeploymentConfiguration"]["InstanceType"]
    assert re.search(rf"^\| {re.escape(it)} \|", side, re.M), (it, side)
print("2. three recommendations, each a sweep equal to its bundle; ranked as Describe says:",
      [r["DeploymentConfiguration"]["InstanceType"] for r in recs])
' || fail "the recommendations are not presented as the service holds them" three.out three.err
grep -q "knee\|Knee" "$work/three/1-"*/sweep.md || fail "no sweep table" three.out

# 3. --job: a recommendation job botocore made, followed and presented.
bpy '
sm.create_ai_workload_config(AIWorkloadConfigName="by-boto", AIWorkloadConfigs={"WorkloadSpec": {
    "Inline": json.dumps({"benchmark": {"type": "aiperf"}, "parameters": {"concurrency": [1, 2],
                          "request_count": 12}})}})
sm.create_ai_recommendation_job(AIRecommendationJobName="by-boto-rec",
    ModelSource={"S3": {"S3Uri": "s3://models/other/"}}, AIWorkloadConfigIdentifier="by-boto",
    OutputConfig={"S3OutputLocation": "s3://rec-bucket/boto/"}, RoleArn="'"$ROLE"'",
    PerformanceTarget={"Constraints": [{"Metric": "cost"}]},
    ComputeSpec={"InstanceTypes": ["ml.g5.xlarge", "ml.g6e.2xlarge"]})
'
recommend follow --job by-boto-rec --run -o "$work/follow"
expect_rc 0 follow
for t in ml.g5.xlarge ml.g6e.2xlarge; do
    ls -d "$work"/follow/[12]-"$t" >/dev/null 2>&1 || fail "no folder for $t" follow.out follow.err
    [ -d "$(ls -d "$work"/follow/[12]-"$t")/concurrency_2" ] || fail "$t: no level 2" follow.out
done
bpy '
d = sm.describe_ai_recommendation_job(AIRecommendationJobName="by-boto-rec")
ranks = [r["DeploymentConfiguration"]["InstanceType"] for r in d["Recommendations"]]
import os
got = sorted(os.listdir("'"$work"'/follow"))
assert got == ["1-" + ranks[0], "2-" + ranks[1], "recommendation.json"], (got, ranks)
' || fail "--job does not present the job as botocore sees it" follow.out
echo "3. --job follows a job botocore created"

# 4. Refusals before any request.
before=$(wc -l <"$work/proxy.log")
M=(--model-s3-uri s3://models/llama-3-8b/)
while IFS= read -r args; do
    # shellcheck disable=SC2086
    recommend bad $args
    [ "$rc" -eq 1 ] || fail "smfw recommend $args: exit $rc, want 1" bad.out bad.err
    grep -q "error:" bad.err || fail "smfw recommend $args: no sentence" bad.err
done <<EOF
${M[*]} --instance-types ml.g5.xlarge,ml.g5.2xlarge,ml.g6.xlarge,ml.g6e.xlarge
${M[*]} --instance-types ml.g5.xlarge,ml.g5.xlarge
${M[*]} --instance-types g5.xlarge
${M[*]} --constraint latency
${M[*]} --constraint cost --constraint cost
${M[*]} --framework TGI
--instance-types ml.g5.xlarge
--model-s3-uri https://models/llama
${M[*]} --tag team
${M[*]} --name bad_name
--job -x- --run
${M[*]} extra-argument
EOF
[ "$(wc -l <"$work/proxy.log")" -eq "$before" ] || fail "a refused command sent a request" "$work/proxy.log"
set +e
"$SMFW" recommend "${M[@]}" --role-arn arn:aws:iam::111122223333:role/NoTrustRole \
    --bucket rec-bucket --dataset synthetic --request-count 12 --run -o "$work/notrust" \
    >notrust.out 2>notrust.err
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a role SageMaker cannot assume: exit $rc, want 1" notrust.out notrust.err
grep -q "does not trust sagemaker.amazonaws.com" notrust.err || fail "the role's trust is not named" notrust.err
tail -n +"$((before + 1))" "$work/proxy.log" | grep -q '"SageMaker.CreateAI' &&
    fail "the pre-flight let a create through" "$work/proxy.log"
echo "4. refusals: exit 1, a sentence, no request (the untrusted role: no create)"

# 5. --timeout stops a job still running.
recommend slow "${M[@]}" --instance-types ml.g5.xlarge --concurrency 1 --request-count 3000 \
    --name rec-slow --timeout 1s --run -o "$work/slow"
[ "$rc" -eq 2 ] || fail "a job stopped at the timeout: exit $rc, want 2" slow.out slow.err
grep -q "stopped at the timeout" slow.err || fail "the timeout is not said" slow.err
grep -q '"SageMaker.StopAIRecommendationJob"' "$work/proxy.log" || fail "no StopAIRecommendationJob" "$work/proxy.log"
bpy '
d = sm.describe_ai_recommendation_job(AIRecommendationJobName="rec-slow")
assert d["AIRecommendationJobStatus"] == "Stopped", d["AIRecommendationJobStatus"]
' || fail "the job is not Stopped" slow.err
echo "5. --timeout: StopAIRecommendationJob, Stopped, exit 2"

# 6. Every SageMaker body smfw sent is one botocore's model accepts.
PYTHONPATH="$here" "$SMFW_PYTHON" - "$SMFW_TESTDATA_DIR/awsmodels/sagemaker/2017-07-24/service-2.json" \
    "$work/proxy.log" <<'PY' || fail "a request body does not match botocore's model" "$work/proxy.log"
import collections, json, sys
from botocore_check import load_model, check_body
model = load_model(sys.argv[1], "sagemaker")
seen = collections.Counter()
for line in open(sys.argv[2]):
    rec = json.loads(line)
    if not (rec["target"] or "").startswith("SageMaker."):
        continue
    op = rec["target"].split(".", 1)[1]
    check_body(model, op, rec["body"])
    seen[op] += 1
want = {"CreateAIWorkloadConfig", "CreateAIRecommendationJob", "DescribeAIRecommendationJob",
        "DescribeAIBenchmarkJob", "StopAIRecommendationJob"}
assert want <= set(seen), seen
print("6. botocore's SageMaker model accepts every request smfw recommend sent:",
      ", ".join(f"{k} x{v}" for k, v in sorted(seen.items())))
PY
echo "PASS: smfw recommend against smfw-mock (three instance types, --job, refusals, timeout), checked with botocore"
