#!/usr/bin/env bash
# test_capture_roundtrip.sh - Data Capture round trip: a run against smfw-mock with capture
# enabled, then `smfw run --dataset capture --fixed-schedule` of that capture (synced from the
# mock's S3 to a folder) against a fresh mock. The fresh mock receives the same request bodies
# in the same order, and as many requests in each second as the capture holds for that second.
#
# Seconds are counted on the fresh mock's receive times, as offsets from the first request.
# That request's own delay (its connection is the first) would shift every other offset, so
# the others are placed from where the first request would have arrived with the latency the
# median request had (the first itself is offset 0); the capture's n requests of one second go
# out at k + i/n s, and each is counted half a slot later, so a send a few ms early or late
# stays in its second.
set -euo pipefail
. "$(dirname "$0")/test_direct_lib.bash"
export PYTHONPATH="$(dirname "$0")${PYTHONPATH:+:$PYTHONPATH}"

# 1. Traffic with capture on: buffered answers (captured with their output), open loop.
start_mock --data-capture s3://capture-bucket/datacapture --capture-json-content-types \
    application/json --capture-flush-ms 200 --ground-truth "$work/first.gt"
rc=$(run_direct "$work/first" --request-rate 12 --request-count 48 --no-streaming)
[ "$rc" = 0 ] || { echo "first run: smfw exited $rc"; cat "$work/first.log"; exit 1; }
sleep 0.8 # the writer's flush period, and then some
"$SMFW_PYTHON" - "$MOCK_URL" "$work/capture" <<'PY'
import re, sys, capture_lib
keys = capture_lib.download(sys.argv[1], "capture-bucket", sys.argv[2])
pat = re.compile(r"^datacapture/bench/AllTraffic/\d{4}/\d{2}/\d{2}/\d{2}/\d{2}-\d{2}-\d{3}-[0-9a-f-]{36}\.jsonl$")
bad = [k for k in keys if not pat.match(k)]
assert keys and not bad, f"capture keys not in the documented layout: {bad or 'none written'}"
entries = capture_lib.read(sys.argv[2])
assert len(entries) == 48, f"{len(entries)} captured entries, 48 requests were sent"
for t, body, iid, o in entries:
    assert o["eventVersion"] == "0" and o["eventMetadata"]["eventId"] and iid
    out = o["captureData"]["endpointOutput"]
    assert out["encoding"] == "JSON" and out["mode"] == "OUTPUT" and "choices" in out["data"]
print(f"capture: {len(keys)} files, {len(entries)} entries")
PY
# s3:// read straight from the mock's S3 (the standard AWS chain: AWS_ENDPOINT_URL_S3) is the
# same capture as the synced folder; a bad object line is reported by its s3:// URI.
"$SMFW" dataset show capture --dataset-file "$work/capture" --prompts 0 > "$work/dir.txt"
AWS_REGION=us-east-1 AWS_ENDPOINT_URL_S3="$MOCK_URL" "$SMFW" dataset show capture \
    --dataset-file s3://capture-bucket/datacapture/ --prompts 0 > "$work/s3.txt"
diff <(grep -v '^file:' "$work/dir.txt") <(grep -v '^file:' "$work/s3.txt") || { echo "FAIL: s3:// differs from the folder"; exit 1; }
"$SMFW_PYTHON" - "$MOCK_URL" <<'PY'
import boto3, sys
boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1").put_object(
    Bucket="capture-bucket", Key="bad/ep/AllTraffic/2026/12/02/01/00-00-000-x.jsonl", Body=b"not json\n")
PY
set +e
AWS_REGION=us-east-1 AWS_ENDPOINT_URL_S3="$MOCK_URL" "$SMFW" dataset show capture \
    --dataset-file s3://capture-bucket/bad/ 2> "$work/s3bad.err"
rc=$?
set -e
[ "$rc" != 0 ] && grep -qF "s3://capture-bucket/bad/ep/AllTraffic/2026/12/02/01/00-00-000-x.jsonl:1: not a JSON object" "$work/s3bad.err" || { cat "$work/s3bad.err"; echo "FAIL: s3 bad line"; exit 1; }
stop_mock

# 2. dataset show: count, time span and arrival profile of the capture.
"$SMFW" dataset show capture --dataset-file "$work/capture" --prompts 1 > "$work/show.txt"
grep -q "^dataset: capture (sagemaker_capture), 48 prompts" "$work/show.txt" || { cat "$work/show.txt"; exit 1; }
grep -q "^schedule: 48 timed requests of 48 over" "$work/show.txt" || { cat "$work/show.txt"; exit 1; }
grep -q "^profile (requests per 1 s from the first):" "$work/show.txt" || { cat "$work/show.txt"; exit 1; }
grep -q "output budget (tokens)" "$work/show.txt" || { cat "$work/show.txt"; exit 1; }

# 3. Replay against a fresh mock, which captures what it receives too.
start_mock --data-capture s3://replay-bucket/dc --capture-json-content-types application/json \
    --capture-flush-ms 200 --ground-truth "$work/replay.gt"
rc=$(run_direct "$work/replay" --dataset capture --dataset-file "$work/capture" --fixed-schedule \
    --no-streaming)
