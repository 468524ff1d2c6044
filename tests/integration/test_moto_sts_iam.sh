#!/usr/bin/env bash
# test_moto_sts_iam.sh - smfw's STS and IAM code against moto_server, boto3 as
# the independent side:
#  1. GetCallerIdentity with environment keys: smfw's reading equals boto3's;
#     `smfw --backend managed` (dry run) resolves the account and default bucket
#     from it and the execution role from IAM ListRoles; ListRoles past a page.
#  2. AssumeRole from a profile with role_arn + source_profile (and a chain of
#     two): temporary credentials, the caller is the assumed role's session;
#     the dry run takes its execution role from that assumed role (IAM GetRole).
#  3. AssumeRoleWithWebIdentity (AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE): the
#     same; with -vv neither the token nor a secret key reaches the log.
#  4. The managed pre-flight's trust check on roles boto3 created (SageMaker at
#     smfw-mock): a role trusting sagemaker.amazonaws.com (alone or in a list)
#     passes; one trusting only ec2.amazonaws.com is refused with its sentence;
#     a missing role is named. The same roles in smfw-mock give the same verdicts.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
t_start=$(date +%s%N)
start_moto
start_mock --endpoint bench-ep --role SmfwTrusted --role SmfwEc2Only:ec2.amazonaws.com

trust() { # trust PRINCIPAL... : a trust policy document allowing these service principals
    "$SMFW_PYTHON" -c 'import json, sys; p = sys.argv[1:]; print(json.dumps({"Version": "2012-10-17",
"Statement": [{"Effect": "Allow", "Principal": {"Service": p[0] if len(p) == 1 else p}, "Action": "sts:AssumeRole"}]}))' "$@"
}
boto '
docs = json.loads(sys.argv[1])
for name, doc in docs.items():
    iam.create_role(RoleName=name, AssumeRolePolicyDocument=doc, Path="/bench/" if "Path" in name else "/")
' "$("$SMFW_PYTHON" -c 'import json, sys; print(json.dumps(dict(zip(sys.argv[1::2], sys.argv[2::2]))))' \
    SmfwTrusted "$(trust sagemaker.amazonaws.com)" \
    SmfwTrustedList "$(trust ec2.amazonaws.com sagemaker.amazonaws.com)" \
    SmfwEc2Only "$(trust ec2.amazonaws.com)" \
    AmazonSageMaker-ExecutionRole-Moto "$(trust sagemaker.amazonaws.com)" \
    SageMakerBenchAssumed "$(trust sagemaker.amazonaws.com)" \
    SageMakerWebPath "$(trust sagemaker.amazonaws.com)")"

field() { sed -n "s/^  $2 *//p" "$1" | head -1; }
whoami_field() { sed -n "s/^$2 //p" "$1"; }

# ---- 1. environment keys ----------------------------------------------------------------
AWS_ENDPOINT_URL="$MOTO_URL" "$AWS_CALL" whoami >env.who || fail "whoami (env)" env.who
boto 'id = sts.get_caller_identity(); print(id["Account"], id["Arn"])' >env.boto
[ "$(whoami_field env.who account) $(whoami_field env.who arn)" = "$(cat env.boto)" ] ||
    fail "GetCallerIdentity: smfw and boto3 disagree" env.who env.boto
[ "$(whoami_field env.who provider)" = environment ] || fail "provider" env.who
AWS_ENDPOINT_URL="$MOTO_URL" "$SMFW" --backend managed --endpoint bench-ep >dry1.out 2>dry1.err ||
    fail "dry run (env)" dry1.out dry1.err
[ "$(field dry1.out account)" = "$ACCOUNT" ] || fail "dry run account" dry1.out
field dry1.out "dataset object" | grep -q "s3://sagemaker-us-east-1-$ACCOUNT/" || fail "dry run bucket" dry1.out
[ "$(field dry1.out role)" = "arn:aws:iam::$ACCOUNT:role/AmazonSageMaker-ExecutionRole-Moto" ] ||
    fail "dry run role from ListRoles" dry1.out dry1.err
grep -q "Not resolved" dry1.out && fail "dry run left something unresolved" dry1.out
AWS_ENDPOINT_URL="$MOCK_URL" AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET" \
    "$AWS_CALL" whoami >mock.who || fail "whoami (smfw-mock)" mock.who
[ "$(whoami_field mock.who arn)" = "arn:aws:iam::111122223333:user/smfw-mock" ] ||
    fail "smfw-mock's caller (an IAM user ARN, where moto says sts)" mock.who
