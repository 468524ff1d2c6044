#!/usr/bin/env bash
# test_aws_tls_proxy.sh - one TLS and proxy configuration for every connection smfw makes,
# tested for real: smfw-mock (plain HTTP) behind stunnel4 terminating TLS with a CA and a
# server certificate this test makes with openssl, and mitmproxy, an intercepting proxy with
# its own CA, in front of it.
#  1. proxies: for a matrix of environments (upper/lower case, empty lowercase, no scheme,
#     no_proxy suffixes and host:port, "*", ALL_PROXY, REQUEST_METHOD) smfw picks the same
#     proxy as botocore 1.43 for every URL (net_probe vs ProxyConfiguration.proxy_url_for).
#  2. CA bundle each way: `smfw run --backend direct` (SageMaker Runtime and the OpenAI
#     path) over https works with the test CA from --ca-bundle, [aws] ca_bundle in a config
#     file, AWS_CA_BUNDLE, and the profile's ca_bundle in an AWS_CONFIG_FILE; without it the
#     run stops with exit 2 and names the TLS verification failure and the trust store;
#     a CA bundle that is missing or a directory stops it with exit 1 before any request,
#     naming the path and where it came from. botocore trusts the same setup.
#  3. AWS API calls (STS GetCallerIdentity, S3 PutObject/GetObject) through the same TLS
#     endpoint: working with AWS_CA_BUNDLE, failing with the TLS error without it (and, in
#     4, the managed backend's dry run through the proxy).
#  4. through mitmproxy (HTTPS_PROXY with credentials, AWS_CA_BUNDLE = only mitmproxy's CA):
#     the Runtime, the OpenAI path and the AWS calls all work and the proxy saw each;
#     NO_PROXY exempts one host (its requests bypass the proxy, the other host's do not);
#     an http URL goes through HTTP_PROXY (which libcurl itself ignores); the proxy's
#     password appears in no output, log (-v) or result file.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_PYTHON:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
AWS_CALL="$SMFW_BUILD_DIR/tests/integration/aws_call"
PROBE="$SMFW_BUILD_DIR/tests/integration/net_probe"
for b in "$SMFW" "$MOCK" "$AWS_CALL" "$PROBE"; do [ -x "$b" ] || { echo "FAIL: $b is not built"; exit 1; }; done
STUNNEL=$(command -v stunnel4 || command -v stunnel || true)
MITM=$(command -v mitmdump || true)
for t in openssl "$STUNNEL" "$MITM"; do
    [ -n "$t" ] && command -v "$t" >/dev/null ||
        { echo "SKIP: openssl, stunnel4 and mitmproxy (mitmdump) are needed (tools/deps.sh)"; exit 77; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-tls.XXXXXX")
cd "$work"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    cd /
    if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
passed=0
ok() { passed=$((passed + 1)); }

# A clean AWS environment: the keys the mock accepts, no files, no proxies, no CA.
unset AWS_CA_BUNDLE AWS_PROFILE AWS_DEFAULT_PROFILE AWS_ENDPOINT_URL AWS_SESSION_TOKEN REQUEST_METHOD
unset https_proxy HTTPS_PROXY http_proxy HTTP_PROXY no_proxy NO_PROXY all_proxy ALL_PROXY
export HOME="$work" AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null
export AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_REGION=us-east-1
export AWS_ACCESS_KEY_ID=AKIDTLSPROXYTEST AWS_SECRET_ACCESS_KEY=tls-proxy-test-secret-key
PROXY_PW=Pr0xyS3cretPw

free_port() { "$SMFW_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 200); do
        "$SMFW_PYTHON" -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$1)))" && return 0
        sleep 0.05
    done
    return 1
}

