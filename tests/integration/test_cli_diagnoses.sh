#!/usr/bin/env bash
# test_cli_diagnoses.sh - failures are described as what they are: a plugin file
# that is not a shared object is not "file not found"; a response with a 10 MB
# header is a protocol error, not "Out of memory"; a stream whose messages are
# not JSON is a protocol error, not "no content".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/plugins"
echo "not a plugin" > "$work/plugins/smfw_backend_bogus.so"
"$SMFW" plugins --plugin-path "$work/plugins" > "$work/plugins.log" 2>&1 || true
grep -q "smfw_backend_bogus.so refused: it is not a shared object" "$work/plugins.log" ||
    fail "non-ELF plugin: $(cat "$work/plugins.log")"
! grep -qi "file not found" "$work/plugins.log" || fail "non-ELF plugin called 'file not found'"

cat > "$work/bad.py" <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path.startswith("/huge"):
            self.send_response(200)
            self.send_header("X-Huge", "a" * (10 * 1024 * 1024))
            self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
            return
        body = b'data: {"choices":[{"delta":{"content":"he\n\ndata: [DONE]\n\n'
        self.send_response(200); self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
"$SMFW_PYTHON" "$work/bad.py" > "$work/bad.port" & srv=$!
trap 'kill $srv 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/bad.port" ] && break; sleep 0.05; done
port=$(cat "$work/bad.port")
# class_of DIR: the error classes of the records, sorted and counted
class_of() { "$SMFW_PYTHON" -c 'import json,sys,collections
c=collections.Counter((r.get("error") or {}).get("type") for r in map(json.loads, open(sys.argv[1])))
print(dict(c))' "$1/profile_export.jsonl"; }
set +e
"$SMFW" run --url "http://127.0.0.1:$port/huge" -n 3 --concurrency 1 --max-error-rate 1 \
    -o "$work/huge" -q > "$work/huge.log" 2>&1
"$SMFW" run --url "http://127.0.0.1:$port/v1/chat/completions" -n 3 --concurrency 1 \
    --max-error-rate 1 -o "$work/sse" -q > "$work/sse.log" 2>&1
set -e
echo "10 MB header: $(class_of "$work/huge")"
! grep -qi "out of memory" "$work/huge/profile_export.jsonl" || fail "a 10 MB header is called 'Out of memory'"
grep -q "header" "$work/huge/profile_export.jsonl" || fail "the 10 MB header error does not say header"
echo "malformed SSE JSON: $(class_of "$work/sse")"
grep -q '"JSONDecodeError"' "$work/sse/profile_export.jsonl" || fail "malformed SSE JSON not a protocol error"
! grep -q "InvalidInferenceResultError" "$work/sse/profile_export.jsonl" || fail "malformed SSE JSON called 'no content'"

# A streaming run whose requests all failed is still a streaming run.
start_mock --ttft-ms=1 --output-tokens=3 --fault=http-500:1
set +e
"$SMFW" run --url "$MOCK_URL" -n 5 --concurrency 1 --report json,html -o "$work/allfail" -q \
    > "$work/allfail.log" 2>&1
set -e
grep -q "every request failed" "$work/allfail/report.html" || fail "all-failed streaming run: no reason in the HTML"
! grep -q "not streaming" "$work/allfail/report.html" || fail "an all-failed streaming run is called 'not streaming'"
# ...and for compare too, both ways round, against a streaming run that worked.
start_mock --ttft-ms=1 --output-tokens=3
"$SMFW" run --url "$MOCK_URL" -n 5 --concurrency 1 -o "$work/allgood" -q > "$work/allgood.log" 2>&1 ||
    { cat "$work/allgood.log"; fail "the healthy streaming run failed"; }
for pair in "allgood allfail" "allfail allgood"; do
    read -r a b <<< "$pair"
    set +e
    "$SMFW" compare "$work/$a" "$work/$b" > "$work/cmp-$a.out" 2>&1
    set -e
    grep -q "time to first token\|ttft\|TTFT" "$work/cmp-$a.out" || { cat "$work/cmp-$a.out"; fail "compare $a $b: no TTFT row"; }
    ! grep -qi "not streaming\|streaming differs" "$work/cmp-$a.out" ||
        { cat "$work/cmp-$a.out"; fail "compare $a $b calls the all-failed streaming run not streaming"; }
done

# Ctrl-C: in the warm-up, no self-check over a zero-length profiling phase; in profiling,
# the requests cancelled in flight are not "finished" and the run gets no gate verdict.
# interrupt NAME DELAY ARGS...: SIGINT after DELAY seconds; the exit code must be 130
interrupt() {
    local name=$1 delay=$2; shift 2
    "$SMFW" run --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 -o "$work/$name" \
        "$@" > "$work/$name.out" 2> "$work/$name.err" &
    local pid=$!
    sleep "$delay"
    kill -INT "$pid"
    local rc=0
    wait "$pid" || rc=$?
    [ "$rc" = 130 ] || { cat "$work/$name.err"; fail "$name: exit $rc, want 130"; }
}
start_mock --ttft-ms=400 --output-tokens=3
interrupt warmup 1.5 --warmup-request-count 200 --concurrency 2 -n 10
grep -q "interrupted during the warm-up" "$work/warmup.err" || fail "warm-up Ctrl-C: $(cat "$work/warmup.err")"
! grep -qE "busy [0-9]{4,}" "$work/warmup.err" || fail "warm-up Ctrl-C: $(grep busy "$work/warmup.err")"
stop_mock
start_mock --ttft-ms=4000 --output-tokens=3
interrupt inflight 2 --concurrency 4 -n 200 --grace-period 0.2s
grep -q "cancelled in flight" "$work/inflight.err" || fail "in-flight Ctrl-C: $(cat "$work/inflight.err")"
grep -q "validity: not judged - the run was interrupted" "$work/inflight.out" ||
    fail "an interrupted run was judged: $(cat "$work/inflight.out")"
echo ok
