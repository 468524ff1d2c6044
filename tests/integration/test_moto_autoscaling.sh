#!/usr/bin/env bash
# test_moto_autoscaling.sh - `smfw autoscaling plan|apply|rollback` against
# moto_server's Application Auto Scaling, boto3 as the independent reader:
#  1. plan from a real AIPerf concurrency sweep (tests/data/aiperf, levels 1, 2, 4):
#     the target is checked by hand from its files (no knee in three levels, so the
#     highest level: C x 60 / mean latency, 10% / 20% headroom, per --instances N); a run
#     folder (one level of it) is its own level.
#  2. apply then rollback on a variant that had a policy of that name (boto3 put it):
#     the new TargetValue reads back from moto, rollback restores the old one; on a
#     variant that had none, rollback deletes the new one. (moto 5.2.1 refuses the
#     sagemaker:inference-component:DesiredCopyCount dimension, so an inference component's
#     policy is checked as plan prints it, against the model, not applied.)
#  3. apply on an endpoint with no scalable target is refused (exit 2) and changes
#     nothing; rollback with nothing journaled is exit 1.
#  4. every request smfw sent (moto's own request recorder) and every policy plan printed
#     validates against botocore's Application Auto Scaling model.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
t_start=$(date +%s%N)
export MOTO_ENABLE_RECORDING=True MOTO_RECORDER_FILEPATH="$work/recording.jsonl"
start_moto
export AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING="$MOTO_URL" XDG_STATE_HOME="$work/state"
SWEEP="$SMFW_TESTDATA_DIR/aiperf/2025-11-qwen3-0.6b-concurrency-sweep"

# ---- 1. plan ---------------------------------------------------------------------------
"$SMFW" autoscaling plan "$SWEEP" --endpoint bench-ep >plan.json 2>plan.err || fail "plan" plan.err
"$SMFW" autoscaling plan "$SWEEP" --endpoint bench-ep --headroom 20% --instances 2 \
    --scale-out-cooldown 2m --scale-in-cooldown 10m >plan2.json 2>plan2.err || fail "plan 2" plan2.err
"$SMFW" autoscaling plan "$SWEEP" --inference-component bench-ic >plan-ic.json 2>plan-ic.err ||
    fail "plan ic" plan-ic.err
"$SMFW" autoscaling plan "$SWEEP/qwen_concurrency2" --endpoint bench-ep >plan-run.json 2>plan-run.err ||
    fail "plan from a run folder" plan-run.err
"$SMFW_PYTHON" - "$SWEEP" plan.json plan2.json plan-ic.json plan-run.json <<'PY'
import json, math, sys
sweep, p1, p2, pic, prun = sys.argv[1], *[json.load(open(f)) for f in sys.argv[2:]]
lvl = json.load(open(f"{sweep}/qwen_concurrency4/profile_export_aiperf.json"))
d = lvl["request_latency"]["avg"] / 1000.0               # mean request latency, s
per_min = 4 * 60 / d                                     # Little's law at concurrency 4
for p, want, out_s, in_s in ((p1, math.floor(per_min * 0.9), 300, 300),
                             (p2, math.floor(per_min / 2 * 0.8), 120, 600)):
    c = p["TargetTrackingScalingPolicyConfiguration"]
    assert c["TargetValue"] == want, (c, want, per_min)
    assert (c["ScaleOutCooldown"], c["ScaleInCooldown"]) == (out_s, in_s), c
    assert c["PredefinedMetricSpecification"] == {"PredefinedMetricType": "SageMakerVariantInvocationsPerInstance"}
    assert p["ResourceId"] == "endpoint/bench-ep/variant/AllTraffic", p
    assert p["ScalableDimension"] == "sagemaker:variant:DesiredInstanceCount", p
    assert p["PolicyType"] == "TargetTrackingScaling", p
# A run folder is its own level: concurrency 2 and its own mean latency.
d2 = json.load(open(f"{sweep}/qwen_concurrency2/profile_export_aiperf.json"))["request_latency"]["avg"] / 1000.0
assert prun["TargetTrackingScalingPolicyConfiguration"]["TargetValue"] == math.floor(2 * 60 / d2 * 0.9), prun
assert pic["ResourceId"] == "inference-component/bench-ic", pic
assert pic["ScalableDimension"] == "sagemaker:inference-component:DesiredCopyCount", pic
assert pic["TargetTrackingScalingPolicyConfiguration"]["PredefinedMetricSpecification"] == {
    "PredefinedMetricType": "SageMakerInferenceComponentInvocationsPerCopy"}
