#!/usr/bin/env bash
# test_doctor.sh - `smfw doctor` (command plugin aws) offline and online.
#  1. --offline makes no network call: with every AWS URL, the proxy and the instance
#     metadata endpoint pointed at a listener that logs each connection, and
#     credentials that would need STS (an assume-role profile), a valid configuration
#     exits 0 and nothing connects; a bad region, an unreadable CA bundle, no region
#     at all, and a FIPS endpoint the rules refuse exit 1 naming the value (still
#     without connecting).
#  2. The per-service URL and signing region lines equal botocore's own resolver
#     (botocore_endpoints.py, shared with test_endpoint_resolution.sh) for several
#     regions and partitions, plain, FIPS and dual-stack, for both backends.
#  3. Online against smfw-mock (--deny sagemaker:InvokeEndpoint; its SimulatePrincipalPolicy
#     answer checked with botocore first): an InService endpoint and component exit 0 with
#     the caller, a measured clock skew, the statuses and the streaming action allowed; the
#     same run --no-streaming exits 2 (InvokeEndpoint denied), as do a missing endpoint and
#     a component on another endpoint, with the reason; the secret key never appears;
#     --format json says the same.
#  4. Online against moto_server: the caller is a moto IAM user (boto3 made its keys),
#     SageMaker DescribeEndpoint is moto's; moto does not implement
#     iam:SimulatePrincipalPolicy, so the permissions are "not checked" with moto's
#     reason and the exit stays 0; an assumed-role session is simulated for its role's
#     ARN read with iam:GetRole (moto logs the GetRole).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
t_start=$(date +%s%N)

# doctor OUT ARGS... : run smfw doctor, output in OUT(.err); sets rc.
doctor() {
    local out=$1
    shift
    set +e
    "$SMFW" doctor "$@" >"$out" 2>"$out.err"
    rc=$?
    set -e
}
# jget FILE SECTION NAME [level] : an item's value (or level) from --format json.
jget() {
    "$SMFW_PYTHON" - "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
key = sys.argv[4] if len(sys.argv) > 4 else "value"
for s in doc["sections"]:
    if s["title"] == sys.argv[2]:
        for it in s["items"]:
            if it["name"] == sys.argv[3]:
                print(it[key])
                sys.exit(0)
sys.exit(f"no item {sys.argv[2]} / {sys.argv[3]} in {sys.argv[1]}")
PY
}

# ---- 1. offline: nothing connects --------------------------------------------------------
cat >listener.py <<'PY'
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(64)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept()
    with open(sys.argv[1], "a") as f:
        f.write("connection\n")
    c.close()
PY
: >connections.log
timeout 600 "$SMFW_PYTHON" listener.py connections.log >listener.port &
listener_pid=$!
trap 'kill "$listener_pid" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do [ -s listener.port ] && break; sleep 0.05; done
TRAP="http://127.0.0.1:$(cat listener.port)"
cat >"$AWS_CONFIG_FILE" <<EOF
[profile base]
aws_access_key_id = AKIDOFFLINEBASE1234
aws_secret_access_key = offline-base-secret-EXAMPLE
[profile bench]
role_arn = arn:aws:iam::$ACCOUNT:role/Bench
source_profile = base
region = eu-central-1
EOF
offline_env=(env -u AWS_REGION -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_PROFILE=bench
    AWS_ENDPOINT_URL_STS="$TRAP" AWS_ENDPOINT_URL_IAM="$TRAP" HTTPS_PROXY="$TRAP" HTTP_PROXY="$TRAP"
    AWS_EC2_METADATA_DISABLED=false AWS_EC2_METADATA_SERVICE_ENDPOINT="$TRAP")
