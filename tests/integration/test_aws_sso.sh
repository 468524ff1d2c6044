#!/usr/bin/env bash
# test_aws_sso.sh - the IAM Identity Center (SSO) credential provider against a local
# fake of the SSO portal and SSO-OIDC (sso_fake.py; moto has no SSO), botocore 1.43
# resolving the SAME profile, token cache and endpoints as the independent side:
#  1. sso_session and legacy profiles with a valid cached token: the same key id, secret,
#     session token, expiry and account as botocore, from the same GetRoleCredentials
#     request (path, query, bearer header, unsigned); STS GetCallerIdentity signed with
#     those credentials (aws_call whoami) and a real smfw command (the managed dry run).
#  2. refresh: an expired (and a nearly expired) access token with a valid refresh token:
#     both send the same CreateToken, then GetRoleCredentials with the new token, and
#     write back the same cache JSON (mode 0600, no temporary left behind).
#  3. errors: refresh refused with the token expired, a missing cache file, an expired
#     legacy token, a token the portal refuses, missing settings, a missing
#     [sso-session]: botocore refuses each as well; smfw's sentence names the file or
#     the setting and says `aws sso login --profile X`, never a token; `smfw run` stops
#     with exit 2 (no token) or 1 (a setting missing) before any request.
#  4. without overrides the portal and SSO-OIDC are sso_region's (not the client's
#     region): the CONNECT host each client asks a proxy for is the same.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_PYTHON:?}" "${SMFW_SOURCE_DIR:?}"
AWS_CALL="$SMFW_BUILD_DIR/tests/integration/aws_call"
SMFW="$SMFW_BUILD_DIR/smfw"
FAKE="$SMFW_SOURCE_DIR/tests/integration/sso_fake.py"
for b in "$AWS_CALL" "$SMFW"; do [ -x "$b" ] || { echo "FAIL: $b is not built"; exit 1; }; done
source "$SMFW_SOURCE_DIR/tests/integration/test_fake_lib.bash" sso
export AWS_CONFIG_FILE="$work/config" AWS_SHARED_CREDENTIALS_FILE="$work/credentials"
export AWS_EC2_METADATA_DISABLED=true AWS_MAX_ATTEMPTS=1 AWS_REGION=us-west-2
# botocore merges a credentials file profile over the config's: SSO settings may live there.
cat >"$AWS_SHARED_CREDENTIALS_FILE" <<'EOF'
[split]
sso_account_id = 111122223333
sso_role_name = SplitRole
EOF
cat >"$AWS_CONFIG_FILE" <<'EOF'
[profile sess]
sso_session = corp
sso_account_id = 111122223333
sso_role_name = BenchRole
[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = eu-central-1
sso_registration_scopes = sso:account:access
[profile legacy]
sso_start_url = https://legacy.awsapps.com/start
sso_region = eu-central-1
sso_account_id = 444455556666
sso_role_name = LegacyRole
[profile split]
sso_session = corp
[profile norole]
sso_session = corp
sso_account_id = 111122223333
[profile nosession]
sso_session = nowhere
sso_account_id = 111122223333
sso_role_name = BenchRole
[profile halfsession]
sso_session = half
sso_region = eu-central-1
sso_account_id = 111122223333
sso_role_name = BenchRole
[sso-session half]
sso_start_url = https://corp.awsapps.com/start
[profile conflict]
sso_session = corp
sso_region = us-east-1
sso_account_id = 111122223333
sso_role_name = BenchRole
EOF

"$SMFW_PYTHON" "$FAKE" serve "$work/port" "$work/req.log" 2>"$work/fake.err" &
fake_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || fail "the fake SSO server did not start" "$work/fake.err"
FAKE_URL="http://127.0.0.1:$(cat "$work/port")"
export AWS_ENDPOINT_URL_SSO="$FAKE_URL" AWS_ENDPOINT_URL_SSO_OIDC="$FAKE_URL"

sha1() { printf '%s' "$1" | "$SMFW_PYTHON" -c 'import hashlib, sys; print(hashlib.sha1(sys.stdin.buffer.read()).hexdigest())'; }
SESS_CACHE=".aws/sso/cache/$(sha1 corp).json"
LEGACY_CACHE=".aws/sso/cache/$(sha1 https://legacy.awsapps.com/start).json"
iso() { "$SMFW_PYTHON" -c 'import datetime, sys; print((datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=int(sys.argv[1]))).strftime("%Y-%m-%dT%H:%M:%SZ"))' "$1"; }

# token FILE ACCESS EXPIRES_IN_S [REFRESH [REGISTRATION_EXPIRES_IN_S]]: a cache file as
# `aws sso login` writes it (the legacy form has no registration).
token() {
    local file=$1 access=$2 exp=$3 refresh=${4:-} reg=${5:-86400}
    "$SMFW_PYTHON" - "$file" "$access" "$(iso "$exp")" "$refresh" "$(iso "$reg")" <<'EOF'
import json, sys
f, access, exp, refresh, reg = sys.argv[1:]
t = {"startUrl": "https://corp.awsapps.com/start", "region": "eu-central-1",
     "accessToken": access, "expiresAt": exp}
if refresh:
    t.update({"clientId": "client-id-EXAMPLE", "clientSecret": "client-secret-EXAMPLE-1234",
              "registrationExpiresAt": reg, "refreshToken": refresh})
json.dump(t, open(f, "w"))
EOF
}

# both NAME PROFILE SETUP: run smfw (aws_call creds) and botocore on identical copies of
# a HOME made once by SETUP (a function given the home's path); each side's output, stderr,
# requests and final home are kept as NAME.{smfw,boto}.{out,err,req} and NAME.{smfw,boto}/.
both() {
    local name=$1 profile=$2 setup=$3 side
    rm -rf "$name.home"
    mkdir -p "$name.home/.aws/sso/cache"
    "$setup" "$work/$name.home"
    for side in smfw boto; do
        rm -rf "$name.$side"
        cp -a "$name.home" "$name.$side"
        rm -rf "$name.$side.cache0"
        cp -r "$name.$side/.aws/sso/cache" "$name.$side.cache0"
        : >req.log
        if [ $side = smfw ]; then
            HOME="$work/$name.$side" AWS_PROFILE=$profile "$AWS_CALL" creds \
                >"$name.$side.out" 2>"$name.$side.err" && echo 0 >"$name.$side.rc" || echo $? >"$name.$side.rc"
        else
            HOME="$work/$name.$side" "$SMFW_PYTHON" "$FAKE" boto "$profile" \
                >"$name.$side.out" 2>"$name.$side.err" && echo 0 >"$name.$side.rc" || echo $? >"$name.$side.rc"
        fi
        # What both must send alike; the rest (user agent, invocation ids) is theirs.
        "$SMFW_PYTHON" -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(json.dumps(r, sort_keys=True))' req.log >"$name.$side.req"
    done
    cmp -s "$name.smfw.req" "$name.boto.req" ||
        fail "$name: smfw and botocore sent different requests" "$name.smfw.req" "$name.boto.req"
}
same_creds() {
    local name=$1
    [ "$(cat "$name.smfw.rc")" = 0 ] || fail "$name: smfw failed" "$name.smfw.err"
    [ "$(cat "$name.boto.rc")" = 0 ] || fail "$name: botocore failed" "$name.boto.out"
    cmp -s "$name.smfw.out" "$name.boto.out" ||
        fail "$name: smfw and botocore resolved different credentials" "$name.smfw.out" "$name.boto.out"
    grep -qx "provider sso" "$name.smfw.out" || fail "$name: provider" "$name.smfw.out"
}
both_refuse() { # both_refuse NAME WORDS...: both fail, smfw's sentence has every WORD
    local name=$1 w
    shift
    [ "$(cat "$name.smfw.rc")" != 0 ] || fail "$name: smfw accepted it" "$name.smfw.out"
    [ "$(cat "$name.boto.rc")" != 0 ] || fail "$name: botocore accepted it" "$name.boto.out"
    for w in "$@"; do
        grep -qF -- "$w" "$name.smfw.err" || fail "$name: smfw's sentence lacks '$w'" "$name.smfw.err"
    done
    if grep -qE 'valid-|refresh-ok|refreshed-|revoked-|client-secret' "$name.smfw.err"; then
        fail "$name: a token or client secret in smfw's message" "$name.smfw.err"
    fi
    echo "$name: both refuse; smfw: $(cat "$name.smfw.err")"
    echo "    botocore: $(cat "$name.boto.out")"
}

# ---- 1. valid tokens ------------------------------------------------------------------
valid_sess() { token "$1/$SESS_CACHE" valid-session-token-1 28800 refresh-ok-1; }
valid_legacy() { token "$1/$LEGACY_CACHE" valid-legacy-token-1 28800; }
both sess sess valid_sess
same_creds sess
grep -q '"bearer": "valid-session-token-1"' sess.smfw.req || fail "sess: bearer" sess.smfw.req
grep -q '"query": "role_name=BenchRole&account_id=111122223333"' sess.smfw.req || fail "sess: query" sess.smfw.req
grep -q '"authorization": null' sess.smfw.req || fail "sess: GetRoleCredentials must be unsigned" sess.smfw.req
[ "$(wc -l <sess.smfw.req)" = 1 ] || fail "sess: one request" sess.smfw.req
diff -r sess.smfw.cache0 sess.smfw/.aws/sso/cache >/dev/null || fail "sess: a valid token is never rewritten"
echo "sso_session: $(grep access_key_id sess.smfw.out), the same as botocore's, one GetRoleCredentials"
both split split valid_sess
same_creds split
grep -q '"query": "role_name=SplitRole&account_id=111122223333"' split.smfw.req || fail "split: query" split.smfw.req
both legacy legacy valid_legacy
same_creds legacy
grep -q '"account": "444455556666"\|account 444455556666' legacy.smfw.out || fail "legacy: account" legacy.smfw.out
echo "legacy: $(grep access_key_id legacy.smfw.out), the same as botocore's"

# The credentials sign: STS GetCallerIdentity (at the fake) sees the issued key id, and the
# managed dry run (a real smfw command) reads the account from it.
mkdir -p e2e/.aws/sso/cache
valid_sess "$work/e2e"
HOME="$work/e2e" AWS_PROFILE=sess AWS_ENDPOINT_URL_STS="$FAKE_URL" "$AWS_CALL" whoami >e2e.who 2>e2e.err ||
    fail "whoami with SSO credentials" e2e.who e2e.err
grep -qx "arn arn:aws:sts::111122223333:assumed-role/BenchRole/sso-user" e2e.who || fail "whoami: caller" e2e.who
HOME="$work/e2e" AWS_PROFILE=sess AWS_ENDPOINT_URL="$FAKE_URL" "$SMFW" --backend managed --endpoint bench-ep -vv \
    >e2e.dry 2>e2e.dry.err || fail "managed dry run with an SSO profile" e2e.dry e2e.dry.err
grep -Eq '^ +account +111122223333' e2e.dry || fail "dry run: the account from the SSO role" e2e.dry e2e.dry.err
grep -q 'x-amz-sso_bearer_token' e2e.dry.err || fail "dry run: -vv should trace GetRoleCredentials" e2e.dry.err
if grep -qE 'valid-session-token-1|refresh-ok-1|client-secret-EXAMPLE|sso-secret-|sso-session-' e2e.dry.err e2e.dry; then
    fail "a token or secret in the -vv log" e2e.dry.err
fi
echo "end to end: whoami $(sed -n 's/^arn //p' e2e.who); smfw's dry run reads account 111122223333; -vv masks the token"

# ---- 2. refresh ---------------------------------------------------------------------------
expired_sess() { token "$1/$SESS_CACHE" expired-session-token 0 refresh-ok-2; }
soon_sess() { token "$1/$SESS_CACHE" valid-soon-token 300 refresh-ok-3; }
for case in expired soon; do
    both "refresh_$case" sess "${case}_sess"
    same_creds "refresh_$case"
    grep -q '"path": "/token"' "refresh_$case.smfw.req" || fail "refresh_$case: no CreateToken" "refresh_$case.smfw.req"
    grep -q '"content_type": "application/json"' "refresh_$case.smfw.req" || fail "refresh_$case: content type" "refresh_$case.smfw.req"
    grep -q '"bearer": "refreshed-' "refresh_$case.smfw.req" || fail "refresh_$case: the new token" "refresh_$case.smfw.req"
    "$SMFW_PYTHON" - "refresh_$case.smfw/$SESS_CACHE" "refresh_$case.boto/$SESS_CACHE" <<'EOF' ||
import datetime, json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
t = lambda s: datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ")
assert list(a) == list(b), (list(a), list(b))
assert abs((t(a["expiresAt"]) - t(b["expiresAt"])).total_seconds()) <= 10, (a["expiresAt"], b["expiresAt"])
for k in a:
    assert k == "expiresAt" or a[k] == b[k], (k, a[k], b[k])
assert a["accessToken"].startswith("refreshed-") and a["refreshToken"].endswith("-next")
EOF
        fail "refresh_$case: the caches written differ" "refresh_$case.smfw/$SESS_CACHE" "refresh_$case.boto/$SESS_CACHE"
    [ "$(stat -c %a "refresh_$case.smfw/$SESS_CACHE")" = 600 ] || fail "refresh_$case: cache mode"
    [ "$(ls -A "refresh_$case.smfw/.aws/sso/cache" | wc -l)" = 1 ] || fail "refresh_$case: a temporary left behind"
done
echo "refresh: CreateToken and the rewritten cache equal botocore's (expired and within 15 minutes)"

# ---- 3. errors ----------------------------------------------------------------------------
bad_refresh() { token "$1/$SESS_CACHE" expired-session-token -60 refresh-bad-1; }
both refresh_refused sess bad_refresh
both_refuse refresh_refused "expired at" "could not be refreshed" "InvalidGrantException: Invalid refresh token provided" \
    "$SESS_CACHE" "aws sso login --profile sess"
grep -q TokenRetrievalError refresh_refused.boto.out || fail "botocore's reason" refresh_refused.boto.out
reg_expired() { token "$1/$SESS_CACHE" expired-session-token -60 refresh-ok-4 -10; }
both registration_expired sess reg_expired
both_refuse registration_expired "registration expired" "aws sso login --profile sess"
[ ! -s registration_expired.smfw.req ] || fail "registration_expired: nothing should be sent" registration_expired.smfw.req
nothing() { :; }
both missing_cache legacy nothing
both_refuse missing_cache "no cached SSO token" "$work/missing_cache.smfw/$LEGACY_CACHE" \
    "aws sso login --profile legacy"
grep -q SSOTokenLoadError missing_cache.boto.out || fail "botocore's reason" missing_cache.boto.out
# A real command stops before any request: exit 2 (AWS), the same sentence; a profile
# missing settings is a configuration error (exit 1).
mkdir -p run && cd run
rc=0
HOME="$work/missing_cache.smfw" "$SMFW" run --backend direct --endpoint bench-ep --request-count 1 \
    --profile legacy >../run.out 2>../run.err || rc=$?
[ "$rc" = 2 ] && grep -qF "aws sso login --profile legacy" ../run.err || fail "smfw run, no token: exit $rc" ../run.err
rc=0
HOME="$work/missing_cache.smfw" "$SMFW" run --backend direct --endpoint bench-ep --request-count 1 \
    --profile norole >../run.out 2>../run.err || rc=$?
[ "$rc" = 1 ] && grep -qF "lacks sso_role_name" ../run.err || fail "smfw run, no sso_role_name: exit $rc" ../run.err
[ -z "$(ls -A)" ] || fail "smfw run made something without credentials: $(ls -A)"
cd "$work"
expired_legacy() { token "$1/$LEGACY_CACHE" valid-but-old -5; }
both legacy_expired legacy expired_legacy
both_refuse legacy_expired "expired at" "aws sso login --profile legacy"
[ ! -s legacy_expired.smfw.req ] || fail "legacy_expired: nothing should be sent" legacy_expired.smfw.req
revoked() { token "$1/$SESS_CACHE" revoked-session-token 28800 refresh-ok-5; }
both portal_refuses sess revoked
both_refuse portal_refuses "UnauthorizedException" "aws sso login --profile sess"
grep -q UnauthorizedSSOTokenError portal_refuses.boto.out || fail "botocore's reason" portal_refuses.boto.out
both norole norole valid_sess
both_refuse norole "sso_role_name"
both nosession nosession valid_sess
both_refuse nosession "[sso-session nowhere]"
both halfsession halfsession valid_sess
both_refuse halfsession "[sso-session half], which lacks sso_region"
both conflict conflict valid_sess
both_refuse conflict "sso_region differs"

# ---- 4. the SSO region's endpoints ---------------------------------------------------------
(
    unset AWS_ENDPOINT_URL_SSO AWS_ENDPOINT_URL_SSO_OIDC
    export HTTPS_PROXY="$FAKE_URL" https_proxy="$FAKE_URL"
    both region_portal sess valid_sess
    both region_oidc sess expired_sess
)
grep -qx '{"method": "CONNECT", "target": "portal.sso.eu-central-1.amazonaws.com:443"}' region_portal.smfw.req ||
    fail "the portal of sso_region" region_portal.smfw.req
grep -q '"target": "oidc.eu-central-1.amazonaws.com:443"' region_oidc.smfw.req || fail "SSO-OIDC of sso_region" region_oidc.smfw.req
echo "endpoints: $(sed -n 's/.*"target": "\([^"]*\)".*/\1/p' region_oidc.smfw.req | tr '\n' ' ')(the same as botocore's)"
echo "PASS"