print(f"plan: 4 x 60 / {d:.4f} s = {per_min:.2f}/min -> target {math.floor(per_min * 0.9)} "
      f"(10%), {math.floor(per_min / 2 * 0.8)} (20%, 2 instances)")
PY
grep -q "no knee found" plan.err || fail "plan does not say why that level" plan.err

# ---- 2. apply / rollback -----------------------------------------------------------------
boto '
for rid, dim in (("endpoint/bench-ep/variant/AllTraffic", "sagemaker:variant:DesiredInstanceCount"),
                 ("endpoint/fresh-ep/variant/AllTraffic", "sagemaker:variant:DesiredInstanceCount")):
    aas.register_scalable_target(ServiceNamespace="sagemaker", ResourceId=rid, ScalableDimension=dim,
                                 MinCapacity=1, MaxCapacity=4)
aas.put_scaling_policy(PolicyName="smfw-target-tracking", ServiceNamespace="sagemaker",
    ResourceId="endpoint/bench-ep/variant/AllTraffic", ScalableDimension="sagemaker:variant:DesiredInstanceCount",
    PolicyType="TargetTrackingScaling", TargetTrackingScalingPolicyConfiguration={"TargetValue": 25.0,
    "PredefinedMetricSpecification": {"PredefinedMetricType": "SageMakerVariantInvocationsPerInstance"},
    "ScaleOutCooldown": 600, "ScaleInCooldown": 900})
'
policy() { # policy RESOURCE_ID : "TargetValue ScaleOutCooldown ScaleInCooldown" or "none"
    boto '
p = aas.describe_scaling_policies(ServiceNamespace="sagemaker", ResourceId=sys.argv[1])["ScalingPolicies"]
p = [x for x in p if x["PolicyName"] == "smfw-target-tracking"]
if not p: print("none")
else:
    c = p[0]["TargetTrackingScalingPolicyConfiguration"]
    print("%g %d %d" % (c["TargetValue"], c["ScaleOutCooldown"], c["ScaleInCooldown"]))
' "$1"
}
want=$(sed -n 's/.*"TargetValue": \([0-9]*\).*/\1/p' plan.json)
"$SMFW" autoscaling apply "$SWEEP" --endpoint bench-ep >apply.out 2>apply.err || fail "apply" apply.out apply.err
[ "$(policy endpoint/bench-ep/variant/AllTraffic)" = "$want 300 300" ] || fail "apply: moto has $(policy endpoint/bench-ep/variant/AllTraffic)" apply.out
grep -q "TargetTrackingScalingPolicyConfiguration.TargetValue: 25.0 -> $want.0" apply.out || fail "apply: change not printed" apply.out
grep -q "ScaleOutCooldown: 600 -> 300" apply.out || fail "apply: cooldown change not printed" apply.out
journal="$work/state/smfw/autoscaling/us-east-1_endpoint_bench-ep_variant_AllTraffic.policy-smfw-target-tracking.json"
[ -f "$journal" ] || fail "no journal at $journal" apply.out
"$SMFW" autoscaling rollback --endpoint bench-ep >rollback.out 2>rollback.err || fail "rollback" rollback.out rollback.err
[ "$(policy endpoint/bench-ep/variant/AllTraffic)" = "25 600 900" ] || fail "rollback: moto has $(policy endpoint/bench-ep/variant/AllTraffic)" rollback.out
grep -q "TargetValue: $want.0 -> 25.0" rollback.out || fail "rollback: change not printed" rollback.out
[ ! -e "$journal" ] || fail "rollback left its journal" rollback.out
echo "apply/rollback with a previous policy: 25 -> $want -> 25"

