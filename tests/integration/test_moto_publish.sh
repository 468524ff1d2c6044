#!/usr/bin/env bash
# test_moto_publish.sh - `smfw publish` against moto_server's Model Registry and
# tags, boto3 as the independent writer and reader, every SageMaker request smfw
# sends recorded by a proxy (json_record_proxy.py) and validated against
# botocore's SageMaker model (tests/data/awsmodels: members, types, required,
# lengths, patterns, map and list sizes):
#  1. publish an AIPerf run to an Approved version that has a key of its own: the
#     smfw: keys boto3 reads equal the run's numbers, smfw:report the --upload URI
#     (the run folder is in S3), the user's key is kept.
#  2. republish another run without a report: smfw:report is stale and goes
#     through CustomerMetadataPropertiesToRemove, the numbers are the new run's.
#  3. read back: --read of the group finds its last Approved version (a newer
#     pending one is passed over); the folder --save writes is a result folder
#     `smfw results` and `smfw compare` read; `smfw results --model-package` and
#     `smfw compare GROUP_ARN NEW` (the nightly gate: exit 4 on a slower run) read
#     through it.
#  4. limits: a version with 30 keys of its own is refused (27 + 30 > 50) with
#     nothing sent; a report URI SageMaker would refuse is a usage error.
#  5. the same as endpoint tags: AddTags, DeleteTags of the stale key, ListTags.
# Nothing here depends on moto replacing CustomerMetadataProperties where AWS
# merges them (docs/mock.md): smfw sends the user's keys back with its own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
t_start=$(date +%s%N)
start_moto
"$SMFW_PYTHON" "$here/json_record_proxy.py" "$MOTO_URL" "$work/proxy.log" "$work/proxy.port" \
    >"$work/proxy.out" 2>&1 &
proxy_pid=$!
trap 'kill $proxy_pid 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
[ -s "$work/proxy.port" ] || fail "the recording proxy did not start" "$work/proxy.out"
PROXY_URL="http://127.0.0.1:$(cat "$work/proxy.port")"
export AWS_ENDPOINT_URL="$MOTO_URL" AWS_ENDPOINT_URL_SAGEMAKER="$PROXY_URL"
RUNS="$SMFW_TESTDATA_DIR/aiperf/2025-11-qwen3-0.6b-concurrency-sweep"
RUN1="$RUNS/qwen_concurrency1" RUN2="$RUNS/qwen_concurrency4"
GROUP_ARN="arn:aws:sagemaker:us-east-1:$ACCOUNT:model-package-group/llm"

boto '
sm.create_model_package_group(ModelPackageGroupName="llm")
spec = {"Containers": [{"Image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/llm:1"}],
        "SupportedContentTypes": ["application/json"], "SupportedResponseMIMETypes": ["application/json"]}
arns = []
for status, own in (("Approved", {"owner": "team-a"}), ("PendingManualApproval", {f"k{i}": "v" for i in range(30)})):
    arns.append(sm.create_model_package(ModelPackageGroupName="llm", InferenceSpecification=spec,
        ModelApprovalStatus=status, CustomerMetadataProperties=own)["ModelPackageArn"])
open("arns.txt", "w").write("\n".join(arns) + "\n")
s3.create_bucket(Bucket="smfw-reports")
'
V1=$(sed -n 1p arns.txt) V2=$(sed -n 2p arns.txt)
[[ "$V1" == "arn:aws:sagemaker:us-east-1:$ACCOUNT:model-package/llm/1" ]] || fail "moto's version ARN: $V1"

