#!/usr/bin/env bash
# test_mock_aws_extras.sh - smfw-mock's IAM, Application Auto Scaling and
# --max-concurrency, checked with botocore (Debian's python3-boto3), a client
# nobody here wrote: GetRole/ListRoles parse against IAM's model and the trust
# policy decodes to a document trusting sagemaker.amazonaws.com; an untrusting
# role refuses a benchmark job; DescribeScalableTargets reports the
# --autoscaling ranges; with --max-concurrency 2 six simultaneous requests are
# served two at a time (ground truth: each pair's first token one TTFT later).
set -euo pipefail
: "${SMFW_BUILD_DIR:?}"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
[ -x "$MOCK" ] || { echo "SKIP: smfw-mock not built"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-mock-extras.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

"$MOCK" --listen 127.0.0.1:0 --region eu-west-1 --account-id 222233334444 \
    --role SageMakerExecutionRole --role Ec2Only:ec2.amazonaws.com --role NoTrust:none \
    --endpoint ep1 --inference-component ic1 --endpoint ep2 \
    --autoscaling ep2:1:4 --autoscaling ic1:2:2 \
    --max-concurrency 2 --ttft-ms 300 --itl-ms 0 --output-tokens 1 \
    --ground-truth "$work/truth.jsonl" --state-dir "$work/state" >"$work/mock.out" 2>"$work/mock.err" &
pid=$!
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' "$work/mock.out")
[ -n "$URL" ] || { cat "$work/mock.err"; exit 1; }

AWS_DATA_PATH="${SMFW_TESTDATA_DIR:?}/awsmodels" "$SMFW_PYTHON" - "$URL" "$work/truth.jsonl" <<'PY'
import json, sys, threading, time, urllib.parse, urllib.request
import boto3, botocore
url, truth = sys.argv[1], sys.argv[2]
kw = dict(endpoint_url=url, aws_access_key_id="AKIDSMFWMOCKEXAMPLE",
          aws_secret_access_key="smfw-mock-secret-key-EXAMPLEKEY")

# IAM: botocore signs for its own region with an endpoint override; us-east-1 is IAM's.
for region in ("us-east-1", "eu-west-1"):
    iam = boto3.client("iam", region_name=region, **kw)
    role = iam.get_role(RoleName="SageMakerExecutionRole")["Role"]
    assert role["Arn"] == "arn:aws:iam::222233334444:role/SageMakerExecutionRole", role
    assert role["RoleId"].startswith("AROA") and len(role["RoleId"]) == 21, role
    doc = role["AssumeRolePolicyDocument"]  # botocore URL-decodes and parses it
    assert doc["Statement"][0]["Principal"]["Service"] == "sagemaker.amazonaws.com", doc
    assert doc["Statement"][0]["Action"] == "sts:AssumeRole", doc
iam = boto3.client("iam", region_name="us-west-2", **kw)
try:
    iam.get_role(RoleName="SageMakerExecutionRole")
    raise SystemExit("IAM accepted a us-west-2 scope")
except botocore.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] == "SignatureDoesNotMatch", e.response
iam = boto3.client("iam", region_name="us-east-1", **kw)
ec2 = iam.get_role(RoleName="Ec2Only")["Role"]["AssumeRolePolicyDocument"]
assert ec2["Statement"][0]["Principal"]["Service"] == "ec2.amazonaws.com", ec2
assert iam.get_role(RoleName="NoTrust")["Role"]["AssumeRolePolicyDocument"]["Statement"] == []
try:
    iam.get_role(RoleName="Nobody")
    raise SystemExit("GetRole found a role that does not exist")
except iam.exceptions.NoSuchEntityException as e:
    assert "Nobody" in str(e)
names = [r["RoleName"] for page in iam.get_paginator("list_roles").paginate(PaginationConfig={"PageSize": 2})
         for r in page["Roles"]]
assert names == ["SageMakerExecutionRole", "Ec2Only", "NoTrust"], names
page = iam.list_roles(MaxItems=2)
assert page["IsTruncated"] and page["Marker"], page

