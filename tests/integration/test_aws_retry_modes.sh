#!/usr/bin/env bash
# test_aws_retry_modes.sh - the AWS retry modes against smfw-mock's --api-fault:
# attempts per call in legacy, standard and adaptive mode for the mode's default
# and a configured max_attempts (AWS_MAX_ATTEMPTS wins over the profile's, the
# --max-attempts flag over both), counted by the client and by the mock; the
# standard retry quota (500 tokens, 5 a retry) stops retrying after 100 retries;
# a bad retry_mode / max_attempts is a configuration error (exit 1) naming where
# it came from, before any request; the User-Agent is the SDKs' 2.0 form, on the
# wire too, with nothing secret in it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
PROBE="$SMFW_BUILD_DIR/tests/integration/aws_retry_probe"
[ -x "$PROBE" ] || { echo "FAIL: $PROBE is not built"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
unset AWS_RETRY_MODE AWS_MAX_ATTEMPTS AWS_SDK_UA_APP_ID
export AWS_REGION=us-east-1

# Requests the mock has answered so far (--verbose logs one line per request).
served() { grep -c '^smfw-mock: POST /$' "$work/mock.err" || true; }

# expect_attempts WANT CALLS [ENV...]: CALLS DescribeEndpoint calls, each WANT attempts,
# and the mock saw exactly WANT x CALLS requests.
expect_attempts() {
    local want=$1 calls=$2; shift 2
    local before after
    before=$(served)
    env "$@" AWS_ENDPOINT_URL="$MOCK_URL" "$PROBE" call "$calls" bench > "$work/probe.out"
    sleep 0.2 # the log line of the last answer
    after=$(served)
    local got
    got=$(grep -c "attempts=$want " "$work/probe.out" || true)
    [ "$got" = "$calls" ] || fail "$* : wanted $calls calls of $want attempts: $(cat "$work/probe.out")"
    [ $((after - before)) = $((want * calls)) ] ||
        fail "$* : the mock served $((after - before)) requests, the client counted $((want * calls))"
}

start_mock --verbose --api-fault http-503:1
printf '[default]\nmax_attempts = 2\n' > "$work/config"
# standard (smfw's default): 3 attempts; AWS_MAX_ATTEMPTS; the profile; env over profile
expect_attempts 3 2
expect_attempts 4 1 AWS_MAX_ATTEMPTS=4
expect_attempts 2 1 AWS_CONFIG_FILE="$work/config"
expect_attempts 5 1 AWS_CONFIG_FILE="$work/config" AWS_MAX_ATTEMPTS=5
expect_attempts 1 2 AWS_MAX_ATTEMPTS=1
# legacy: botocore's default of 5 attempts (checked without waiting its 1 s-based backoff)
AWS_RETRY_MODE=legacy "$PROBE" settings | grep -qx 'mode=legacy max_attempts=5' ||
    fail "legacy's default is not 5 attempts"
expect_attempts 3 1 AWS_RETRY_MODE=legacy AWS_MAX_ATTEMPTS=3
# adaptive: the standard rules (plus the rate limiter, which only throttling turns on)
expect_attempts 3 1 AWS_RETRY_MODE=adaptive
printf '[default]\nretry_mode = adaptive\n' > "$work/adaptive"
AWS_CONFIG_FILE="$work/adaptive" "$PROBE" settings | grep -qx 'mode=adaptive max_attempts=3' ||
    fail "the profile's retry_mode is not read"
AWS_CONFIG_FILE="$work/adaptive" AWS_RETRY_MODE=Legacy "$PROBE" settings |
    grep -qx 'mode=legacy max_attempts=5' || fail "AWS_RETRY_MODE does not win over the profile"

# The quota: 110 calls of 2 attempts each want 110 retries; 500 tokens pay for 100.
env AWS_ENDPOINT_URL="$MOCK_URL" AWS_MAX_ATTEMPTS=2 "$PROBE" call 110 bench > "$work/quota.out"
[ "$(grep -c 'attempts=2 ServiceUnavailable' "$work/quota.out")" = 100 ] ||
    fail "not 100 retried calls before the quota ran out: $(grep -c attempts=2 "$work/quota.out")"
sed -n '101,110p' "$work/quota.out" | grep -c 'attempts=1 ServiceUnavailable' | grep -qx 10 ||
    fail "calls after the quota ran out were retried: $(sed -n '101,111p' "$work/quota.out")"
grep -qx 'quota=0' "$work/quota.out" || fail "quota left: $(tail -1 "$work/quota.out")"
stop_mock

# Throttling: retried in every mode (legacy: ThrottlingException with HTTP 400).
start_mock --verbose --api-fault throttle:1
expect_attempts 2 1 AWS_MAX_ATTEMPTS=2
expect_attempts 2 1 AWS_MAX_ATTEMPTS=2 AWS_RETRY_MODE=legacy
expect_attempts 2 2 AWS_MAX_ATTEMPTS=2 AWS_RETRY_MODE=adaptive
grep -q 'attempts=2 ThrottlingException' "$work/probe.out" || fail "not a throttling answer"
stop_mock

# No fault: one attempt, the answer is the endpoint.
start_mock --verbose
expect_attempts 1 3
grep -q 'call 3 attempts=1 ok' "$work/probe.out" || fail "no success: $(cat "$work/probe.out")"
# On the wire (smfw -vv traces the headers): the User-Agent and amz-sdk-request follow the mode.
AWS_RETRY_MODE=legacy "$SMFW" cloudwatch -vv --endpoint bench --since 10m --endpoint-url "$MOCK_URL" \
    --region us-east-1 > /dev/null 2> "$work/trace.err"
grep -Eq '^User-Agent: smfw/[^ ]+ ua/2\.0 os/[^ ]+ lang/c#[0-9]+ md/arch#[^ ]+ md/curl#[^ ]+ cfg/retry-mode#legacy$' \
    "$work/trace.err" || fail "no User-Agent 2.0 on the wire: $(grep -i user-agent "$work/trace.err")"
grep -q '^amz-sdk-request: attempt=1; max=5$' "$work/trace.err" ||
    fail "legacy's 5 attempts are not announced: $(grep amz-sdk-request "$work/trace.err")"

# The smfw command end to end: a CloudWatch query against a failing mock makes M attempts
# per call (the same number of calls each time), --max-attempts beats AWS_MAX_ATTEMPTS.
stop_mock
start_mock --verbose --api-fault http-503:1
cw() {
    local before
    before=$(served)
    set +e
    env "$@" "$SMFW" cloudwatch --endpoint bench --since 10m --endpoint-url "$MOCK_URL" \
        --region us-east-1 > "$work/cw.out" 2> "$work/cw.err"
    cw_rc=$?
    set -e
    sleep 0.2
    cw_requests=$(( $(served) - before ))
}
cw AWS_MAX_ATTEMPTS=1
one=$cw_requests
[ "$cw_rc" = 2 ] || fail "smfw cloudwatch against a failing service exits $cw_rc: $(cat "$work/cw.err")"
[ "$one" -ge 1 ] || fail "smfw cloudwatch sent nothing"
cw AWS_MAX_ATTEMPTS=3
[ "$cw_requests" = $((3 * one)) ] || fail "AWS_MAX_ATTEMPTS=3: $cw_requests requests, not 3 x $one"
cw AWS_MAX_ATTEMPTS=3 AWS_RETRY_MODE=legacy
[ "$cw_requests" = $((3 * one)) ] || fail "legacy, 3 attempts: $cw_requests requests, not 3 x $one"
# the flag wins over the environment
before=$(served)
set +e
AWS_MAX_ATTEMPTS=3 "$SMFW" cloudwatch --endpoint bench --since 10m --endpoint-url "$MOCK_URL" \
    --region us-east-1 --max-attempts 2 > /dev/null 2>&1
set -e
sleep 0.2
[ $(( $(served) - before )) = $((2 * one)) ] || fail "--max-attempts 2 does not win over AWS_MAX_ATTEMPTS"

# Bad values: exit 1 (configuration), the source named, no request sent.
for bad in "AWS_RETRY_MODE=fast|AWS_RETRY_MODE" "AWS_MAX_ATTEMPTS=0|AWS_MAX_ATTEMPTS" \
    "AWS_MAX_ATTEMPTS=3x|AWS_MAX_ATTEMPTS"; do
    cw "${bad%%|*}"
    [ "$cw_rc" = 1 ] || fail "${bad%%|*}: exit $cw_rc, not 1: $(cat "$work/cw.err")"
    grep -q "${bad##*|}" "$work/cw.err" || fail "${bad%%|*}: the source is not named: $(cat "$work/cw.err")"
    [ "$cw_requests" = 0 ] || fail "${bad%%|*}: $cw_requests requests were sent"
done
printf '[default]\nretry_mode = sometimes\n' > "$work/badmode"
cw AWS_CONFIG_FILE="$work/badmode"
[ "$cw_rc" = 1 ] || fail "a bad profile retry_mode: exit $cw_rc"
grep -qF "retry_mode in the profile 'default' of $work/badmode" "$work/cw.err" ||
    fail "the profile's file is not named: $(cat "$work/cw.err")"
stop_mock

# An unknown --api-fault kind is the mock's usage error, naming it and the known kinds.
set +e
"$MOCK" --listen 127.0.0.1:0 --exit-on-stdin-eof --api-fault drop:1 >/dev/null 2>"$work/af.err" </dev/null
rc=$?
set -e
[ "$rc" = 1 ] || fail "--api-fault drop:1 exits $rc"
grep -qF 'unknown fault kind "drop" in "drop:1" (known: http-500, http-503, throttle)' "$work/af.err" ||
    fail "--api-fault drop:1: $(cat "$work/af.err")"

# User-Agent 2.0, and nothing secret or personal in it.
ua=$(AWS_SDK_UA_APP_ID='bench team/1' "$PROBE" user-agent)
echo "$ua" | grep -Eq '^smfw/[0-9]+\.[0-9]+\.[0-9]+ ua/2\.0 os/(linux|macos|other)#[^ ]+ lang/c#[0-9]+ md/arch#[^ ]+ md/curl#[^ ]+ cfg/retry-mode#standard app/bench-team-1$' ||
    fail "User-Agent: $ua"
AWS_RETRY_MODE=adaptive "$PROBE" user-agent | grep -q ' cfg/retry-mode#adaptive' ||
    fail "the User-Agent does not name the retry mode"
for secret in "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" "$(id -un)" "$(hostname)"; do
    case "$ua" in *"$secret"*) fail "the User-Agent holds '$secret'" ;; esac
done
echo "PASS"
