#!/usr/bin/env bash
# test_direct_troubleshoot.sh - failed runs explain themselves (the
# troubleshooting cases of the SageMaker guide), in benchmark_summary.txt's
# notes and on stderr, from what smfw-mock really answered:
#   wrong secret key      -> signature: region, credential source, measured clock skew
#   unknown access key    -> credentials not recognised (sts get-caller-identity), not IAM
#   unknown endpoint      -> the endpoint name and region to check (describe-endpoint)
#   throttling            -> lower the load or raise the quota
#   model errors (424)    -> the endpoint's CloudWatch log group
# The first three are failures that will not change: the run stops after its first
# requests (exit 2); the last two fail the validity gate (exit 3). Either way the
# notes explain.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

# expect NAME WANT_RC RUN_ARGS... -- PATTERN... : run, then each pattern must be in the notes
# and on stderr
expect() {
    local name=$1 want=$2
    shift 2
    local args=()
    while [ "$1" != -- ]; do args+=("$1"); shift; done
    shift
    local rc
    rc=$(run_direct "$work/$name" --concurrency 2 --request-count 20 "${args[@]}")
    [ "$rc" = "$want" ] || { echo "$name: exit $rc, want $want"; cat "$work/$name.log"; exit 1; }
    local notes
    notes=$(sed -n '/^notes:/,/^$/p' "$work/$name/benchmark_summary.txt")
    for p in "$@"; do
        grep -qF -- "$p" <<< "$notes" || { echo "$name: notes lack \"$p\":"; echo "$notes"; exit 1; }
        grep -qF -- "$p" "$work/$name.log" || { echo "$name: stderr lacks \"$p\""; exit 1; }
    done
    echo "$name: ok"
}

start_mock --ttft-ms 1 --itl-ms 1 --output-tokens 4 --split line
AWS_SECRET_ACCESS_KEY=not-the-secret expect signature 2 -- "failed signature checks" \
    "signed for us-east-1" "the AWS provider chain" "measured skew +0 s"
AWS_ACCESS_KEY_ID=AKIDUNKNOWN expect unknown_key 2 -- "does not recognise the credentials" \
    "aws sts get-caller-identity"
if grep -q "sagemaker:InvokeEndpointWithResponseStream" "$work/unknown_key/benchmark_summary.txt"; then
    echo "unknown_key: an unknown key must not be blamed on the IAM policy"
    exit 1
fi
expect not_found 2 --endpoint no-such-endpoint -- "no-such-endpoint" "exists in region us-east-1" \
    "describe-endpoint"
stop_mock
start_mock --ttft-ms 1 --itl-ms 1 --output-tokens 4 --split line --fault throttle:0.5
expect throttled 3 -- "were throttled" "lower --concurrency"
stop_mock
start_mock --ttft-ms 1 --itl-ms 1 --output-tokens 4 --split line --fault model-error:0.5
expect model_error 3 -- "inside the model container" "/aws/sagemaker/Endpoints/bench"
stop_mock
echo "ok"
