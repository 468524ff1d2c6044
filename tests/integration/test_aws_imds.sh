#!/usr/bin/env bash
# test_aws_imds.sh - EC2 instance metadata (IMDS) and container credentials at their edges,
# against a local fake of both (imds_fake.py), botocore 1.43 resolving the SAME
# environment as the independent side:
#  1. IMDSv2: one token PUT (TTL header 21600) for the role list and the credentials, both
#     GETs carry it; the same credentials and the same requests as botocore.
#  2. the token PUT answered 403/404/405, 500 (after AWS_METADATA_SERVICE_NUM_ATTEMPTS) or
#     too late (a hop limit of 1): both fall back to IMDSv1 with the same requests; 400:
#     both refuse; ec2_metadata_v1_disabled (environment or profile) with no token: both
#     refuse, smfw saying why; an instance without a role: both refuse.
#  3. AWS_EC2_METADATA_DISABLED=true: no request reaches the fake, both find nothing.
#  4. a token IMDS stops accepting (401) is fetched again once (smfw only: botocore fetches
#     a token per refresh).
#  5. container credentials (FULL_URI): the AUTHORIZATION_TOKEN and _TOKEN_FILE headers
#     (the file wins), a 500 retried, a 401 refused, a token with a line break refused, and a
#     host that only looks like loopback (127.0.0.1.example.invalid) refused by both before
#     any request.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_PYTHON:?}" "${SMFW_SOURCE_DIR:?}"
AWS_CALL="$SMFW_BUILD_DIR/tests/integration/aws_call"
FAKE="$SMFW_SOURCE_DIR/tests/integration/imds_fake.py"
[ -x "$AWS_CALL" ] || { echo "FAIL: $AWS_CALL is not built"; exit 1; }
source "$SMFW_SOURCE_DIR/tests/integration/test_fake_lib.bash" imds
export HOME="$work" AWS_CONFIG_FILE="$work/config" AWS_SHARED_CREDENTIALS_FILE="$work/credentials"
export AWS_REGION=us-west-2 AWS_MAX_ATTEMPTS=1
: >"$AWS_CONFIG_FILE"
: >"$AWS_SHARED_CREDENTIALS_FILE"
echo v2 >mode
"$SMFW_PYTHON" "$FAKE" serve "$work/port" "$work/req.log" "$work/mode" 2>"$work/fake.err" &
fake_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || fail "the fake did not start" "$work/fake.err"
FAKE_URL="http://127.0.0.1:$(cat "$work/port")"
export AWS_EC2_METADATA_SERVICE_ENDPOINT="$FAKE_URL" AWS_METADATA_SERVICE_TIMEOUT=1

# both NAME MODE: run smfw (aws_call creds-imds) and botocore against the fake in MODE (a
# fresh fake state for each); each side's
# output, error and requests are NAME.{smfw,boto}.{out,err,req}.
both() {
    local name=$1 mode=$2 side
    for side in smfw boto; do
        echo "$mode $name.$side" >mode
        : >req.log
        if [ $side = smfw ]; then
            "$AWS_CALL" creds-imds >"$name.$side.out" 2>"$name.$side.err" &&
                echo 0 >"$name.$side.rc" || echo $? >"$name.$side.rc"
        else
            "$SMFW_PYTHON" "$FAKE" boto >"$name.$side.out" 2>"$name.$side.err" &&
                echo 0 >"$name.$side.rc" || echo $? >"$name.$side.rc"
        fi
        # Tokens are numbered by the fake: compare whether one was sent, not which.
        "$SMFW_PYTHON" -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    r["token"] = r["token"] is not None
    print(json.dumps(r, sort_keys=True))' req.log >"$name.$side.req"
    done
}
same_requests() {
    cmp -s "$1.smfw.req" "$1.boto.req" ||
        fail "$1: smfw and botocore sent different requests" "$1.smfw.req" "$1.boto.req"
}
same_creds() { # same_creds NAME PROVIDER: both succeed with the same credentials
    local name=$1
    [ "$(cat "$name.smfw.rc")" = 0 ] || fail "$name: smfw failed" "$name.smfw.err"
    [ "$(cat "$name.boto.rc")" = 0 ] || fail "$name: botocore failed" "$name.boto.out"
    grep -qx "provider $2" "$name.smfw.out" || fail "$name: provider" "$name.smfw.out"
    cmp -s <(grep -v '^provider ' "$name.smfw.out") <(grep -v '^provider ' "$name.boto.out") ||
        fail "$name: smfw and botocore resolved different credentials" "$name.smfw.out" "$name.boto.out"
}
both_refuse() { # both_refuse NAME WORDS...: both fail, smfw's sentence has every WORD
    local name=$1 w
    shift
    [ "$(cat "$name.smfw.rc")" != 0 ] || fail "$name: smfw accepted it" "$name.smfw.out"
    [ "$(cat "$name.boto.rc")" != 0 ] || fail "$name: botocore accepted it" "$name.boto.out"
    for w in "$@"; do
        grep -qF -- "$w" "$name.smfw.err" || fail "$name: smfw's sentence lacks '$w'" "$name.smfw.err"
    done
    if grep -qE 'imds-token-|container-auth-token|imdssecret|ecssecret' "$name.smfw.err"; then
        fail "$name: a secret in smfw's message" "$name.smfw.err"
    fi
    echo "$name: both refuse; smfw: $(cat "$name.smfw.err")"
}
count() { grep -c "$2" "$1" || true; }