# ---- 1. proxy selection: smfw and botocore on the same environments ---------------------
"$SMFW_PYTHON" - "$PROBE" <<'EOF' || fail "proxy selection differs from botocore's"
import os, subprocess, sys
from botocore.httpsession import ProxyConfiguration
from botocore.utils import get_environ_proxies
probe = sys.argv[1]
urls = ["https://sagemaker.us-east-1.amazonaws.com/",
        "https://runtime.sagemaker.us-east-1.amazonaws.com/endpoints/x/invocations",
        "http://example.com/a", "https://api.example.com:443/v1", "https://notexample.com/",
        "https://LOCALHOST:8443/", "https://127.0.0.1:8443/", "https://127.0.0.1:9443/",
        "http://svc.internal/", "https://internal/", "http://169.254.169.254/latest"]
cases = [
    {},
    {"HTTPS_PROXY": "http://u:p@proxy:3128"},
    {"https_proxy": "lower.proxy:1", "HTTPS_PROXY": "upper.proxy:2"},
    {"https_proxy": "", "HTTPS_PROXY": "upper.proxy:2"},
    {"HTTP_PROXY": "//hp:8080"},
    {"http_proxy": "hp:1", "HTTPS_PROXY": "hsp:2",
     "NO_PROXY": "example.com, .internal ,Localhost,127.0.0.1:8443"},
    {"HTTPS_PROXY": "hsp:2", "http_proxy": "hp:1", "no_proxy": "*"},
    {"HTTPS_PROXY": "hsp:2", "no_proxy": "", "NO_PROXY": "example.com"},
    {"ALL_PROXY": "ap:1", "all_proxy": "ap:1"},
    {"HTTPS_PROXY": "https://secure.proxy:443", "no_proxy": "169.254.169.254,amazonaws.com"},
    {"HTTP_PROXY": "hp:1", "REQUEST_METHOD": "GET"},
]
strip = [k for k in os.environ if k.lower().endswith("_proxy") or k == "REQUEST_METHOD"]
for k in strip:
    del os.environ[k]
base = dict(os.environ)
bad = 0
for case in cases:
    os.environ.clear(); os.environ.update(base); os.environ.update(case)
    want = {}
    for u in urls:
        p = ProxyConfiguration(proxies=get_environ_proxies(u)).proxy_url_for(u)
        want[u] = p or "DIRECT"
    out = subprocess.run([probe] + urls, env=dict(os.environ), capture_output=True, text=True,
                         check=True).stdout
    got = dict(line.split("\t", 1) for line in out.splitlines())
    for u in urls:
        if got.get(u) != want[u]:
            bad += 1
            print(f"  {case}: {u}: smfw {got.get(u)}, botocore {want[u]}")
print(f"proxy selection: {len(cases) * len(urls) - bad} of {len(cases) * len(urls)} equal botocore's")
sys.exit(1 if bad else 0)
EOF
ok

# ---- the test CA, the server certificate, smfw-mock behind stunnel ----------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=smfw-test-ca -keyout ca.key \
    -out ca.pem -addext basicConstraints=critical,CA:TRUE \
    -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout server.key -out server.csr 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
    -extfile server.ext -out server.pem 2>/dev/null
openssl verify -CAfile ca.pem server.pem >/dev/null || fail "the test certificate does not verify"

"$MOCK" --listen 127.0.0.1:0 --endpoint bench --access-key-id "$AWS_ACCESS_KEY_ID" \
    --secret-access-key "$AWS_SECRET_ACCESS_KEY" --ground-truth "$work/gt.jsonl" --output-tokens 8 \
    --state-dir "$work/state" > mock.out 2> mock.err &