set +e
"${offline_env[@]}" "$SMFW" doctor --offline --backend managed --endpoint bench-ep \
    --inference-component ic-1 >off.txt 2>off.err
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "offline, valid configuration: exit $rc, want 0" off.txt off.err
grep -q "^  ok      region  *eu-central-1 (from the AWS config file)$" off.txt || fail "offline region" off.txt
grep -q "^  ok      sts  *$TRAP (signed eu-central-1/sts, override)$" off.txt || fail "offline sts line" off.txt
grep -q "^  ok      s3  *https://s3.eu-central-1.amazonaws.com (signed eu-central-1/s3)$" off.txt ||
    fail "offline s3 line" off.txt
grep -q "not resolved offline" off.txt || fail "offline credentials" off.txt
grep -q "sagemaker:DescribeInferenceComponent  *needed on arn:aws:sagemaker:eu-central-1:\*:inference-component/ic-1" off.txt ||
    fail "offline: the managed flow's actions" off.txt
grep -q "iam:PassRole" off.txt && grep -q "s3:PutObject" off.txt || fail "offline: iam/s3 actions" off.txt
grep -q "^Verdict: everything resolves locally (exit 0)$" off.txt || fail "offline verdict" off.txt
grep -q "https proxy $TRAP (HTTPS_PROXY)" off.txt || fail "offline: proxy not shown" off.txt
# The same with the invalid configurations: exit 1 naming the value, still offline.
invalid() { # invalid NAME WANT_TEXT ENV... : doctor --offline exits 1 with WANT_TEXT
    local name=$1 want=$2
    shift 2
    set +e
    "${offline_env[@]}" "$@" "$SMFW" doctor --offline --endpoint bench-ep >"$name.txt" 2>"$name.err"
    rc=$?
    set -e
    [ "$rc" -eq 1 ] || fail "offline $name: exit $rc, want 1" "$name.txt" "$name.err"
    grep -qF "$want" "$name.txt" || fail "offline $name: no \"$want\"" "$name.txt"
    grep -q "^Verdict: the configuration is invalid (exit 1):$" "$name.txt" || fail "offline $name verdict" "$name.txt"
}
invalid badregion "the AWS region 'Eu_Central' from AWS_REGION is not a region name" AWS_REGION=Eu_Central
invalid cabundle "$work/missing-ca.pem" AWS_CA_BUNDLE="$work/missing-ca.pem"
invalid noregion "no AWS region is configured" AWS_PROFILE=base
# FIPS S3 in China: the rules refuse it, botocore too (section 2), and the managed flow needs S3.
invalid fips "Partition does not support FIPS" AWS_REGION=cn-north-1 AWS_USE_FIPS_ENDPOINT=true \
    SMFW_BACKEND=managed
kill "$listener_pid" 2>/dev/null || true
wait "$listener_pid" 2>/dev/null || true
[ ! -s connections.log ] || fail "--offline connected $(wc -l <connections.log) time(s)" connections.log
echo "offline: exit 0 valid, 1 for region/CA bundle/no region/refused FIPS; no connection made"
: >"$AWS_CONFIG_FILE"

# ---- 2. the endpoint lines equal botocore's ----------------------------------------------
: >cases
: >smfw.lines
declare -A boto_id=([runtime.sagemaker]=sagemaker-runtime [sagemaker]=sagemaker [s3]=s3 [sts]=sts [iam]=iam
    [application-autoscaling]=application-autoscaling)
for r in us-east-1 us-west-2 eu-central-1 ap-southeast-3 cn-north-1 us-gov-west-1 us-iso-east-1; do
    for fd in "0 0" "1 0" "0 1"; do
        read -r f ds <<<"$fd"
        for backend in direct managed; do
            fe=false de=false
            [ "$f" = 1 ] && fe=true
            [ "$ds" = 1 ] && de=true
            set +e
            AWS_REGION=$r AWS_USE_FIPS_ENDPOINT=$fe AWS_USE_DUALSTACK_ENDPOINT=$de \
                "$SMFW" doctor --offline --format json --backend "$backend" --endpoint e >ep.json 2>ep.err
            set -e
            "$SMFW_PYTHON" - ep.json "$r" "$f" "$ds" >>smfw.lines <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
