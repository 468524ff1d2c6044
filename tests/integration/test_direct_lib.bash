# test_direct_lib.bash - helpers shared by the direct backend's integration
# scripts (sourced, not a test itself): start/stop smfw-mock, clock offset.
: "${SMFW_BUILD_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
[ -x "$SMFW" ] && [ -x "$MOCK" ] || { echo "smfw or smfw-mock not built"; exit 77; }
# Sanitizer builds (tools/test.sh's second pass) run 2-3x slower: tests scale their sizes
# down by this, never their assertions.
if [ -z "${SMFW_SANITIZED:-}" ]; then
    SMFW_SANITIZED=0
    ldd "$SMFW" 2>/dev/null | grep -q 'libasan\|libubsan' && SMFW_SANITIZED=1
fi
export SMFW_SANITIZED
export AWS_ACCESS_KEY_ID=AKIDDIRECTTEST AWS_SECRET_ACCESS_KEY=direct-test-secret-key
export AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-direct.XXXXXX")
mock_pid=
cleanup() {
    # Cleanup never decides the verdict: the assertions did.
    if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null; wait "$mock_pid" 2>/dev/null || true; fi
    rm -rf "$work" 2>/dev/null || echo "note: $work not fully removed (a process still writing there)"
}
trap cleanup EXIT

# start_mock ARGS... : sets MOCK_URL; the mock knows endpoint "bench" and our keys.
start_mock() {
    stop_mock
    : > "$work/mock.out"
    "$MOCK" --listen 127.0.0.1:0 --endpoint bench --access-key-id "$AWS_ACCESS_KEY_ID" \
        --secret-access-key "$AWS_SECRET_ACCESS_KEY" --seed 7 "$@" \
        > "$work/mock.out" 2> "$work/mock.err" &
    mock_pid=$!
    for _ in $(seq 100); do grep -q listening "$work/mock.out" && break; sleep 0.05; done
    MOCK_URL=$(head -1 "$work/mock.out" | sed 's/.*listening on //')
    [ -n "$MOCK_URL" ] || { echo "smfw-mock did not start:"; cat "$work/mock.err"; exit 1; }
}

stop_mock() {
    if [ -n "$mock_pid" ]; then
        kill "$mock_pid" 2>/dev/null
        wait "$mock_pid" 2>/dev/null || true
        mock_pid=
    fi
}

# CLOCK_REALTIME - CLOCK_MONOTONIC in ns (records hold wall times; the mock mono times).
clock_offset() { "$SMFW_PYTHON" -c 'import time; print(time.time_ns() - time.monotonic_ns())'; }

# run_direct OUTDIR ARGS... : smfw direct against the mock's SageMaker routes; echo exit code.
run_direct() {
    local out=$1; shift
    set +e
    "$SMFW" run --backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 \
        -o "$out" -q "$@" > "$out.log" 2>&1
    local rc=$?
    set -e
    echo "$rc"
}

# 1 when the machine is not overloaded (load average below the core count).
machine_quiet() {
    "$SMFW_PYTHON" -c 'import os; print(1 if os.getloadavg()[0] < os.cpu_count() else 0)'
}
