#!/usr/bin/env bash
# test_moto_monitoring.sh - smfw's CloudWatch, Application Auto Scaling and
# SageMaker control-plane reads against moto_server, boto3 as the writer:
#  1. `smfw cloudwatch` over AWS/SageMaker metrics boto3 put into moto
#     (GetMetricData, awsJson 1.0): totals, the latency mean in ms (published in
#     µs) and maxima equal what was put; metrics never put are named missing.
#  2. The managed pre-flight's autoscaling check over targets boto3 registered in
#     moto: MinCapacity != MaxCapacity warns with the range, Min == Max does not;
#     the same with smfw-mock's --autoscaling.
#  3. DescribeEndpoint at moto (moto 5.2.1 has no DescribeInferenceComponent):
#     an endpoint boto3 created passes the pre-flight and its variant names the
#     autoscaling target; an unknown one is refused with moto's sentence; the
#     launch then stops at CreateAIWorkloadConfig, which moto lacks.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
t_start=$(date +%s%N)
start_moto
start_mock --endpoint bench-ep --endpoint fixed-ep --autoscaling bench-ep:1:4 --autoscaling fixed-ep:2:2 \
    --account-id "$ACCOUNT"

# ---- 1. CloudWatch GetMetricData ----------------------------------------------------------
boto '
now = datetime.datetime.now(datetime.timezone.utc).replace(second=0, microsecond=0)
dims = [{"Name": "EndpointName", "Value": "bench-ep"}, {"Name": "VariantName", "Value": "AllTraffic"}]
other = [{"Name": "EndpointName", "Value": "other-ep"}, {"Name": "VariantName", "Value": "AllTraffic"}]
data = []
for k, (inv, e5, lat) in enumerate([(40, 1, [1500.0, 2500.0]), (60, 2, [3000.0, 1000.0, 9000.0])]):
    t = now - datetime.timedelta(minutes=3 - k)
    data += [{"MetricName": "Invocations", "Dimensions": dims, "Timestamp": t, "Value": inv, "Unit": "None"},
             {"MetricName": "Invocation5XXErrors", "Dimensions": dims, "Timestamp": t, "Value": e5, "Unit": "None"},
             {"MetricName": "Invocation4XXErrors", "Dimensions": dims, "Timestamp": t, "Value": 0, "Unit": "None"},
             {"MetricName": "Invocations", "Dimensions": other, "Timestamp": t, "Value": 1000, "Unit": "None"}]
    data += [{"MetricName": "ModelLatency", "Dimensions": dims, "Timestamp": t, "Value": v,
              "Unit": "Microseconds"} for v in lat]
cw.put_metric_data(Namespace="AWS/SageMaker", MetricData=data)
'
AWS_ENDPOINT_URL_CLOUDWATCH="$MOTO_URL" "$SMFW" cloudwatch --endpoint bench-ep --since 10m \
    --format json >cw.json 2>cw.err || fail "smfw cloudwatch at moto" cw.json cw.err
"$SMFW_PYTHON" - cw.json <<'PY'
import json, sys
cw = json.load(open(sys.argv[1]))
m = cw["metrics"]
assert cw["endpoint"] == "bench-ep", cw["endpoint"]
assert m["Invocations"]["total"] == 100 and m["Invocations"]["points"] == 2, m["Invocations"]
assert m["Invocation5XXErrors"]["total"] == 3, m["Invocation5XXErrors"]
assert m["Invocation4XXErrors"]["total"] == 0, m["Invocation4XXErrors"]
ml = m["ModelLatency"]
assert abs(ml["mean"] - 17000 / 5 / 1000) < 1e-9, ml      # µs put, ms read: 3.4 ms
assert abs(ml["max"] - 9.0) < 1e-9, ml
for g in ("GPUUtilization", "OverheadLatency"):
    assert m[g]["present"] is False, m[g]
print("cloudwatch: Invocations %d, 5XX %d, ModelLatency mean %.1f ms max %.1f ms"
      % (m["Invocations"]["total"], m["Invocation5XXErrors"]["total"], ml["mean"], ml["max"]))
PY

# ---- 2 + 3. autoscaling targets and DescribeEndpoint ------------------------------------
boto '
for ep, lo, hi in (("bench-ep", 1, 4), ("fixed-ep", 2, 2)):
    aas.register_scalable_target(ServiceNamespace="sagemaker", ResourceId=f"endpoint/{ep}/variant/AllTraffic",
                                 ScalableDimension="sagemaker:variant:DesiredInstanceCount",
                                 MinCapacity=lo, MaxCapacity=hi)
    sm.create_model(ModelName=ep + "-model", ExecutionRoleArn="arn:aws:iam::123456789012:role/SmfwTrusted",
                    PrimaryContainer={"Image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/llm:1"})
    sm.create_endpoint_config(EndpointConfigName=ep + "-config", ProductionVariants=[{
        "VariantName": "AllTraffic", "ModelName": ep + "-model", "InitialInstanceCount": 1,
        "InstanceType": "ml.g4dn.xlarge"}])
    sm.create_endpoint(EndpointName=ep, EndpointConfigName=ep + "-config")
    assert sm.describe_endpoint(EndpointName=ep)["EndpointStatus"] == "InService"