pids+=($!)
for _ in $(seq 200); do grep -q listening mock.out 2>/dev/null && break; sleep 0.05; done
MOCK_URL=$(sed -n 's/^listening on //p' mock.out | head -1)
[ -n "$MOCK_URL" ] || { cat mock.err; fail "smfw-mock did not start"; }
MOCK_PORT=${MOCK_URL##*:}
TLS_PORT=$(free_port)
cat > stunnel.conf <<EOF
foreground = yes
pid =
output = $work/stunnel.log
[mock]
accept = 127.0.0.1:$TLS_PORT
connect = 127.0.0.1:$MOCK_PORT
cert = $work/server.pem
key = $work/server.key
EOF
"$STUNNEL" stunnel.conf > stunnel.out 2>&1 &
pids+=($!)
wait_port "$TLS_PORT" || { cat stunnel.out stunnel.log 2>/dev/null; fail "stunnel did not start"; }
TLS_URL="https://localhost:$TLS_PORT"

gt_lines() { if [ -f gt.jsonl ]; then wc -l < gt.jsonl; else echo 0; fi; }
# run_sm OUT ARGS...: the direct backend against the mock's SageMaker Runtime over TLS.
run_sm() {
    local out=$1; shift
    set +e
    "$SMFW" run --backend direct --endpoint bench --endpoint-url "$TLS_URL" --region us-east-1 \
        -n 4 --concurrency 2 -o "$out" ${QUIET--q} "$@" > "$out.log" 2>&1
    local rc=$?
    set -e
    echo "$rc"
}
# run_oa OUT URL ARGS...: the direct backend's OpenAI-compatible path.
run_oa() {
    local out=$1 url=$2; shift 2
    set +e
    "$SMFW" run --backend direct --url "$url" --model mock-model -n 4 --concurrency 2 \
        -o "$out" -q "$@" > "$out.log" 2>&1
    local rc=$?
    set -e
    echo "$rc"
}
expect_ok() { # NAME RC OUT
    [ "$2" = 0 ] || { cat "$3.log"; fail "$1: exit $2, expected 0"; }
    local n
    n=$(wc -l < "$3/profile_export.jsonl")
    [ "$n" = 4 ] || fail "$1: $n records, expected 4"
    grep -q '"error"' "$3/profile_export.jsonl" && fail "$1: a request failed: $(head -c 600 "$3/profile_export.jsonl")"
    ok
}

# ---- 2. the CA bundle each way -------------------------------------------------------
expect_ok "Runtime, --ca-bundle" "$(run_sm flag --ca-bundle "$work/ca.pem")" flag
printf '[aws]\nca_bundle = %s\n' "$work/ca.pem" > tls.conf
expect_ok "Runtime, [aws] ca_bundle" "$(run_sm conf -C "$work/tls.conf")" conf
expect_ok "Runtime, AWS_CA_BUNDLE" "$(AWS_CA_BUNDLE="$work/ca.pem" run_sm env)" env
printf '[profile tls]\nregion = us-east-1\nca_bundle = %s\n' "$work/ca.pem" > aws_config
expect_ok "Runtime, profile ca_bundle" \
    "$(AWS_CONFIG_FILE="$work/aws_config" AWS_PROFILE=tls run_sm prof)" prof
expect_ok "OpenAI path, AWS_CA_BUNDLE" "$(AWS_CA_BUNDLE="$work/ca.pem" run_oa oa_env "$TLS_URL")" oa_env
expect_ok "OpenAI path, profile ca_bundle" \
    "$(AWS_CONFIG_FILE="$work/aws_config" AWS_PROFILE=tls run_oa oa_prof "$TLS_URL")" oa_prof
# The flag wins over AWS_CA_BUNDLE, which wins over the profile (botocore's order).
expect_ok "flag over AWS_CA_BUNDLE" \
    "$(AWS_CA_BUNDLE=/nonexistent/ca.pem run_sm order1 --ca-bundle "$work/ca.pem")" order1
expect_ok "AWS_CA_BUNDLE over profile" \
    "$(printf '[profile bad]\nca_bundle = /nonexistent/p.pem\n' > bad_config
       AWS_CONFIG_FILE="$work/bad_config" AWS_PROFILE=bad AWS_CA_BUNDLE="$work/ca.pem" run_sm order2)" order2

# Without the CA: exit 2, the TLS verification failure and the trust store named.
for t in sm oa; do
    if [ $t = sm ]; then rc=$(run_sm noca); else rc=$(run_oa noca_oa "$TLS_URL"); fi
    log=noca.log; [ $t = oa ] && log=noca_oa.log
    [ "$rc" = 2 ] || { cat "$log"; fail "$t without the CA: exit $rc, expected 2"; }
    grep -q 'TLS certificate verification failed: SSL certificate problem: unable to get local issuer certificate (the system.s CAs' "$log" ||
        fail "$t without the CA: the TLS failure is not named: $(cat "$log")"
    ok