# A job whose role cannot be assumed by SageMaker is refused at creation.
sm = boto3.client("sagemaker", region_name="eu-west-1", **kw)
sm.create_ai_workload_config(AIWorkloadConfigName="wl", AIWorkloadConfigs={"WorkloadSpec": {"Inline": json.dumps(
    {"benchmark": {"type": "aiperf"}, "parameters": {"concurrency": 1, "request_count": 2}})}})
job = dict(AIWorkloadConfigIdentifier="wl", BenchmarkTarget={"Endpoint": {"Identifier": "ep2"}},
           OutputConfig={"S3OutputLocation": "s3://out-bucket/x/"})
for bad in ("Ec2Only", "NoTrust"):
    try:
        sm.create_ai_benchmark_job(AIBenchmarkJobName="j-" + bad.lower(), RoleArn="arn:aws:iam::222233334444:role/" + bad, **job)
        raise SystemExit("job accepted with role " + bad)
    except botocore.exceptions.ClientError as e:
        assert e.response["Error"]["Code"] == "ValidationException", e.response
        assert "Could not assume role" in e.response["Error"]["Message"], e.response

# Application Auto Scaling.
aas = boto3.client("application-autoscaling", region_name="eu-west-1", **kw)
t = aas.describe_scalable_targets(ServiceNamespace="sagemaker")["ScalableTargets"]
got = {(x["ResourceId"], x["ScalableDimension"], x["MinCapacity"], x["MaxCapacity"]) for x in t}
assert got == {("endpoint/ep2/variant/AllTraffic", "sagemaker:variant:DesiredInstanceCount", 1, 4),
               ("inference-component/ic1", "sagemaker:inference-component:DesiredCopyCount", 2, 2)}, got
one = aas.describe_scalable_targets(ServiceNamespace="sagemaker", ResourceIds=["endpoint/ep1/variant/AllTraffic"])
assert one["ScalableTargets"] == [], one
dim = aas.describe_scalable_targets(ServiceNamespace="sagemaker", ScalableDimension="sagemaker:inference-component:DesiredCopyCount")
assert [x["ResourceId"] for x in dim["ScalableTargets"]] == ["inference-component/ic1"], dim
assert aas.describe_scalable_targets(ServiceNamespace="ecs")["ScalableTargets"] == []
p1 = aas.describe_scalable_targets(ServiceNamespace="sagemaker", MaxResults=1)
p2 = aas.describe_scalable_targets(ServiceNamespace="sagemaker", MaxResults=1, NextToken=p1["NextToken"])
assert len(p1["ScalableTargets"]) == 1 and len(p2["ScalableTargets"]) == 1 and "NextToken" not in p2
try:
    aas.describe_scalable_targets(ServiceNamespace="nope")
    raise SystemExit("bad namespace accepted")
except botocore.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] == "ValidationException", e.response

# --max-concurrency 2: six requests at once on the OpenAI route are decoded two at a time.
body = json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode()
def call(i):
    req = urllib.request.Request(url + "/v1/chat/completions", data=body,
                                 headers={"Content-Type": "application/json", "X-Request-ID": f"q{i}"})
    urllib.request.urlopen(req, timeout=30).read()
threads = [threading.Thread(target=call, args=(i,)) for i in range(6)]
for t in threads: t.start()
for t in threads: t.join()
# The mock writes a request's ground-truth line after its last byte left, so a client can
# finish reading first: give the lines a bounded moment to land.
import time
for _ in range(100):
    rows = [json.loads(l) for l in open(truth) if l.strip()]
    rows = [r for r in rows if r["inference_id"].startswith("q")]
    if len(rows) >= 6: break
    time.sleep(0.05)
assert len(rows) == 6, rows
# From the first arrival: two slots, each busy one TTFT per answer, so the k-th answer
# (0-based) cannot come before (k // 2 + 1) TTFTs. Lower bounds only: a loaded machine only
# makes things later. (Queueing: without the limit all six would come after one TTFT.)
t0 = min(r["recv_ns"] for r in rows)
ttft_ms = sorted((r["first_token_ns"] - t0) / 1e6 for r in rows)
for k, v in enumerate(ttft_ms):
    assert v >= 300 * (k // 2 + 1) - 1, ttft_ms
print("iam, autoscaling and max-concurrency ok:", [round(v) for v in ttft_ms])
PY