iam.create_role(RoleName="SmfwTrusted", AssumeRolePolicyDocument=json.dumps({"Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}))
s3.create_bucket(Bucket="smfw-monitor")
'
printf '{"text":"hello there","output_length":8}\n' >one.jsonl
launch() { # launch OUT SAGEMAKER_URL AUTOSCALING_URL ENDPOINT : one managed launch; sets rc
    set +e
    AWS_ENDPOINT_URL="$MOTO_URL" AWS_ENDPOINT_URL_SAGEMAKER="$2" AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING="$3" \
        AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET" \
        "$SMFW" --backend managed --run --no-wait --endpoint "$4" --bucket smfw-monitor \
        --role-arn "arn:aws:iam::$ACCOUNT:role/SmfwTrusted" --dataset custom --dataset-file one.jsonl \
        --request-count 2 --concurrency 1 -o "$1" >"$1.out" 2>"$1.err"
    rc=$?
    set -e
}
WARN="autoscaling on endpoint/bench-ep/variant/AllTraffic can change the capacity between 1 and 4 during the run"
for where in moto mock; do
    url=$MOTO_URL
    [ "$where" = mock ] && url=$MOCK_URL
    launch "scaling-$where" "$MOCK_URL" "$url" bench-ep
    [ "$rc" -eq 0 ] || fail "$where: launch with autoscaling (exit $rc)" "scaling-$where.err"
    grep -q "$WARN" "scaling-$where.err" || fail "$where: no Min != Max warning" "scaling-$where.err"
    launch "fixed-$where" "$MOCK_URL" "$url" fixed-ep
    [ "$rc" -eq 0 ] || fail "$where: launch with fixed capacity (exit $rc)" "fixed-$where.err"
    grep -q "autoscaling on\|could not check autoscaling" "fixed-$where.err" &&
        fail "$where: Min == Max warned" "fixed-$where.err"
done
echo "autoscaling: Min != Max warned, Min == Max not (moto and smfw-mock)"
# The same reads from both, as botocore parses them (docs/mock.md, "Differences from moto").
AWS_DATA_PATH="$SMFW_TESTDATA_DIR/awsmodels" "$SMFW_PYTHON" - "$MOTO_URL" "$MOCK_URL" "$MOCK_KEY" "$MOCK_SECRET" <<'PY'
import datetime, sys, boto3, botocore
moto, mock, kid, secret = sys.argv[1:]
def c(name, url, k, s):
    return boto3.client(name, endpoint_url=url, region_name="us-east-1", aws_access_key_id=k,
                        aws_secret_access_key=s, config=botocore.config.Config(retries={"max_attempts": 1}))
def shape(url, k, s):
    t = c("application-autoscaling", url, k, s).describe_scalable_targets(
        ServiceNamespace="sagemaker", ResourceIds=["endpoint/bench-ep/variant/AllTraffic"])["ScalableTargets"]
    assert len(t) == 1, t
    try:
        c("application-autoscaling", url, k, s).describe_scalable_targets(ServiceNamespace="nope")
        raise SystemExit("a bad namespace was accepted")
    except botocore.exceptions.ClientError as e:
        bad = (e.response["Error"]["Code"], "Value 'nope' at 'serviceNamespace'" in e.response["Error"]["Message"])
    now = datetime.datetime.now(datetime.timezone.utc)
    try:
        c("cloudwatch", url, k, s).get_metric_data(StartTime=now, EndTime=now - datetime.timedelta(minutes=5),
            MetricDataQueries=[{"Id": "a", "MetricStat": {"Metric": {"Namespace": "AWS/SageMaker",
                                "MetricName": "Invocations"}, "Period": 60, "Stat": "Sum"}}])
        raise SystemExit("EndTime before StartTime was accepted")
    except botocore.exceptions.ClientError as e:
        cw = (e.response["Error"]["Code"], e.response["Error"].get("QueryErrorCode"), e.response["Error"].get("Type"))
    x = t[0]
    return (x["MinCapacity"], x["MaxCapacity"], x["ScalableTargetARN"].split("/")[0], bad, cw)
a, b = shape(moto, "testing", "testing"), shape(mock, kid, secret)
assert a == b, f"moto {a}\nmock {b}"
assert a[2] == "arn:aws:application-autoscaling:us-east-1:123456789012:scalable-target", a
assert a[4] == ("ValidationError", "ValidationError", "Sender"), a
print("moto and smfw-mock agree on DescribeScalableTargets and CloudWatch's query-compatible errors")
PY

# Everything at moto: DescribeEndpoint (and its variant for the autoscaling id) passes,
# the dataset is staged, then moto has no CreateAIWorkloadConfig.
launch allmoto "$MOTO_URL" "$MOTO_URL" bench-ep
[ "$rc" -ne 0 ] || fail "CreateAIWorkloadConfig succeeded at moto?" allmoto.err
grep -q "$WARN" allmoto.err || fail "all at moto: the autoscaling check did not run" allmoto.err
grep -qE "uploading one.jsonl|dataset already staged" allmoto.err || fail "all at moto: the pre-flight did not pass" allmoto.err
grep -q "CreateAIWorkloadConfig" allmoto.err || fail "all at moto: not stopped at CreateAIWorkloadConfig" allmoto.err
launch unknown "$MOTO_URL" "$MOTO_URL" no-such-ep
[ "$rc" -ne 0 ] || fail "an unknown endpoint passed the pre-flight" unknown.err
grep -q "endpoint no-such-ep in us-east-1 cannot be described: SageMaker DescribeEndpoint failed: ValidationException: Could not find endpoint" unknown.err ||
    fail "unknown endpoint: not moto's sentence" unknown.err
echo "DescribeEndpoint at moto: $(grep -o 'SageMaker DescribeEndpoint failed: [^(]*' unknown.err)"
echo "test_moto_monitoring OK against moto $MOTO_VERSION in $((($(date +%s%N) - t_start) / 1000000)) ms"