echo "env keys: $(cat env.boto)"
# ListRoles past moto's 100-role page: every role once (boto3's paginator is the reference).
boto '
import concurrent.futures
doc = json.dumps({"Version": "2012-10-17", "Statement": []})
with concurrent.futures.ThreadPoolExecutor(6) as ex:
    list(ex.map(lambda i: iam.create_role(RoleName=f"Filler{i:03d}", AssumeRolePolicyDocument=doc), range(101)))
names = sorted(r["RoleName"] + "\t" + r["Arn"] for p in iam.get_paginator("list_roles").paginate() for r in p["Roles"])
open("roles.boto", "w").write("\n".join(names) + "\n")
'
AWS_ENDPOINT_URL="$MOTO_URL" "$AWS_CALL" roles | sort >roles.smfw || fail "ListRoles" roles.smfw
cmp -s roles.smfw roles.boto || fail "ListRoles: smfw and boto3 list different roles" roles.smfw roles.boto
[ "$(wc -l <roles.smfw)" -ge 107 ] || fail "ListRoles: $(wc -l <roles.smfw) roles" roles.smfw
echo "ListRoles: $(wc -l <roles.smfw) roles over pages, the same as boto3's"

# ---- 2. AssumeRole from profiles ----------------------------------------------------------
cat >"$AWS_CONFIG_FILE" <<EOF
[profile base]
aws_access_key_id = AKIDBASEPROFILE
aws_secret_access_key = base-profile-secret-EXAMPLE
[profile bench]
role_arn = arn:aws:iam::$ACCOUNT:role/SageMakerBenchAssumed
source_profile = base
role_session_name = smfw-moto-bench
[profile second]
role_arn = arn:aws:iam::$ACCOUNT:role/SmfwTrusted
source_profile = bench
role_session_name = smfw-moto-second
duration_seconds = 1800
EOF
(
    unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
    export AWS_ENDPOINT_URL="$MOTO_URL"
    AWS_PROFILE=bench "$AWS_CALL" whoami >bench.who || fail "whoami (bench)" bench.who
    AWS_PROFILE=second "$AWS_CALL" whoami >second.who || fail "whoami (second)" second.who
    AWS_PROFILE=bench "$SMFW" --backend managed --endpoint bench-ep >dry2.out 2>dry2.err ||
        fail "dry run (bench)" dry2.out dry2.err
)
[ "$(whoami_field bench.who provider)" = assume-role ] && [ "$(whoami_field bench.who temporary)" = yes ] ||
    fail "bench: not assumed-role credentials" bench.who
[ "$(whoami_field bench.who arn)" = "arn:aws:sts::$ACCOUNT:assumed-role/SageMakerBenchAssumed/smfw-moto-bench" ] ||
    fail "bench: caller" bench.who
[ "$(whoami_field second.who arn)" = "arn:aws:sts::$ACCOUNT:assumed-role/SmfwTrusted/smfw-moto-second" ] ||
    fail "second: caller (a chain of two AssumeRole calls)" second.who
[ "$(field dry2.out role)" = "arn:aws:iam::$ACCOUNT:role/SageMakerBenchAssumed" ] ||
    fail "dry run role from the assumed role" dry2.out dry2.err
echo "assume-role: $(whoami_field bench.who arn); chain: $(whoami_field second.who arn)"
: >"$AWS_CONFIG_FILE"

# ---- 3. web identity ----------------------------------------------------------------------
TOKEN=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6Ym0ifQ.c2lnbmF0dXJlLW5vdC1jaGVja2Vk
printf '%s' "$TOKEN" >token.jwt
(
    unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
    export AWS_ENDPOINT_URL="$MOTO_URL" AWS_ROLE_ARN="arn:aws:iam::$ACCOUNT:role/bench/SageMakerWebPath" \
        AWS_WEB_IDENTITY_TOKEN_FILE="$work/token.jwt" AWS_ROLE_SESSION_NAME=smfw-moto-irsa
    "$AWS_CALL" whoami >web.who || fail "whoami (web identity)" web.who
    "$SMFW" --backend managed --endpoint bench-ep -vv >dry3.out 2>dry3.err || fail "dry run (web identity)" dry3.out dry3.err
)
[ "$(whoami_field web.who provider)" = web-identity ] && [ "$(whoami_field web.who temporary)" = yes ] ||
    fail "web identity: provider" web.who
[ "$(whoami_field web.who arn)" = "arn:aws:sts::$ACCOUNT:assumed-role/SageMakerWebPath/smfw-moto-irsa" ] ||
    fail "web identity: caller" web.who
[ "$(field dry3.out role)" = "arn:aws:iam::$ACCOUNT:role/bench/SageMakerWebPath" ] ||
    fail "web identity dry run: role (full ARN with its path from GetRole)" dry3.out dry3.err
