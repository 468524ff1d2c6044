#!/usr/bin/env bash
# test_cli_failfast.sh - a run that cannot work stops before its first request,
# and one whose first requests all fail in a way that will not change stops
# issuing: exit 2 naming the reason, records kept. The validity gate (exit 3) is
# for runs that really ran. No credentials: the credential chain's sentence,
# before any request. A missing result folder is an input error (1) for
# `results` and `compare` alike.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }
# rc_of OUT ARGS...: run smfw, output to OUT.log, echo the exit code
rc_of() {
    local out=$1; shift
    set +e
    timeout "${SMFW_FAILFAST_TIMEOUT:-120}" "$SMFW" "$@" > "$out.log" 2>&1
    local rc=$?
    set -e
    echo "$rc"
}
records() { [ -f "$1/profile_export.jsonl" ] && wc -l < "$1/profile_export.jsonl" || echo 0; }
start_mock --ttft-ms=5 --output-tokens=4

# No credentials anywhere: the chain's sentence, exit 2, no request sent.
(
    export HOME="$work/home" AWS_CONFIG_FILE="$work/home/none" AWS_SHARED_CREDENTIALS_FILE="$work/home/none"
    mkdir -p "$HOME"
    unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_PROFILE AWS_ROLE_ARN \
        AWS_WEB_IDENTITY_TOKEN_FILE AWS_CONTAINER_CREDENTIALS_RELATIVE_URI \
        AWS_CONTAINER_CREDENTIALS_FULL_URI
    rc=$(rc_of "$work/nocreds" run --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 \
        -n 20 -o "$work/nocreds")
    [ "$rc" = 2 ] || { cat "$work/nocreds.log"; fail "no credentials: exit $rc, want 2"; }
    grep -q "no AWS credentials" "$work/nocreds.log" || fail "no credentials: $(cat "$work/nocreds.log")"
    for p in AWS_ACCESS_KEY_ID "$work/home/none" "instance metadata"; do
        grep -qF -- "$p" "$work/nocreds.log" || fail "the chain's sentence does not say why $p said no: $(cat "$work/nocreds.log")"
    done
    ! grep -q "403\|validity gate" "$work/nocreds.log" || fail "no credentials: advice about requests that never ran"
    [ "$(records "$work/nocreds")" = 0 ] || fail "no credentials: requests were sent"
    # No region anywhere: a configuration error naming --region, before any request.
    rc=$(rc_of "$work/noregion" run --endpoint bench --endpoint-url "$MOCK_URL" -n 5 -o "$work/noregion")
    [ "$rc" = 1 ] || { cat "$work/noregion.log"; fail "no region: exit $rc, want 1"; }
    grep -q -- "--region" "$work/noregion.log" || fail "no region: $(cat "$work/noregion.log")"
)

# fast_fail NAME WANT_RECORDS_AT_MOST PATTERN ARGS...: exit 2, the reason named, records kept
fast_fail() {
    local name=$1 most=$2 pattern=$3; shift 3
    local rc; rc=$(rc_of "$work/$name" run -o "$work/$name" --concurrency 2 "$@")
    [ "$rc" = 2 ] || { cat "$work/$name.log"; fail "$name: exit $rc, want 2"; }
    grep -qi -- "$pattern" "$work/$name.log" || fail "$name: reason \"$pattern\" not named: $(cat "$work/$name.log")"
    ! grep -q "validity gate" "$work/$name.log" || fail "$name: reported as a failed validity gate"
    local n; n=$(records "$work/$name")
    [ "$n" -ge 1 ] && [ "$n" -le "$most" ] || fail "$name: $n records, want 1..$most"
    echo "$name: exit 2 after $n requests"
}
port=$("$SMFW_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
fast_fail closed-port 12 "refused\|could not connect\|cannot connect" --url "http://127.0.0.1:$port" -n 300
fast_fail closed-port-3 3 "cannot connect" --url "http://127.0.0.1:$port" -n 3
fast_fail unknown-endpoint 12 "not found" --endpoint nosuch --endpoint-url "$MOCK_URL" --region us-east-1 -n 300
AWS_SECRET_ACCESS_KEY=wrong-secret-key fast_fail wrong-secret 12 "signature" \
    --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 -n 300
AWS_ACCESS_KEY_ID=AKIDNOTKNOWN fast_fail unknown-key 12 "security token\|access key\|UnrecognizedClient" \
    --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 -n 300

# A server that answers 401 to everything, 404 under /missing and 403 under /forbidden.
cat > "$work/deny.py" <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        missing = self.path.startswith("/missing")
        forbidden = self.path.startswith("/forbidden")
        body = b'{"error":{"message":"%s","type":"invalid_request_error"}}' % (
            b"no such route" if missing else b"not allowed" if forbidden else b"invalid api key")
        self.send_response(404 if missing else 403 if forbidden else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
"$SMFW_PYTHON" "$work/deny.py" > "$work/deny.port" & deny_pid=$!
trap 'kill $deny_pid 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/deny.port" ] && break; sleep 0.05; done
fast_fail unauthorized 12 "401\|auth" --url "http://127.0.0.1:$(cat "$work/deny.port")" -n 300
fast_fail forbidden 12 "stopped: the target refuses our credentials.*HTTP 403" --url "http://127.0.0.1:$(cat "$work/deny.port")/forbidden/v1/chat/completions" -n 300
fast_fail forbidden-3 3 "stopped: the target refuses our credentials.*HTTP 403" --url "http://127.0.0.1:$(cat "$work/deny.port")/forbidden/v1/chat/completions" -n 3
fast_fail no-route 12 "404\|does not exist" --url "http://127.0.0.1:$(cat "$work/deny.port")/missing/v1/chat/completions" -n 300

# A host name that cannot resolve (.invalid never does, RFC 2606). Bounded: a slow
# resolver may make this take a while, never longer than the bound.
t0=$(date +%s)
SMFW_FAILFAST_TIMEOUT=60 fast_fail dns 12 "could not resolve host" --url "http://smfw-no-such-host.invalid:8000" -n 300
[ $(($(date +%s) - t0)) -lt 60 ] || fail "dns: the run took $(($(date +%s) - t0)) s"

# Errors that may change (every request a 500) are the gate's business: the run runs.
rc=$(rc_of "$work/all500" run -o "$work/all500" --endpoint bench --endpoint-url "$MOCK_URL" \
    --region us-east-1 -n 30 --concurrency 2 --no-streaming)
[ "$rc" = 0 ] || { cat "$work/all500.log"; fail "a healthy mock run exited $rc"; }
start_mock --ttft-ms=5 --output-tokens=4 --fault=http-500:1
rc=$(rc_of "$work/all500" run -o "$work/all500b" --endpoint bench --endpoint-url "$MOCK_URL" \
    --region us-east-1 -n 30 --concurrency 2)
[ "$rc" = 3 ] || { cat "$work/all500.log"; fail "all 500s: exit $rc, want 3 (the gate)"; }
[ "$(records "$work/all500b")" = 30 ] || fail "all 500s: the run did not run its 30 requests"

# A missing folder is an input error for every command that reads results.
for cmd in "results --local $work/missing" "results $work/missing" "compare $work/missing $work/missing2" \
    "merge $work/missing -o $work/merged"; do
    # shellcheck disable=SC2086
    rc=$(rc_of "$work/missing-cmd" $cmd)
    [ "$rc" = 1 ] || { cat "$work/missing-cmd.log"; fail "smfw $cmd: exit $rc, want 1"; }
done
echo ok