ids = {"runtime.sagemaker": "sagemaker-runtime"}
for s in doc["sections"]:
    if s["title"] != "Service endpoints":
        continue
    for it in s["items"]:
        key = f'{ids.get(it["name"], it["name"])} {sys.argv[2]} {sys.argv[3]} {sys.argv[4]}'
        m = re.fullmatch(r"(\S+) \(signed ([^/]+)/(\S+?)(,.*)?\)", it["value"])
        if it["level"] == "ok" and m:
            print(f"{key} = {m[1]} {m[2]} {m[3]}")
        else:
            print(f"{key} = error: {it['value']}")
PY
        done
    done
done
sort -u smfw.lines >smfw.sorted
sed 's/ = .*//' smfw.sorted >cases
[ "$(wc -l <cases)" -ge 100 ] || fail "only $(wc -l <cases) endpoint lines" smfw.sorted
AWS_DATA_PATH="$SMFW_SOURCE_DIR/data/aws" AWS_CONFIG_FILE=/dev/null \
    "$SMFW_PYTHON" "$here/botocore_endpoints.py" cases | sort -u >boto.sorted
"$SMFW_PYTHON" - boto.sorted smfw.sorted <<'PY'
import sys
def answers(p):
    return dict(l.rstrip("\n").split(" = ", 1) for l in open(p))
want, got = answers(sys.argv[1]), answers(sys.argv[2])
bad = 0
for k, w in want.items():
    g = got[k]
    same = g.startswith("error: ") and g.endswith(w[7:]) if w.startswith("error: ") else g == w
    if not same:
        bad += 1
        print(f"MISMATCH {k}\n  botocore: {w}\n  doctor:   {g}")
refused = sum(w.startswith("error: ") for w in want.values())
print(f"doctor's endpoint lines: {len(want) - bad} of {len(want)} equal botocore's ({refused} refused by both)")
sys.exit(1 if bad else 0)
PY

# ---- 3. online against smfw-mock ---------------------------------------------------------
start_mock --endpoint bench-ep --inference-component ic-1 --endpoint other-ep --deny sagemaker:InvokeEndpoint
# smfw-mock's SimulatePrincipalPolicy as botocore parses it (its iam model is the reference).
MOTO_URL=$MOCK_URL BOTO_KEY=$MOCK_KEY BOTO_SECRET=$MOCK_SECRET boto '
r = iam.simulate_principal_policy(PolicySourceArn="arn:aws:iam::111122223333:user/smfw-mock",
    ActionNames=["sagemaker:InvokeEndpoint", "sagemaker:InvokeEndpointWithResponseStream"],
    ResourceArns=["arn:aws:sagemaker:us-east-1:111122223333:endpoint/bench-ep"])
got = [(e["EvalActionName"], e["EvalResourceName"], e["EvalDecision"]) for e in r["EvaluationResults"]]
assert got == [("sagemaker:InvokeEndpoint", "arn:aws:sagemaker:us-east-1:111122223333:endpoint/bench-ep", "implicitDeny"),
               ("sagemaker:InvokeEndpointWithResponseStream", "arn:aws:sagemaker:us-east-1:111122223333:endpoint/bench-ep", "allowed")], got
assert r["IsTruncated"] is False
try:
    iam.simulate_principal_policy(PolicySourceArn="arn:aws:iam::111122223333:user/nobody", ActionNames=["s3:GetObject"])
    raise SystemExit("simulated an unknown principal")