"$SMFW" autoscaling apply "$SWEEP" --endpoint fresh-ep >fresh.out 2>fresh.err || fail "apply fresh" fresh.err
[ "$(policy endpoint/fresh-ep/variant/AllTraffic)" = "$want 300 300" ] || fail "apply fresh: $(policy endpoint/fresh-ep/variant/AllTraffic)" fresh.out
grep -q "TargetValue: (none) -> $want.0" fresh.out || fail "apply fresh: change not printed" fresh.out
"$SMFW" autoscaling rollback --endpoint fresh-ep >fresh-rb.out 2>fresh-rb.err || fail "rollback fresh" fresh-rb.err
[ "$(policy endpoint/fresh-ep/variant/AllTraffic)" = "none" ] || fail "rollback fresh did not delete" fresh-rb.out
grep -q "deleted policy smfw-target-tracking" fresh-rb.out || fail "rollback fresh: not said" fresh-rb.out
echo "apply/rollback without a previous policy: created, then deleted"


# ---- 3. refusals -------------------------------------------------------------------------
set +e
"$SMFW" autoscaling apply "$SWEEP" --endpoint no-target-ep >none.out 2>none.err
rc=$?
"$SMFW" autoscaling rollback --endpoint bench-ep >norb.out 2>norb.err
rc2=$?
"$SMFW" autoscaling apply "$SWEEP" --endpoint bench-ep --headroom 95% >bad.out 2>bad.err
rc3=$?
set -e
[ "$rc" -eq 2 ] || fail "apply without a scalable target: exit $rc, not 2" none.err
grep -q "endpoint/no-target-ep/variant/AllTraffic (sagemaker:variant:DesiredInstanceCount) is not a scalable target in us-east-1" none.err ||
    fail "apply without a target: not said" none.err
[ "$(policy endpoint/no-target-ep/variant/AllTraffic)" = "none" ] || fail "a refused apply changed moto"
[ "$rc2" -eq 1 ] && grep -q "nothing to roll back" norb.err || fail "rollback with nothing journaled: exit $rc2" norb.err
[ "$rc3" -eq 1 ] && grep -q -- "--headroom wants" bad.err || fail "--headroom 95%: exit $rc3" bad.err
echo "refused: no scalable target (exit 2), nothing to roll back (exit 1), --headroom 95% (exit 1)"

# ---- 4. every request smfw sent, against botocore's model ---------------------------------
"$SMFW_PYTHON" - "$SMFW_TESTDATA_DIR/awsmodels/application-autoscaling/2016-02-06/service-2.json" \
    "$work/recording.jsonl" plan.json plan2.json plan-ic.json plan-run.json <<'PY'
import base64, collections, json, sys
from botocore.model import ServiceModel
from botocore.validate import validate_parameters
model = ServiceModel(json.load(open(sys.argv[1])), service_name="application-autoscaling")
seen = collections.Counter()
for line in open(sys.argv[2]):
    r = json.loads(line)
    h = {k.lower(): v for k, v in r["headers"].items()}
    if "smfw" not in h.get("user-agent", "") or "AnyScaleFrontendService" not in h.get("x-amz-target", ""):
        continue
    op = h["x-amz-target"].split(".", 1)[1]
    body = base64.b64decode(r["body"]) if r.get("body_encoded") else (r["body"] or "").encode()
    assert h.get("content-type") == "application/x-amz-json-1.1", h.get("content-type")
    validate_parameters(json.loads(body), model.operation_model(op).input_shape)  # raises when invalid
    seen[op] += 1
for f in sys.argv[3:]:
    validate_parameters(json.load(open(f)), model.operation_model("PutScalingPolicy").input_shape)
# botocore's validator has teeth: a misspelt member and a wrong type are refused
from botocore.exceptions import ParamValidationError
good = json.load(open(sys.argv[3]))
for bad in ({**good, "PolicyTyp": "TargetTrackingScaling"},
            {**good, "TargetTrackingScalingPolicyConfiguration": {"TargetValue": "57"}}):
    try:
        validate_parameters(bad, model.operation_model("PutScalingPolicy").input_shape)
    except ParamValidationError:
        continue
    raise SystemExit(f"botocore accepted {bad}")
want = {"DescribeScalableTargets", "DescribeScalingPolicies", "PutScalingPolicy", "DeleteScalingPolicy"}
assert want <= set(seen), seen
print("valid against botocore's Application Auto Scaling model: "
      + ", ".join(f"{k} x{v}" for k, v in sorted(seen.items())))
PY
echo "test_moto_autoscaling OK against moto $MOTO_VERSION in $((($(date +%s%N) - t_start) / 1000000)) ms"