[ "$rc" = 0 ] || { echo "replay: smfw exited $rc"; cat "$work/replay.log"; exit 1; }
sleep 0.8
"$SMFW_PYTHON" - "$MOCK_URL" "$work/capture" "$work/replay-capture" "$work/replay.gt" <<'PY'
import collections, json, sys, capture_lib
url, first_dir, replay_dir, gt_path = sys.argv[1:5]
capture_lib.download(url, "replay-bucket", replay_dir)
first = capture_lib.read(first_dir)
# What the fresh mock received, in receive order: its ground truth (inference id, receive
# time) joined with its own capture (inference id -> body).
body_of = {iid: body for _, body, iid, _ in capture_lib.read(replay_dir)}
gt = sorted((json.loads(l) for l in open(gt_path)), key=lambda g: g["recv_ns"])
assert len(gt) == len(first), f"the fresh mock received {len(gt)} requests, the capture has {len(first)}"
received = [body_of[g["inference_id"]] for g in gt]
sent = [body for _, body, _, _ in first]
assert received == sent, "the fresh mock received other bodies or another order than captured"
# Per-second counts: the capture's seconds against the receive offsets.
t0 = first[0][0]
want = collections.Counter(t - t0 for t, _, _, _ in first)
per_second = collections.Counter(first_t for first_t, *_ in first)
intended, seen = [], collections.Counter()
for t, *_ in first:  # k + i/n s, as the capture dataset spreads them
    n = per_second[t]
    intended.append((t - t0) + seen[t] / n)
    seen[t] += 1
diff = [(g["recv_ns"] - gt[0]["recv_ns"]) / 1e9 - s for g, s in zip(gt, intended)]
shift = sorted(diff)[len(diff) // 2]
# The first request is the origin, offset 0 by definition, whichever way the shift goes (under a
# sanitizer the median request can be the late one: the first would then count before 0 s).
# The first request of each second is due exactly on the second, so a send a hair earlier than
# the median's delay would count in the second before: each offset is read half a slot of the
# busiest second later (i/n + 0.5/n_max < 1 keeps every intended send inside its own second).
half_slot = 0.5 / max(per_second.values())
got = collections.Counter([0] + [int(((g["recv_ns"] - gt[0]["recv_ns"]) / 1e9 - shift + half_slot) // 1)
                                 for g in gt[1:]])
worst = max(abs(d - shift) for d in diff[1:])
print("capture per second:", dict(sorted(want.items())))
print("replay per second: ", dict(sorted(got.items())), f"(first request {-shift * 1000:.3f} ms late,"
      f" worst send {worst * 1000:.3f} ms from its intended time, {half_slot * 1000:.1f} ms allowed)")
assert got == want, "requests per second differ between the capture and the replay"
PY
stop_mock

# 4. The DataCaptureConfig flags: half the traffic sampled, no CaptureContentTypeHeader (so
# BASE64), streamed answers without output, Input only.
start_mock --data-capture s3://sampled --capture-sampling-percentage 50 --capture-flush-ms 200 \
    --output-tokens 8 --itl-ms 1 # the answers' length does not matter here
rc=$(run_direct "$work/sampled" --concurrency 4 --request-count 60)
[ "$rc" = 0 ] || { echo "sampled run: smfw exited $rc"; cat "$work/sampled.log"; exit 1; }
sleep 0.8
"$SMFW_PYTHON" - "$MOCK_URL" "$work/sampled-capture" <<'PY'
import sys, capture_lib
keys = capture_lib.download(sys.argv[1], "sampled", sys.argv[2])
assert all(k.startswith("bench/AllTraffic/") for k in keys), keys  # no prefix: ENDPOINT/VARIANT/...
entries = capture_lib.read(sys.argv[2])
print(f"sampled: {len(entries)} of 60 requests captured at 50 %")
assert 15 <= len(entries) <= 45, len(entries)
for _, body, _, o in entries:
    assert o["captureData"]["endpointInput"]["encoding"] == "BASE64"
    assert "endpointOutput" not in o["captureData"], "a streamed answer was captured"
    assert body.startswith("{")
PY
stop_mock
start_mock --data-capture s3://inputless/p --capture-mode Output --capture-flush-ms 200 \
    --output-tokens 8 --itl-ms 1
rc=$(run_direct "$work/inputless" --concurrency 2 --request-count 6 --no-streaming)
[ "$rc" = 0 ] || { echo "output-only run: smfw exited $rc"; cat "$work/inputless.log"; exit 1; }
sleep 0.8
"$SMFW_PYTHON" - "$MOCK_URL" "$work/inputless-capture" <<'PY'
import json, os, sys, capture_lib
capture_lib.download(sys.argv[1], "inputless", sys.argv[2])
lines = [json.loads(l) for r, _, fs in os.walk(sys.argv[2]) for f in fs for l in open(os.path.join(r, f))]
assert len(lines) == 6 and all(set(l["captureData"]) == {"endpointOutput"} for l in lines), lines[:1]
PY
set +e
"$SMFW" dataset show capture --dataset-file "$work/inputless-capture" > /dev/null 2> "$work/inputless.err"
rc=$?
set -e
[ "$rc" != 0 ] && grep -q "CaptureOptions without Input" "$work/inputless.err" || { cat "$work/inputless.err"; exit 1; }
stop_mock
echo "PASS: capture round trip: same bodies, same order, same requests per second"