# ---- 1. IMDSv2 ------------------------------------------------------------------------
both v2 v2
same_creds v2 instance-metadata
same_requests v2
[ "$(count v2.smfw.req '"method": "PUT"')" = 1 ] || fail "v2: one token PUT" v2.smfw.req
grep -q '"ttl": "21600"' v2.smfw.req || fail "v2: TTL header" v2.smfw.req
[ "$(count v2.smfw.req '"token": true')" = 2 ] || fail "v2: both GETs carry the token" v2.smfw.req
echo "IMDSv2: one PUT and two GETs with its token, the same credentials as botocore"

# ---- 2. fallbacks ---------------------------------------------------------------------
for m in put403 put404 put405 puthang; do
    both "$m" "$m"
    same_creds "$m" instance-metadata
    same_requests "$m"
    [ "$(count "$m.smfw.req" '"token": true')" = 0 ] || fail "$m: IMDSv1 GETs carry no token" "$m.smfw.req"
    echo "$m: IMDSv1 fallback, the same requests and credentials as botocore"
done
AWS_METADATA_SERVICE_NUM_ATTEMPTS=2 both put500 put500
same_creds put500 instance-metadata
same_requests put500
[ "$(count put500.smfw.req '"method": "PUT"')" = 2 ] || fail "put500: two attempts" put500.smfw.req
echo "put500: two PUT attempts, then IMDSv1, as botocore"
both put400 put400
both_refuse put400 "HTTP 400"
AWS_EC2_METADATA_V1_DISABLED=true both v1env v1off
both_refuse v1env "IMDSv1 is disabled" "refused"
same_requests v1env
[ "$(wc -l <v1env.smfw.req)" = 1 ] || fail "v1env: only the PUT" v1env.smfw.req
printf '[default]\nec2_metadata_v1_disabled = true\n' >"$AWS_CONFIG_FILE"
both v1profile v1off
both_refuse v1profile "IMDSv1 is disabled"
AWS_METADATA_SERVICE_TIMEOUT=1 both v1hang puthang
both_refuse v1hang "IMDSv1 is disabled" "timed out"
: >"$AWS_CONFIG_FILE"
both norole norole
both_refuse norole "no IAM role"

# ---- 3. disabled ----------------------------------------------------------------------
AWS_EC2_METADATA_DISABLED=true both disabled v2
both_refuse disabled "AWS_EC2_METADATA_DISABLED=true"
[ ! -s disabled.smfw.req ] || fail "disabled: smfw asked IMDS" disabled.smfw.req
[ ! -s disabled.boto.req ] || fail "disabled: botocore asked IMDS" disabled.boto.req
echo "AWS_EC2_METADATA_DISABLED=true: no request from either"

# ---- 4. an expired token --------------------------------------------------------------
echo "expire smfw" >mode
: >req.log
"$AWS_CALL" creds-imds >expire.out 2>expire.err || fail "expire: smfw failed" expire.err
grep -qx "access_key_id AKIDIMDS" expire.out || fail "expire: credentials" expire.out
[ "$(count req.log '"method": "PUT"')" = 2 ] || fail "expire: a second token after the 401" req.log
echo "a token IMDS no longer accepts: fetched again once, then the credentials"