done
# With another CA (the wrong one): the message names the bundle and its source.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other.key \
    -out other.pem -addext basicConstraints=critical,CA:TRUE 2>/dev/null
rc=$(AWS_CA_BUNDLE="$work/other.pem" run_sm wrongca)
[ "$rc" = 2 ] || fail "the wrong CA: exit $rc, expected 2"
grep -q "TLS certificate verification failed: .*(CA bundle $work/other.pem from AWS_CA_BUNDLE)" wrongca.log ||
    fail "the wrong CA: bundle not named: $(cat wrongca.log)"
ok

# A bundle that cannot be read: exit 1 before any request, path and source named.
before=$(gt_lines)
mkdir cadir
check_refused() { # NAME RC LOG PATTERN
    [ "$2" = 1 ] || { cat "$3"; fail "$1: exit $2, expected 1"; }
    grep -q "$4" "$3" || fail "$1: expected /$4/ in: $(cat "$3")"
    ok
}
check_refused "missing, flag" "$(run_sm m1 --ca-bundle "$work/none.pem")" m1.log \
    "the CA bundle '$work/none.pem' from option --ca-bundle cannot be read: No such file or directory"
printf '[run]\nrequest_count = 4\n[aws]\nca_bundle = %s\n' "$work/none.pem" > bad.conf
check_refused "missing, config file" "$(run_sm m2 -C "$work/bad.conf")" m2.log \
    "the CA bundle '$work/none.pem' from ca_bundle in \[aws\] of $work/bad.conf:4 cannot be read"
check_refused "missing, AWS_CA_BUNDLE" "$(AWS_CA_BUNDLE="$work/none.pem" run_sm m3)" m3.log \
    "the CA bundle '$work/none.pem' from AWS_CA_BUNDLE cannot be read: No such file"
check_refused "missing, profile" "$(AWS_CONFIG_FILE="$work/bad_config" AWS_PROFILE=bad run_sm m4)" m4.log \
    "the CA bundle '/nonexistent/p.pem' from ca_bundle in the profile 'bad' of $work/bad_config cannot be read"
check_refused "directory, OpenAI path" "$(AWS_CA_BUNDLE="$work/cadir" run_oa m5 "$TLS_URL")" m5.log \
    "the CA bundle '$work/cadir' from AWS_CA_BUNDLE cannot be read: Is a directory"
[ "$(gt_lines)" = "$before" ] || fail "a refused CA bundle still sent requests"
ok

# botocore trusts the same setup the same way (the AWS way of configuring it).
AWS_CA_BUNDLE="$work/ca.pem" "$SMFW_PYTHON" -c "
import boto3
kw = dict(region_name='us-east-1', endpoint_url='$TLS_URL')
print(boto3.client('sts', **kw).get_caller_identity()['Account'])
boto3.client('s3', **kw).create_bucket(Bucket='tlsbucket')" > boto.out ||
    fail "botocore does not trust the test setup"
ok

# ---- 3. AWS API calls over TLS ---------------------------------------------------------
echo "object over TLS" > obj.txt
export AWS_ENDPOINT_URL="$TLS_URL"
AWS_CA_BUNDLE="$work/ca.pem" "$AWS_CALL" whoami > who.out 2>&1 || fail "STS over TLS: $(cat who.out)"
grep -q '^account ' who.out || fail "STS over TLS: $(cat who.out)"
"$AWS_CALL" whoami > who_noca.out 2>&1 && fail "STS without the CA worked"
grep -q 'TLS certificate verification failed: SSL certificate problem: unable to get local issuer certificate (the system.s CAs' who_noca.out ||
    fail "STS without the CA: $(cat who_noca.out)"
