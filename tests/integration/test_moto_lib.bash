# test_moto_lib.bash - helpers shared by the moto integration scripts (sourced,
# not a test itself): a moto_server (an AWS emulator nobody here wrote) on a
# free loopback port, a scratch HOME and AWS config with dummy keys, smfw-mock
# for what moto lacks (the SageMaker benchmark API), and boto3 on moto as the
# independent writer and reader. moto does not check signatures; what these
# tests check is that smfw's requests parse and its answers are read right.
: "${SMFW_BUILD_DIR:?}" "${SMFW_PYTHON:?}" "${SMFW_TESTDATA_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
AWS_CALL="$SMFW_BUILD_DIR/tests/integration/aws_call"
for b in "$SMFW" "$MOCK" "$AWS_CALL"; do
    [ -x "$b" ] || { echo "FAIL: $b is not built"; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-moto.XXXXXX")
cd "$work"
mkdir -p "$work/home/.aws"
# Nothing from the caller's AWS setup leaks in; the keys are dummies moto accepts.
unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_SESSION_TOKEN AWS_SECURITY_TOKEN AWS_ROLE_ARN \
    AWS_WEB_IDENTITY_TOKEN_FILE AWS_DEFAULT_REGION SAGEMAKER_ROLE_ARN SAGEMAKER_BUCKET \
    AWS_ENDPOINT_URL AWS_ENDPOINT_URL_S3 AWS_ENDPOINT_URL_STS AWS_ENDPOINT_URL_IAM \
    AWS_ENDPOINT_URL_CLOUDWATCH AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING \
    AWS_ENDPOINT_URL_SAGEMAKER AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME || true
export HOME="$work/home" XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config"
export AWS_CONFIG_FILE="$HOME/.aws/config" AWS_SHARED_CREDENTIALS_FILE="$HOME/.aws/credentials"
export AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing
: >"$AWS_CONFIG_FILE"
: >"$AWS_SHARED_CREDENTIALS_FILE"
ACCOUNT=123456789012 # moto's default account
MOTO_VERSION=$("$SMFW_PYTHON" -c 'import moto; print(moto.__version__)')
echo "moto $MOTO_VERSION (moto_server via $SMFW_PYTHON -m moto.server)"
moto_pid=
mock_pid=
cleanup() {
    local p
    for p in "$moto_pid" "$mock_pid"; do
        if [ -n "$p" ]; then kill "$p" 2>/dev/null || true; fi
    done
    # Bounded: whatever has not stopped 5 s after SIGTERM gets SIGKILL.
    for _ in $(seq 50); do
        kill -0 ${moto_pid:+"$moto_pid"} ${mock_pid:+"$mock_pid"} 2>/dev/null || break
        sleep 0.1
    done
    for p in "$moto_pid" "$mock_pid"; do
        if [ -n "$p" ]; then
            kill -9 "$p" 2>/dev/null || true
            wait "$p" 2>/dev/null || true
        fi
    done
    cd /
    if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# fail MESSAGE FILES... : print the message and the files, exit 1.
fail() {
    local msg=$1
    shift
    echo "FAIL: $msg"
    for f in "$@"; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
    exit 1
}

# start_moto: moto_server on a free 127.0.0.1 port; sets MOTO_URL. Its request
# log (one line per request, werkzeug's) goes to $work/moto.log.
start_moto() {
    local port
    port=$("$SMFW_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$SMFW_PYTHON" -m moto.server -H 127.0.0.1 -p "$port" >"$work/moto.out" 2>"$work/moto.log" &
    moto_pid=$!
    MOTO_URL="http://127.0.0.1:$port"
    # Bounded wait, 60 s of wall clock (moto takes a few seconds to start on a busy machine).
    local deadline=$((SECONDS + 60))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if "$SMFW_PYTHON" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1] + '/moto-api/', timeout=1)" \
            "$MOTO_URL" 2>/dev/null; then
            return 0
        fi
        kill -0 "$moto_pid" 2>/dev/null || fail "moto_server exited" "$work/moto.out" "$work/moto.log"
        sleep 0.2
    done
    fail "moto_server did not answer on $MOTO_URL within 60 s" "$work/moto.out" "$work/moto.log"
}

# moto_requests METHOD PATH_REGEX : how many requests moto logged so far that match.
moto_requests() {
    grep -cE "\"$1 $2 HTTP/1\.[01]\" " "$work/moto.log" || true
}

# start_mock ARGS... : smfw-mock on a free port (its own key, so smfw must sign its
# SageMaker calls with it: see mock_env); sets MOCK_URL.
MOCK_KEY=AKIDSMFWMOCKEXAMPLE
MOCK_SECRET=smfw-mock-secret-key-EXAMPLEKEY
start_mock() {
    "$MOCK" --listen 127.0.0.1:0 --ttft-ms 2 --itl-ms 0.2 --output-tokens 8 --seed 7 \
        --state-dir "$work/mockstate" "$@" >"$work/mock.out" 2>"$work/mock.err" &
    mock_pid=$!
    for _ in $(seq 200); do grep -q listening "$work/mock.out" 2>/dev/null && break; sleep 0.05; done
    MOCK_URL=$(sed -n 's/^listening on //p' "$work/mock.out" | head -1)
    [ -n "$MOCK_URL" ] || fail "smfw-mock did not start" "$work/mock.err"
}

# boto PYTHON_CODE ARGS... : Python with boto3 clients on moto: s3 (path style), sts,
# iam, cw (CloudWatch), aas (Application Auto Scaling), sm (SageMaker); MOTO_URL,
# BOTO_KEY and BOTO_SECRET point them elsewhere (smfw-mock).
boto() {
    local code=$1
    shift
    AWS_DATA_PATH="$SMFW_TESTDATA_DIR/awsmodels" MOTO_URL="$MOTO_URL" "$SMFW_PYTHON" - "$@" <<EOF
import datetime, hashlib, json, os, sys, time
import boto3, botocore.config
_cfg = botocore.config.Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1})
_kw = dict(endpoint_url=os.environ["MOTO_URL"], region_name="us-east-1",
           aws_access_key_id=os.environ.get("BOTO_KEY", "testing"),
           aws_secret_access_key=os.environ.get("BOTO_SECRET", "testing"), config=_cfg)
s3 = boto3.client("s3", **_kw)
sts = boto3.client("sts", **_kw)
iam = boto3.client("iam", **_kw)
cw = boto3.client("cloudwatch", **_kw)
aas = boto3.client("application-autoscaling", **_kw)
sm = boto3.client("sagemaker", **_kw)
$code
EOF
}

# timed NAME COMMAND... : run COMMAND, print how long it took.
timed() {
    local name=$1 t0 t1
    shift
    t0=$(date +%s%N)
    "$@"
    t1=$(date +%s%N)
    echo "$name: $(((t1 - t0) / 1000000)) ms"
}