# check_keys SOURCE RUN_DIR REPORT : the smfw: keys boto3 reads equal RUN_DIR's numbers.
check_keys() {
    "$SMFW_PYTHON" - "$1" "$2" "$3" <<'PY'
import json, sys
src, run, report = sys.argv[1:]
keys = json.load(open(src))
agg = json.load(open(run + "/profile_export_aiperf.json"))
ours = {k: v for k, v in keys.items() if k.startswith("smfw:")}
assert ours["smfw:v"] == "1", ours
for tag, stat in (("time_to_first_token", "p95"), ("inter_token_latency", "p50"),
                  ("request_latency", "p99"), ("output_token_throughput", "avg"),
                  ("request_throughput", "avg"), ("request_count", "avg")):
    assert float(ours[f"smfw:{tag}:{stat}"]) == float(agg[tag][stat]), (tag, stat, ours.get(f"smfw:{tag}:{stat}"), agg[tag][stat])
assert ours.get("smfw:report") == (report or None), ours.get("smfw:report")
assert len(ours) <= 34, len(ours)
for k, v in keys.items():   # within the limits of botocore's model (checked again below)
    assert 1 <= len(k) <= 128 and 1 <= len(v) <= 256, (k, v)
print(f"{len(ours)} smfw keys equal {run.rsplit('/', 1)[-1]}'s numbers; report {report or '(none)'}")
PY
}
describe() { # describe ARN OUT : boto3's CustomerMetadataProperties of ARN into OUT
    boto "json.dump(sm.describe_model_package(ModelPackageName=sys.argv[1]).get('CustomerMetadataProperties', {}), open(sys.argv[2], 'w'))" "$1" "$2"
}

# ---- 1. publish, with the run folder uploaded --------------------------------------------
"$SMFW" publish "$RUN1" --model-package "$V1" --upload s3://smfw-reports/runs/c1/ \
    >pub1.out 2>pub1.err || fail "publish to $V1" pub1.out pub1.err
grep -qE "published [0-9]+ smfw keys to $V1 \(CustomerMetadataProperties\); 1 of the version's own kept" pub1.out ||
    fail "publish did not say what it did" pub1.out
describe "$V1" v1-a.json
check_keys v1-a.json "$RUN1" s3://smfw-reports/runs/c1/
boto 'assert s3.head_object(Bucket="smfw-reports", Key="runs/c1/profile_export_aiperf.json")["ContentLength"] > 0'
"$SMFW_PYTHON" -c 'import json,sys; k=json.load(open(sys.argv[1])); assert k["owner"] == "team-a", k' v1-a.json ||
    fail "the version's own key was lost" v1-a.json

# ---- 2. republish another run: the stale key goes -----------------------------------------
"$SMFW" publish "$RUN2" --model-package "$V1" >pub2.out 2>pub2.err || fail "republish" pub2.out pub2.err
grep -q "1 stale removed: smfw:report" pub2.out || fail "republish did not remove smfw:report" pub2.out
describe "$V1" v1-b.json
check_keys v1-b.json "$RUN2" ""
"$SMFW_PYTHON" -c 'import json,sys; k=json.load(open(sys.argv[1])); assert k["owner"] == "team-a", k' v1-b.json ||
    fail "the version's own key was lost on republish" v1-b.json
grep '"SageMaker.UpdateModelPackage"' proxy.log | tail -1 | "$SMFW_PYTHON" -c '
import json, sys
b = json.loads(sys.stdin.read())["body"]
assert b["CustomerMetadataPropertiesToRemove"] == ["smfw:report"], b
assert b["CustomerMetadataProperties"]["owner"] == "team-a", b' || fail "the republish request" proxy.log

# ---- 3. read back: the group's last Approved version --------------------------------------
# moto 5.2.1 also clears ModelApprovalStatus on an update that does not carry it (AWS keeps
# it; docs/mock.md): approve again, with the keys, as a pipeline's approval step would.
boto '
k = sm.describe_model_package(ModelPackageName=sys.argv[1])["CustomerMetadataProperties"]
sm.update_model_package(ModelPackageArn=sys.argv[1], ModelApprovalStatus="Approved", CustomerMetadataProperties=k)
spec = {"Containers": [{"Image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/llm:2"}],
        "SupportedContentTypes": ["application/json"], "SupportedResponseMIMETypes": ["application/json"]}
time.sleep(1.1)  # a later CreationTime than version 1
sm.create_model_package(ModelPackageGroupName="llm", InferenceSpecification=spec, ModelApprovalStatus="PendingManualApproval")
' "$V1"
"$SMFW" publish --read "$GROUP_ARN" --save base --format json >read.json 2>read.err ||
    fail "--read of the group" read.json read.err