AWS_CA_BUNDLE="$work/ca.pem" "$AWS_CALL" put tlsbucket a/obj.txt obj.txt > put.out 2>&1 ||
    fail "S3 PutObject over TLS: $(cat put.out)"
AWS_CONFIG_FILE="$work/aws_config" AWS_PROFILE=tls "$AWS_CALL" get tlsbucket a/obj.txt got.txt > get.out 2>&1 ||
    fail "S3 GetObject over TLS (profile ca_bundle): $(cat get.out)"
cmp -s obj.txt got.txt || fail "S3 over TLS: the object came back different"
unset AWS_ENDPOINT_URL
ok

# ---- 4. through an intercepting proxy ---------------------------------------------------
PROXY_PORT=$(free_port)
mkdir mitm
"$MITM" --listen-host 127.0.0.1 --listen-port "$PROXY_PORT" --set confdir="$work/mitm" \
    --set ssl_verify_upstream_trusted_ca="$work/ca.pem" --proxyauth "smfwuser:$PROXY_PW" \
    --flow-detail 1 > mitm.log 2>&1 &
pids+=($!)
wait_port "$PROXY_PORT" || { cat mitm.log; fail "mitmproxy did not start"; }
for _ in $(seq 100); do [ -s mitm/mitmproxy-ca-cert.pem ] && break; sleep 0.05; done
[ -s mitm/mitmproxy-ca-cert.pem ] || fail "mitmproxy made no CA"
MITM_CA="$work/mitm/mitmproxy-ca-cert.pem"
PROXY="http://smfwuser:$PROXY_PW@127.0.0.1:$PROXY_PORT"
seen() { grep -c "$1" mitm.log || true; }

# Only mitmproxy's CA is trusted: a request that bypassed the proxy would fail.
n0=$(seen "localhost:$TLS_PORT/endpoints/bench/invocations")
expect_ok "Runtime via HTTPS_PROXY" \
    "$(HTTPS_PROXY="$PROXY" AWS_CA_BUNDLE="$MITM_CA" QUIET= run_sm px_sm -v)" px_sm
[ "$(seen "localhost:$TLS_PORT/endpoints/bench/invocations")" -ge $((n0 + 4)) ] ||
    fail "the proxy did not see the Runtime invocations: $(tail -20 mitm.log)"
grep -q "connections: CA bundle $MITM_CA (AWS_CA_BUNDLE); https proxy http://\*\*\*\*@127.0.0.1:$PROXY_PORT (HTTPS_PROXY)" px_sm.log ||
    fail "-v does not show the connection settings: $(grep connections px_sm.log)"
ok
n0=$(seen "localhost:$TLS_PORT/v1/")
expect_ok "OpenAI path via https_proxy" \
    "$(https_proxy="$PROXY" AWS_CA_BUNDLE="$MITM_CA" run_oa px_oa "$TLS_URL")" px_oa
[ "$(seen "localhost:$TLS_PORT/v1/")" -ge $((n0 + 4)) ] || fail "the proxy did not see the OpenAI requests"
ok
export AWS_ENDPOINT_URL="$TLS_URL"
n0=$(seen "localhost:$TLS_PORT/")
HTTPS_PROXY="$PROXY" AWS_CA_BUNDLE="$MITM_CA" "$AWS_CALL" whoami > px_who.out 2>&1 ||
    fail "STS via the proxy: $(cat px_who.out)"
HTTPS_PROXY="$PROXY" AWS_CA_BUNDLE="$MITM_CA" "$AWS_CALL" get tlsbucket a/obj.txt px_got.txt > px_get.out 2>&1 ||
    fail "S3 via the proxy: $(cat px_get.out)"
cmp -s obj.txt px_got.txt || fail "S3 via the proxy: the object came back different"
[ "$(seen "localhost:$TLS_PORT/")" -ge $((n0 + 2)) ] || fail "the proxy did not see the AWS calls"
# A real smfw command on the control plane: the managed backend's dry run (STS, IAM,
# SageMaker DescribeEndpoint...) through the proxy; with -v its log shows no password.
n0=$(seen "localhost:$TLS_PORT/")
set +e
HTTPS_PROXY="$PROXY" AWS_CA_BUNDLE="$MITM_CA" "$SMFW" --backend managed --endpoint bench \
    --request-count 40 -v > px_managed.out 2> px_managed.err