grep -q "AssumeRoleWithWebIdentity" dry3.err || fail "-vv shows no STS trace" dry3.err
grep -qF "$TOKEN" dry3.out dry3.err && fail "the web identity token reached the log" dry3.err
grep -E "<(SecretAccessKey|SessionToken)>[^*<]" dry3.err && fail "a secret reached the -vv log" dry3.err
echo "web identity: $(whoami_field web.who arn)"

# ---- 4. the pre-flight trust check ------------------------------------------------------
boto 's3.create_bucket(Bucket="smfw-trust")'
printf '{"text":"hello there","output_length":8}\n' >one.jsonl
preflight() { # preflight OUT IAM_URL ROLE_NAME : one managed launch; sets rc
    set +e
    AWS_ENDPOINT_URL_S3="$MOTO_URL" AWS_ENDPOINT_URL_STS="$MOTO_URL" AWS_ENDPOINT_URL_IAM="$2" \
        AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING="$MOTO_URL" AWS_ENDPOINT_URL_SAGEMAKER="$MOCK_URL" \
        AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET" \
        "$SMFW" --backend managed --run --no-wait --endpoint bench-ep --bucket smfw-trust \
        --role-arn "arn:aws:iam::$ACCOUNT:role/$3" --dataset custom --dataset-file one.jsonl \
        --request-count 2 --concurrency 1 -o "$1" >"$1.out" 2>"$1.err"
    rc=$?
    set -e
}
for where in moto mock; do
    url=$MOTO_URL
    [ "$where" = mock ] && url=$MOCK_URL
    # smfw-mock's roles live in its --account-id (111122223333 by default): only the name is looked up.
    preflight "ok-$where" "$url" SmfwTrusted
    [ "$rc" -eq 0 ] && grep -q "launched benchmark job" "ok-$where.err" ||
        fail "$where: trusted role refused (exit $rc)" "ok-$where.out" "ok-$where.err"
    preflight "ec2-$where" "$url" SmfwEc2Only
    [ "$rc" -eq 1 ] || fail "$where: ec2-only role: exit $rc, want 1" "ec2-$where.out" "ec2-$where.err"
    grep -q "role arn:aws:iam::$ACCOUNT:role/SmfwEc2Only does not trust sagemaker.amazonaws.com: its trust policy has no Allow sts:AssumeRole statement for that service principal" \
        "ec2-$where.err" || fail "$where: ec2-only role: no trust sentence" "ec2-$where.err"
    grep -q "launched" "ec2-$where.err" && fail "$where: launched with an untrusting role" "ec2-$where.err"
    preflight "none-$where" "$url" SmfwNoSuchRole
    [ "$rc" -eq 1 ] && grep -q "role arn:aws:iam::$ACCOUNT:role/SmfwNoSuchRole does not exist (IAM GetRole)" "none-$where.err" ||
        fail "$where: missing role (exit $rc)" "none-$where.err"
done
preflight ok-list "$MOTO_URL" SmfwTrustedList
[ "$rc" -eq 0 ] || fail "a trust list with sagemaker.amazonaws.com refused (exit $rc)" ok-list.err
echo "trust check: same verdicts from moto's and smfw-mock's IAM"
# The same GetRole from both, as botocore parses it (docs/mock.md, "Differences from moto").
"$SMFW_PYTHON" - "$MOTO_URL" "$MOCK_URL" "$MOCK_KEY" "$MOCK_SECRET" <<'PY'
import sys, boto3, botocore
moto, mock, kid, secret = sys.argv[1:]
def iam(url, k, s):
    return boto3.client("iam", endpoint_url=url, region_name="us-east-1", aws_access_key_id=k,
                        aws_secret_access_key=s)
def shape(c):
    r = c.get_role(RoleName="SmfwTrusted")["Role"]
    doc = r["AssumeRolePolicyDocument"]["Statement"][0]
    try:
        c.get_role(RoleName="SmfwNoSuchRole")
        raise SystemExit("GetRole found a missing role")
    except botocore.exceptions.ClientError as e:
        missing = (e.response["Error"]["Code"], e.response["ResponseMetadata"]["HTTPStatusCode"])
    return (sorted(r), r["RoleId"][:4], r["Path"], doc["Principal"], doc["Action"], missing)
a, b = shape(iam(moto, "testing", "testing")), shape(iam(mock, kid, secret))
assert a == b, f"moto {a}\nmock {b}"
assert "RoleLastUsed" in a[0] and a[5] == ("NoSuchEntity", 404), a
print("GetRole: moto and smfw-mock give the same members, trust and NoSuchEntity")
PY
echo "test_moto_sts_iam OK against moto $MOTO_VERSION in $((($(date +%s%N) - t_start) / 1000000)) ms"