# ---- 5. container credentials ---------------------------------------------------------
export AWS_CONTAINER_CREDENTIALS_FULL_URI="$FAKE_URL/creds"
AWS_CONTAINER_AUTHORIZATION_TOKEN=container-auth-token both ecs_env ecs
same_creds ecs_env container
same_requests ecs_env
printf 'container-auth-token' >token
AWS_CONTAINER_AUTHORIZATION_TOKEN=wrong AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE="$work/token" \
    both ecs_file ecs
same_creds ecs_file container
same_requests ecs_file
grep -q '"authorization": "container-auth-token"' ecs_file.smfw.req || fail "ecs_file: header" ecs_file.smfw.req
echo "container: the token from the environment and from the file (which wins), as botocore"
AWS_CONTAINER_AUTHORIZATION_TOKEN=container-auth-token both ecs500 ecs500
same_creds ecs500 container
same_requests ecs500
AWS_CONTAINER_AUTHORIZATION_TOKEN=container-auth-token both ecs401 ecs401
both_refuse ecs401 "HTTP 401"
AWS_CONTAINER_AUTHORIZATION_TOKEN=$'container-auth-token\r\nX-Injected: 1' both ecs_crlf ecs
both_refuse ecs_crlf "line break"
[ ! -s ecs_crlf.smfw.req ] || fail "ecs_crlf: smfw sent it" ecs_crlf.smfw.req
AWS_CONTAINER_CREDENTIALS_FULL_URI="http://127.0.0.1.example.invalid:$(cat port)/creds" \
    both ecs_host ecs
both_refuse ecs_host "must be https:// or http://"
[ ! -s ecs_host.smfw.req ] || fail "ecs_host: smfw sent a request" ecs_host.smfw.req
AWS_CONTAINER_CREDENTIALS_FULL_URI="http://localhost:$(cat port)/creds" \
    AWS_CONTAINER_AUTHORIZATION_TOKEN=container-auth-token both ecs_localhost ecs
same_creds ecs_localhost container
echo "container: 500 retried, 401 and a line break refused, a non-loopback host refused, localhost taken, as botocore"
# 6. The region from instance metadata, nothing else configured. botocore never takes a
#    client's region from it (its session region stays None: NoRegionError); smfw does, as the
#    Java SDK v2's default chain and the Rust SDK (which reads the same placement/region, with
#    IMDSv2) do (docs/aws.md). botocore's IMDSRegionProvider (for defaults_mode=auto only) reads the zone
#    and drops its last letter: the same region here, but in a Local Zone it gives
#    "us-west-2-lax-1", no region at all, where smfw's is the one whose endpoints serve it.
unset AWS_CONTAINER_CREDENTIALS_FULL_URI
for m in v2 localzone; do
    echo "$m region.smfw" >mode
    : >req.log
    env -u AWS_REGION -u AWS_DEFAULT_REGION "$AWS_CALL" region-imds >"region-$m.smfw" 2>&1 ||
        fail "$m: smfw found no region" "region-$m.smfw"
    grep -q '"PUT", "path": "/latest/api/token"' req.log || fail "$m: not asked with IMDSv2" req.log
    echo "$m region.boto" >mode
    env -u AWS_REGION -u AWS_DEFAULT_REGION "$SMFW_PYTHON" "$FAKE" region >"region-$m.boto" 2>&1 ||
        fail "$m: botocore found no region" "region-$m.boto"
done
[ "$(cat region-v2.smfw)" = eu-west-1 ] && [ "$(cat region-v2.boto)" = "None eu-west-1" ] ||
    fail "region from instance metadata: smfw $(cat region-v2.smfw), botocore $(cat region-v2.boto)"
[ "$(cat region-localzone.smfw)" = us-west-2 ] && [ "$(cat region-localzone.boto)" = "None us-west-2-lax-1" ] ||
    fail "Local Zone: smfw $(cat region-localzone.smfw), botocore $(cat region-localzone.boto)"
echo "region: eu-west-1 from instance metadata (botocore's IMDS provider: the same; its session: none); in a Local Zone us-west-2 (botocore's provider: us-west-2-lax-1)"
echo "test_aws_imds: all passed"