grep -q "the last Approved version is $V1" read.err || fail "not version 1" read.err
"$SMFW_PYTHON" - read.json v1-b.json <<'PY' || fail "--read differs from boto3" read.json
import json, sys
r, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert r["keys"] == {k: v for k, v in b.items() if k.startswith("smfw:")}, (r, b)
PY
"$SMFW" results --local base >results.out 2>&1 || fail "smfw results on the read-back folder" results.out
"$SMFW" compare base "$RUN2" --format json >cmp.json 2>cmp.err || fail "compare with the read-back base (exit $?)" cmp.json cmp.err
"$SMFW_PYTHON" - cmp.json <<'PY' || fail "compare rows" cmp.json
import json, sys
c = json.load(open(sys.argv[1]))
rows = {r["metric"]: r for r in c["metrics"]}
assert len(rows) == 8, rows  # compare's defaults, every one read back from the registry
assert all(r["base"] is not None and abs(r["delta"]) < 1e-9 for r in rows.values()), rows
print("compare: read-back base vs the published run: %d rows, no deltas" % len(rows))
PY

# The same through the program: `results --model-package` and a compare baseline ARN.
"$SMFW" results --model-package "$GROUP_ARN" -o viaresults >mp.out 2>mp.err ||
    fail "smfw results --model-package" mp.out mp.err
grep -q "Results (viaresults)" mp.out || fail "results --model-package did not show the folder" mp.out
cmp <("$SMFW_PYTHON" -m json.tool base/published.json) <("$SMFW_PYTHON" -m json.tool viaresults/published.json) ||
    fail "results --model-package read other keys than --read"
"$SMFW" compare "$GROUP_ARN" "$RUN2" >gate-same.out 2>gate-same.err ||
    fail "compare against the last Approved version: exit $?" gate-same.out gate-same.err
grep -q "$GROUP_ARN" gate-same.out || fail "compare does not name the baseline ARN" gate-same.out
set +e
"$SMFW" compare "$GROUP_ARN" "$RUN1" >gate.out 2>gate.err
rc=$?
set -e
[ "$rc" -eq 4 ] || fail "a slower run against the last Approved version: exit $rc, not 4" gate.out gate.err
echo "nightly gate: the published run passes against the last Approved version, a slower one exits 4"

# ---- 4. limits -----------------------------------------------------------------------------
n_updates=$(grep -c '"SageMaker.UpdateModelPackage"' proxy.log)
set +e
"$SMFW" publish "$RUN1" --model-package "$V2" >full.out 2>full.err
rc=$?
"$SMFW" publish "$RUN1" --model-package "$V1" --report-uri 's3://smfw-reports/a?b' >bad.out 2>bad.err
rc2=$?
"$SMFW" publish "$RUN1" --model-package "$GROUP_ARN" >grp.out 2>grp.err
rc3=$?
set -e
"$SMFW" publish "$RUN1" --model-package "$V1" --dry-run >dry.out 2>dry.err || fail "--dry-run" dry.out dry.err
grep -q '^UpdateModelPackage {"ModelPackageArn": *"'"$V1"'"' dry.out && grep -q "^would publish" dry.out ||
    fail "--dry-run did not print the update" dry.out
[ "$rc" -eq 1 ] || fail "30 own keys + ours: exit $rc, not 1" full.err
grep -qE "$V2 has 30 keys of its own and smfw publishes [0-9]+; SageMaker allows 50 in all: remove [0-9]+ of yours first" full.err ||
    fail "the 50-entry limit message" full.err
[ "$rc2" -eq 1 ] && grep -q "report-uri \"s3://smfw-reports/a?b\" has '?'" bad.err || fail "a bad --report-uri (exit $rc2)" bad.err
[ "$rc3" -eq 1 ] && grep -q "that is a group" grp.err || fail "a group ARN to publish to (exit $rc3)" grp.err
[ "$(grep -c '"SageMaker.UpdateModelPackage"' proxy.log)" -eq "$n_updates" ] || fail "a refused publish sent an update" proxy.log
echo "limits: 30 + 27 keys refused, '?' in the report URI refused, a group ARN refused; nothing sent (nor by --dry-run)"

# ---- 5. endpoint tags ----------------------------------------------------------------------
boto '
sm.create_model(ModelName="m", ExecutionRoleArn="arn:aws:iam::123456789012:role/R",
                PrimaryContainer={"Image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/llm:1"})