except botocore.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] == "NoSuchEntity", e.response
print("smfw-mock SimulatePrincipalPolicy parses in botocore")
' 
mock_env=(env AWS_ENDPOINT_URL="$MOCK_URL" AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET")
set +e
"${mock_env[@]}" "$SMFW" doctor --endpoint bench-ep --inference-component ic-1 >mock.txt 2>mock.err
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "smfw-mock, InService: exit $rc, want 0" mock.txt mock.err
grep -q "^  ok      identity  *arn:aws:iam::111122223333:user/smfw-mock$" mock.txt || fail "mock identity" mock.txt
grep -q "^  ok      source  *environment (access key id \*\{16\}MPLE)$" mock.txt || fail "mock credentials" mock.txt
grep -qE "^  ok      skew  *[+-][0-9]+ s " mock.txt || fail "mock clock skew" mock.txt
grep -q "^  ok      endpoint  *bench-ep is InService$" mock.txt || fail "mock endpoint status" mock.txt
grep -q "^  ok      inference component  *ic-1 is InService on bench-ep$" mock.txt || fail "mock IC status" mock.txt
grep -q "^  ok      simulation  *the policies of arn:aws:iam::111122223333:user/smfw-mock$" mock.txt ||
    fail "mock: simulation not reported" mock.txt
grep -q "^  ok      sagemaker:InvokeEndpointWithResponseStream allowed on arn:aws:sagemaker:us-east-1:111122223333:endpoint/bench-ep" mock.txt ||
    fail "mock: streaming action" mock.txt
grep -qE "^  [a-zA-Z]* +sagemaker:InvokeEndpoint " mock.txt && fail "mock: a streaming run lists InvokeEndpoint" mock.txt
grep -qF "$MOCK_SECRET" mock.txt mock.err && fail "the secret key reached the output" mock.txt
set +e
"${mock_env[@]}" "$SMFW" doctor --endpoint bench-ep --no-streaming --format json >mock.json 2>/dev/null
rc=$?
set -e
# --deny sagemaker:InvokeEndpoint: the streaming run works, the --no-streaming one does not.
[ "$rc" -eq 2 ] || fail "smfw-mock --no-streaming with InvokeEndpoint denied: exit $rc, want 2" mock.json
[ "$(jget mock.json 'IAM permissions' sagemaker:InvokeEndpoint level)" = fail ] || fail "--no-streaming action" mock.json
jget mock.json 'IAM permissions' sagemaker:InvokeEndpoint | grep -q "^DENIED (implicitDeny) on arn:aws:sagemaker:us-east-1:111122223333:endpoint/bench-ep" ||
    fail "denied action's line" mock.json
[ "$(jget mock.json 'Endpoint status' endpoint)" = "bench-ep is InService" ] || fail "json endpoint" mock.json
"$SMFW_PYTHON" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["exit"] == 2 and len(d["reasons"]) == 1 and "sagemaker:InvokeEndpoint" in d["reasons"][0], d["reasons"]' mock.json ||
    fail "json exit/reasons" mock.json
set +e
"${mock_env[@]}" "$SMFW" doctor --endpoint missing-ep >missing.txt 2>missing.err
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "smfw-mock, missing endpoint: exit $rc, want 2" missing.txt missing.err
grep -q "^  FAIL    endpoint  *endpoint missing-ep in us-east-1 cannot be described: .*Could not find endpoint" missing.txt ||
    fail "missing endpoint: no reason" missing.txt
grep -q "^Verdict: the planned run cannot work (exit 2):$" missing.txt || fail "missing endpoint verdict" missing.txt
grep -q "^  - Endpoint status, endpoint: endpoint missing-ep" missing.txt || fail "verdict reason" missing.txt
set +e
"${mock_env[@]}" "$SMFW" doctor --endpoint other-ep --inference-component ic-1 >wrongic.txt 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "ic-1 belongs to endpoint bench-ep, not other-ep" wrongic.txt ||
    fail "component of another endpoint: exit $rc" wrongic.txt
echo "smfw-mock: InService exit 0; a denied InvokeEndpoint (--no-streaming), a missing endpoint and a foreign component exit 2 with the reason"

# ---- 4. online against moto_server -------------------------------------------------------
start_moto
boto '
user = iam.create_user(UserName="bench-user")["User"]["Arn"]
key = iam.create_access_key(UserName="bench-user")["AccessKey"]
doc = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
    "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]})
iam.create_role(RoleName="BenchRunner", Path="/bench/", AssumeRolePolicyDocument=doc)
sm.create_model(ModelName="m", ExecutionRoleArn="arn:aws:iam::123456789012:role/x",
                PrimaryContainer={"Image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/x:1"})
sm.create_endpoint_config(EndpointConfigName="c", ProductionVariants=[{"VariantName": "AllTraffic",
    "ModelName": "m", "InitialInstanceCount": 1, "InstanceType": "ml.g4dn.xlarge"}])
sm.create_endpoint(EndpointName="moto-ep", EndpointConfigName="c")
print(key["AccessKeyId"], key["SecretAccessKey"], user, sts.get_caller_identity()["Account"])
' >moto.user
read -r MOTO_AKID MOTO_SECRET MOTO_USER _ <moto.user
set +e
AWS_ENDPOINT_URL="$MOTO_URL" AWS_ACCESS_KEY_ID="$MOTO_AKID" AWS_SECRET_ACCESS_KEY="$MOTO_SECRET" \
    "$SMFW" doctor --endpoint moto-ep --format json >moto.json 2>moto.err
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "moto: exit $rc, want 0" moto.json moto.err
boto_who=$(BOTO_KEY="$MOTO_AKID" BOTO_SECRET="$MOTO_SECRET" boto 'print(sts.get_caller_identity()["Arn"])')
[ "$(jget moto.json Credentials identity)" = "$boto_who" ] && [ "$boto_who" = "$MOTO_USER" ] ||
    fail "moto identity: doctor $(jget moto.json Credentials identity), boto3 $boto_who" moto.json
[ "$(jget moto.json 'Endpoint status' endpoint level)" = ok ] || fail "moto endpoint status" moto.json
jget moto.json 'IAM permissions' simulation >moto.sim
grep -q "^not checked: IAM SimulatePrincipalPolicy failed" moto.sim || fail "moto simulation" moto.sim moto.json
grep -qF "$MOTO_SECRET" moto.json moto.err && fail "moto: the secret reached the output" moto.json
# An assumed-role session: the role's ARN (with its path) comes from GetRole.
cat >"$AWS_CONFIG_FILE" <<EOF
[profile runner]
role_arn = arn:aws:iam::$ACCOUNT:role/bench/BenchRunner
source_profile = user
[profile user]
aws_access_key_id = $MOTO_AKID
aws_secret_access_key = $MOTO_SECRET
EOF
set +e
env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_PROFILE=runner AWS_ENDPOINT_URL="$MOTO_URL" \
    "$SMFW" doctor --endpoint moto-ep -vv >role.txt 2>role.err
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "moto assumed role: exit $rc" role.txt role.err
grep -q "^  ok      source  *assume-role " role.txt || fail "assumed role: provider" role.txt
grep -q "^  ok      identity  *arn:aws:sts::$ACCOUNT:assumed-role/BenchRunner/" role.txt || fail "assumed role identity" role.txt
grep -q "body: Action=GetRole&Version=2010-05-08&RoleName=BenchRunner$" role.err ||
    fail "assumed role: no GetRole in the -vv trace" role.err
# The simulation names the role with its path, which only GetRole could tell.
grep -q "body: Action=SimulatePrincipalPolicy&Version=2010-05-08&PolicySourceArn=arn%3Aaws%3Aiam%3A%3A$ACCOUNT%3Arole%2Fbench%2FBenchRunner&" \
    role.err || fail "assumed role: simulation not for the role's ARN" role.err
grep -qF "$MOTO_SECRET" role.txt role.err && fail "assumed role: the secret reached the output" role.err
echo "moto $MOTO_VERSION: identity $MOTO_USER equals boto3's; SimulatePrincipalPolicy not implemented by moto: not checked, exit 0"
echo "test_doctor OK in $((($(date +%s%N) - t_start) / 1000000)) ms"
