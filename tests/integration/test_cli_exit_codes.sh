#!/usr/bin/env bash
# test_cli_exit_codes.sh - every row of the exit-code table in docs/guide.md,
# driven once: 0 success, 1 usage/configuration/input error, 2 the target
# cannot work (no credentials; first requests all refused), 3 the validity
# gate, 4 a regression, 130 interrupted. (77 is the tests' own "not measured";
# smfw never returns it.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }
# want CODE NAME ARGS...: smfw ARGS exits CODE
want() {
    local code=$1 name=$2; shift 2
    set +e
    timeout 120 "$SMFW" "$@" > "$work/$name.log" 2>&1
    local rc=$?
    set -e
    [ "$rc" = "$code" ] || { cat "$work/$name.log"; fail "$name: smfw $* exited $rc, want $code"; }
    echo "$code  $name"
}
grep -q "^| 130 | interrupted" "$SMFW_SOURCE_DIR/docs/guide.md" || fail "docs/guide.md has no exit-code table"
start_mock --ttft-ms=2 --output-tokens=4
sm=(--endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1)

want 0 success run "${sm[@]}" -n 20 --concurrency 2 -o "$work/base" -q
want 0 help run --help
want 1 usage run --no-such-option
want 1 bad-value run "${sm[@]}" --max-error-rate 2
want 1 missing-folder results --local "$work/nothing-here"
printf '[run]\nconcurrency = 2\nconcurrency = 3\n' > "$work/dup.conf"
want 1 config-file config -C "$work/dup.conf"
AWS_CA_BUNDLE="$work/no-such-ca.pem" want 1 ca-bundle run "${sm[@]}" -n 20 -o "$work/noca"
(
    export HOME="$work/h" AWS_CONFIG_FILE="$work/h/none" AWS_SHARED_CREDENTIALS_FILE="$work/h/none"
    unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN
    want 2 no-credentials run "${sm[@]}" -n 20 -o "$work/nocreds"
)
AWS_SECRET_ACCESS_KEY=wrong want 2 refused run "${sm[@]}" -n 50 -o "$work/refused"
port=$("$SMFW_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
want 2 unreachable run --url "http://127.0.0.1:$port" -n 50 -o "$work/unreachable"
stop_mock
start_mock --ttft-ms=2 --output-tokens=4 --fault=http-500:0.3
sm=(--endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1)
want 3 gate run "${sm[@]}" -n 40 --concurrency 2 -o "$work/gate"
stop_mock
start_mock --ttft-ms=40 --output-tokens=4
sm=(--endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1)
want 0 slow run "${sm[@]}" -n 20 --concurrency 2 -o "$work/slow" -q
want 4 regression compare "$work/base" "$work/slow" --max-regression 10%
want 0 no-regression compare "$work/base" "$work/base" --max-regression 10%

# 130: Ctrl-C during a run; the finished requests are written.
"$SMFW" run "${sm[@]}" -n 100000 --concurrency 2 -o "$work/int" -q > "$work/int.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$work/int/profile_export.jsonl" ] && break; sleep 0.05; done
kill -INT "$pid"
set +e; wait "$pid"; rc=$?; set -e
[ "$rc" = 130 ] || { cat "$work/int.log"; fail "interrupted run exited $rc, want 130"; }
[ -s "$work/int/profile_export.jsonl" ] || fail "the interrupted run kept no records"
echo "130  interrupted"
echo ok
