# test_managed_lib.bash - helpers shared by the managed backend's integration
# scripts (sourced, not a test itself): a fast smfw-mock (jobs really run
# through the direct backend, so latencies are kept tiny), smfw --backend
# managed against it, botocore as an independent reader of what the mock
# holds, and the check that printed headline numbers equal the bundle's JSON.
: "${SMFW_BUILD_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
[ -x "$SMFW" ] && [ -x "$MOCK" ] || { echo "SKIP: smfw or smfw-mock not built"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-managed.XXXXXX")
cd "$work"
export HOME="$work" XDG_CACHE_HOME="$work/cache" AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_ENDPOINT_URL AWS_SESSION_TOKEN SAGEMAKER_ROLE_ARN \
    SAGEMAKER_BUCKET AWS_ENDPOINT_URL_IAM AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING || true
MOCK_KEY=AKIDSMFWMOCKEXAMPLE
MOCK_SECRET=smfw-mock-secret-key-EXAMPLEKEY
ROLE=arn:aws:iam::111122223333:role/SageMakerExecutionRole
BUCKET=sagemaker-us-east-1-111122223333
mock_pid=
cleanup() {
    if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null; wait "$mock_pid" 2>/dev/null || true; fi
    cd /
    if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# start_mock ARGS... : a mock answering in ~3 ms per request (TTFT 2 ms, 8 tokens 0.2 ms
# apart), its state in $work/state; sets URL and points smfw's AWS client at it.
start_mock() {
    stop_mock
    "$MOCK" --listen 127.0.0.1:0 --ttft-ms 2 --itl-ms 0.2 --output-tokens 8 --seed 7 \
        --state-dir "$work/state" "$@" >"$work/mock.out" 2>"$work/mock.err" &
    mock_pid=$!
    for _ in $(seq 200); do grep -q listening "$work/mock.out" 2>/dev/null && break; sleep 0.05; done
    URL=$(sed -n 's/^listening on //p' "$work/mock.out" | head -1)
    [ -n "$URL" ] || { echo "smfw-mock did not start:"; cat "$work/mock.err"; exit 1; }
    export AWS_ENDPOINT_URL="$URL" AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET"
}

stop_mock() {
    if [ -n "$mock_pid" ]; then
        kill "$mock_pid" 2>/dev/null
        wait "$mock_pid" 2>/dev/null || true
        mock_pid=
    fi
}

# managed OUT ARGS... : smfw --backend managed into folder OUT (stdout OUT.out, stderr
# OUT.err); small, quick jobs (24 requests, concurrency 4) unless ARGS say otherwise (a
# list flag given twice appends, so the default concurrency is left out then). Sets rc.
managed() {
    local out=$1
    shift
    local conc=(--concurrency 4)
    case " $* " in *" --concurrency "* | *" --sla "*) conc=() ;; esac
    set +e
    "$SMFW" --backend managed --poll-interval 0.1s --role-arn "$ROLE" --request-count 24 \
        "${conc[@]}" -o "$out" "$@" >"$out.out" 2>"$out.err"
    rc=$?
    set -e
}

# fail MESSAGE FILES... : print the message and the files, exit 1.
fail() {
    local msg=$1
    shift
    echo "FAIL: $msg"
    for f in "$@"; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
    exit 1
}

# expect_rc WANT OUT : the last managed run exited WANT.
expect_rc() {
    [ "$rc" -eq "$1" ] || fail "$2: exit $rc, want $1" "$2.out" "$2.err"
}

# aws_py SCRIPT ARGS... : Python with botocore clients sm, s3 (path style) on the mock.
aws_py() {
    local script=$1
    shift
    AWS_DATA_PATH="${SMFW_TESTDATA_DIR:?}/awsmodels" "$SMFW_PYTHON" - "$@" <<EOF
import json, os, sys, hashlib
import boto3, botocore.config
_cfg = botocore.config.Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1})
_kw = dict(endpoint_url=os.environ["AWS_ENDPOINT_URL"], region_name="us-east-1",
           aws_access_key_id="$MOCK_KEY", aws_secret_access_key="$MOCK_SECRET", config=_cfg)
sm = boto3.client("sagemaker", **_kw)
s3 = boto3.client("s3", **_kw)
$script
EOF
}

# job_of OUT : the benchmark job name smfw launched for run OUT.
job_of() {
    sed -n 's/.*launched benchmark job \([^ ]*\) .*/\1/p' "$1.err" | head -1
}

# check_numbers OUT JSON... : every headline number smfw printed for run OUT equals the
# value in the bundle JSON it came from. One JSON: `smfw run`'s summary (or a lone
# `Results` block); several: one `Results at concurrency N` block per JSON, in order.
check_numbers() {
    "$SMFW_PYTHON" - "$@" <<'PY'
import json, re, sys
out = open(sys.argv[1] + ".out").read()
files = sys.argv[2:]
def metrics(path):
    j = json.load(open(path))
    return {k: v for k, v in j.items() if isinstance(v, dict) and "avg" in v}
checked = 0
def same(printed, want, what):
    global checked
    assert abs(float(printed) - want) <= 0.005 + 1e-9 * abs(want), f"{what}: printed {printed}, JSON {want}"
    checked += 1
# The summary's rows: "  <Header> (<unit>)  avg p50 p90 p99" or one value.
headers = {"Time to First Token": "time_to_first_token", "Inter Token Latency": "inter_token_latency",
           "Request Latency": "request_latency",
           "Output Token Throughput Per User": "output_token_throughput_per_user",
           "Output Sequence Length": "output_sequence_length",
           "Input Sequence Length": "input_sequence_length",
           "Output Token Throughput": "output_token_throughput",
           "Request Throughput": "request_throughput", "Request Count": "request_count",
           "Error Request Count": "error_request_count", "Benchmark Duration": "benchmark_duration"}
def check_table(text, m, where):
    seen = set()
    for line in text.splitlines():
        mm = re.match(r"\s+(.+?) \([^)]*\)\s+(-?[0-9.]+)(?:\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s+(-?[0-9.]+))?\s*$", line)
        if not mm or mm.group(1) not in headers:
            continue
        tag = headers[mm.group(1)]
        assert tag in m, f"{where}: {tag} printed but not in the JSON"
        same(mm.group(2), m[tag]["avg"], f"{where} {tag}.avg")
        if mm.group(3):
            for stat, g in zip(("p50", "p90", "p99"), (3, 4, 5)):
                same(mm.group(g), m[tag][stat], f"{where} {tag}.{stat}")
        seen.add(tag)
    need = {"time_to_first_token", "inter_token_latency", "request_latency",
            "output_token_throughput", "request_throughput", "request_count"}
    assert need <= seen, f"{where}: missing rows {need - seen}"
    if "error_request_count" in m:
        assert "error_request_count" in seen, f"{where}: errors not shown"
# One summary block per run (smfw_run_summary_print): "Results at concurrency N" blocks
# of a bundle's levels, else the run's own summary.
blocks = [b for b in out.split("\n\n") if b.startswith("Results")]
if len(files) == 1 and not blocks:
    check_table(out, metrics(files[0]), files[0])
else:
    assert len(blocks) == len(files), f"{len(blocks)} result blocks for {len(files)} runs:\n{out}"
    for b, f in zip(blocks, files):
        check_table(b, metrics(f), f)
print(f"{sys.argv[1]}: {checked} printed numbers equal to the bundle's JSON")
assert checked >= 15 * len(files), checked
PY
}
