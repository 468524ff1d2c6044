#!/usr/bin/env bash
# test_direct_groundtruth.sh - smfw's direct backend measured against
# smfw-mock's ground truth (the mock's CLOCK_MONOTONIC stamps of when it read
# each request and handed each byte to the socket; the join key is the
# X-Amzn-SageMaker-Inference-Id smfw sends and records as x_request_id).
#  1. concurrency 512 over SageMaker streaming (SigV4, event stream): events
#     are compared, not differences (direct_groundtruth.py): every send starts
#     before the mock read the request, and smfw's first-content and last
#     arrival stamps trail the mock's first-token and last-byte stamps by at
#     most 1 ms at p99, so TTFT, ITL and request latency match the ground
#     truth per request within 1 ms at p99. Up to three attempts (five under ASan); the test
#     fails when none passes and one ran on an otherwise quiet machine (other
#     processes' CPU time is measured); when every attempt was disturbed by
#     other work it reports "not measured" (77).
#  2. concurrency 8: aggregate throughput matches the latency model
#     (TTFT 20 ms + 15 x ITL 5 ms per 16-token answer).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

# The latency model keeps the mock and the client below saturation on 2 cores:
# 512 streams of 8 tokens (TTFT 400+-100 ms, ITL 100+-40 ms) are ~450 requests/s
# and ~4,000 token events/s (docs/performance.md has what twice that gives). With
# two cores or more, the mock and smfw get one core each (taskset), so neither
# steals the other's time slices.
pin=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then pin=(--pin-mock 0 --pin-smfw 1); fi
scale=1 attempts=3
# ASan (2-3x slower): the same check on an eighth of the load, and more tries at the same bound
# (a quiet attempt misses it more often there: one CI run had 2 of 2 just over 1 ms)
[ "${SMFW_SANITIZED:-0}" = 1 ] && scale=8 attempts=5
set +e
"$SMFW_PYTHON" "$here/direct_groundtruth.py" --build "$SMFW_BUILD_DIR" --work "$work" \
    --concurrency $((512 / scale)) --requests $((1536 / scale)) --warmup $((512 / scale)) \
    --tokens 8 --mock-args "--ttft-ms 400:100 --itl-ms 100:40 --split line" \
    --smfw-args "--workers 1" --attempts "$attempts" "${pin[@]}"
gt_rc=$?
set -e
[ "$gt_rc" = 0 ] || [ "$gt_rc" = 77 ] || exit 1

# Throughput against the latency model, at a load the mock serves on schedule.
start_mock --ttft-ms 20 --itl-ms 5 --output-tokens 16 --split line
rc=$(run_direct "$work/c8" --concurrency 8 --request-count 400 --warmup-request-count 8)
stop_mock
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/c8.log"; exit 1; }
"$SMFW_PYTHON" - "$work/c8/profile_export_aiperf.json" "$(machine_quiet)" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rt, ot = j["request_throughput"]["avg"], j["output_token_throughput"]["avg"]
model_latency_s = (20 + 15 * 5) / 1000
want = 8 / model_latency_s
print(f"request throughput {rt:.1f}/s (model {want:.1f}), output tokens {ot:.0f}/s (model {16 * want:.0f})")
assert abs(ot / rt - 16) < 1e-6
tol = 0.10 if sys.argv[2] == "1" else 0.35
assert abs(rt - want) / want < tol, f"request throughput {rt:.1f} vs model {want:.1f}"
itl = j["inter_token_latency"]["avg"]
assert abs(itl - 5.0) < (0.25 if sys.argv[2] == "1" else 1.5), f"ITL {itl}"
PY
[ "$gt_rc" = 77 ] && exit 77
echo "ok"