sm.create_endpoint_config(EndpointConfigName="c", ProductionVariants=[{"VariantName": "AllTraffic",
    "ModelName": "m", "InitialInstanceCount": 1, "InstanceType": "ml.g4dn.xlarge"}])
sm.create_endpoint(EndpointName="bench-ep", EndpointConfigName="c", Tags=[{"Key": "team", "Value": "a"}])
'
EP_ARN="arn:aws:sagemaker:us-east-1:$ACCOUNT:endpoint/bench-ep"
# tags OUT : the endpoint's tags, every page, as a map. moto 5.2.1's AddTags appends a key
# that exists again where AWS replaces its value (docs/mock.md): the last one is the value.
tags() {
    boto '
tags, kw = {}, {}
while True:
    page = sm.list_tags(ResourceArn=sys.argv[1], **kw)
    tags.update({t["Key"]: t["Value"] for t in page["Tags"]})
    if not page.get("NextToken"):
        break
    kw = {"NextToken": page["NextToken"]}
json.dump(tags, open(sys.argv[2], "w"))' "$EP_ARN" "$1"
}
"$SMFW" publish "$RUN1" --endpoint-tags --endpoint bench-ep --report-uri s3://smfw-reports/runs/c1/ \
    >tag1.out 2>tag1.err || fail "publish as tags" tag1.out tag1.err
tags tags-a.json
check_keys tags-a.json "$RUN1" s3://smfw-reports/runs/c1/
"$SMFW" publish "$RUN2" --endpoint-tags --endpoint bench-ep >tag2.out 2>tag2.err || fail "republish as tags" tag2.out tag2.err
grep -q "1 stale removed: smfw:report; 1 of the endpoint's own kept" tag2.out || fail "tags: stale smfw:report" tag2.out
tags tags-b.json
check_keys tags-b.json "$RUN2" ""
"$SMFW_PYTHON" -c 'import json,sys; k=json.load(open(sys.argv[1])); assert k["team"] == "a", k' tags-b.json
"$SMFW" publish --read "$EP_ARN" --format json >tread.json 2>tread.err || fail "--read of the endpoint" tread.err
"$SMFW_PYTHON" -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["keys"]["smfw:request_count:avg"], r' tread.json

# ---- every request body against botocore's model -------------------------------------------
PYTHONPATH="$here" "$SMFW_PYTHON" - "$SMFW_TESTDATA_DIR/awsmodels/sagemaker/2017-07-24/service-2.json" proxy.log <<'PY' ||
import json, sys
from botocore_check import load_model, check_body, check_shape
model = load_model(sys.argv[1], "sagemaker")
seen = {}
for line in open(sys.argv[2]):
    rec = json.loads(line)
    if not (rec["target"] or "").startswith("SageMaker."):
        continue
    op = rec["target"].split(".", 1)[1]
    check_body(model, op, rec["body"])
    seen[op] = seen.get(op, 0) + 1
for op in ("DescribeModelPackage", "UpdateModelPackage", "ListModelPackages", "DescribeEndpoint",
           "ListTags", "AddTags", "DeleteTags"):
    assert seen.get(op), f"smfw sent no {op}: {seen}"
# The checks have teeth: a 257-character value and a '{' are refused.
bad = {"ModelPackageArn": "arn:aws:sagemaker:us-east-1:123456789012:model-package/llm/1",
       "CustomerMetadataProperties": {"smfw:x": "a" * 257}}
shape = model.operation_model("UpdateModelPackage").input_shape
for b in (bad, {**bad, "CustomerMetadataProperties": {"smfw:x": "{\"a\":1}"}}):
    try:
        check_shape(shape, b, "UpdateModelPackage")
        raise SystemExit("an invalid body passed the check")
    except AssertionError:
        pass
print("botocore's SageMaker model accepts every request smfw sent:",
      ", ".join(f"{k} x{v}" for k, v in sorted(seen.items())))
PY
    fail "a request body does not match botocore's model" proxy.log
echo "test_moto_publish OK against moto $MOTO_VERSION in $((($(date +%s%N) - t_start) / 1000000)) ms"