rc=$?
set -e
[ "$rc" = 0 ] || { cat px_managed.out px_managed.err; fail "managed dry run via the proxy: exit $rc"; }
grep -q "^  account  *111122223333$" px_managed.out || fail "managed dry run: no account: $(cat px_managed.out)"
[ "$(seen "localhost:$TLS_PORT/")" -ge $((n0 + 2)) ] || fail "the proxy did not see the dry run's calls"
unset AWS_ENDPOINT_URL
ok
# A wrong proxy password: the run stops (exit 2) and the password is not shown.
rc=$(HTTPS_PROXY="http://smfwuser:wrong-$PROXY_PW@127.0.0.1:$PROXY_PORT" AWS_CA_BUNDLE="$MITM_CA" QUIET= run_sm px_bad -v)
[ "$rc" = 2 ] || { cat px_bad.log; fail "a refused proxy login: exit $rc, expected 2"; }
ok

# NO_PROXY exempts localhost; 127.0.0.1 (same server) still goes through the proxy. Both CAs
# are trusted, so only the proxy's log tells the paths apart.
cat ca.pem "$MITM_CA" > both.pem
nl0=$(seen "localhost:$TLS_PORT/endpoints")
ni0=$(seen "127.0.0.1:$TLS_PORT/endpoints")
expect_ok "NO_PROXY host" \
    "$(HTTPS_PROXY="$PROXY" NO_PROXY=example.com,localhost AWS_CA_BUNDLE="$work/both.pem" run_sm np_l)" np_l
expect_ok "not a NO_PROXY host" \
    "$(HTTPS_PROXY="$PROXY" NO_PROXY=example.com,localhost AWS_CA_BUNDLE="$work/both.pem" TLS_URL="https://127.0.0.1:$TLS_PORT" run_sm np_i)" np_i
[ "$(seen "localhost:$TLS_PORT/endpoints")" = "$nl0" ] || fail "NO_PROXY=localhost still went through the proxy"
[ "$(seen "127.0.0.1:$TLS_PORT/endpoints")" -ge $((ni0 + 4)) ] || fail "127.0.0.1 did not go through the proxy"
# And with only the test CA the exempt host works while the proxied one fails verification.
expect_ok "NO_PROXY host, test CA only" \
    "$(HTTPS_PROXY="$PROXY" NO_PROXY=localhost AWS_CA_BUNDLE="$work/ca.pem" run_sm np_l2)" np_l2
rc=$(HTTPS_PROXY="$PROXY" NO_PROXY=localhost AWS_CA_BUNDLE="$work/ca.pem" TLS_URL="https://127.0.0.1:$TLS_PORT" run_sm np_i2)
[ "$rc" = 2 ] && grep -q 'TLS certificate verification failed' np_i2.log ||
    fail "a proxied host trusted without the proxy's CA: exit $rc $(cat np_i2.log)"
ok

# An http URL goes through HTTP_PROXY (uppercase, which libcurl alone would ignore).
n0=$(seen "127.0.0.1:$MOCK_PORT/v1/")
expect_ok "OpenAI path via HTTP_PROXY" "$(HTTP_PROXY="$PROXY" run_oa px_http "$MOCK_URL")" px_http
[ "$(seen "127.0.0.1:$MOCK_PORT/v1/")" -ge $((n0 + 4)) ] || fail "HTTP_PROXY was not used for an http URL"
ok

# The proxy's password is in no output, log or result file smfw wrote.
leaks=$(grep -rl --exclude=mitm.log --exclude-dir=mitm -e "$PROXY_PW" . || true)
[ -z "$leaks" ] || fail "the proxy password leaked into: $leaks"
ok

echo "test_aws_tls_proxy: $passed passed, 0 failed"
