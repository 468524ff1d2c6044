#!/usr/bin/env bash
# test_capture_dataset.sh - a Data Capture folder written by hand in the layout and line format
# of the AWS documentation is read as docs/datasets.md says: JSON and BASE64 encodings, a
# streamed entry without output, the budget from the body, else the captured output, else
# none; entries of one second spread across it; variant and time-window filters. A truncated
# entry, an unknown content type and a corrupt line are each reported with file and line.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-capture.XXXXXX")
trap 'rm -rf "$work"' EXIT
cap="$work/capture"

"${SMFW_PYTHON:-python3}" - "$cap" <<'PY'
import base64, json, os, sys
root = sys.argv[1]
def entry(t, body, ct="application/json", enc="JSON", out=None, iid=None):
    d = {"endpointInput": {"observedContentType": ct, "mode": "INPUT",
                           "data": base64.b64encode(body.encode()).decode() if enc == "BASE64" else body,
                           "encoding": enc}}
    if out is not None:
        d["endpointOutput"] = {"observedContentType": "application/json", "mode": "OUTPUT",
                               "data": base64.b64encode(out.encode()).decode(), "encoding": "BASE64"}
    meta = {"eventId": "0f1e2d3c-4b5a-4697-8877-665544332211", "inferenceTime": t}
    if iid: meta["inferenceId"] = iid
    return json.dumps({"captureData": d, "eventMetadata": meta, "eventVersion": "0"})
def write(rel, lines, final_newline=True):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write("\n".join(lines) + ("\n" if final_newline else ""))
hour = "endpoints/my-endpoint/AllTraffic/2026/12/01/23"
write(hour + "/59-58-120-aaaaaaaa-0000-4000-8000-000000000001.jsonl", [
    entry("2026-12-01T23:59:58Z", '{"messages":[{"role":"user","content":"first"}],"max_tokens":64}',
          out='{"choices":[{"message":{"content":"x"}}],"usage":{"completion_tokens":5}}', iid="req-1"),
    entry("2026-12-01T23:59:58Z", '{"inputs":"second","parameters":{"do_sample":false}}', enc="BASE64",
          out='[{"generated_text":"y","details":{"generated_tokens":37}}]'),
])
# the next hour, next day: a streamed entry (no output captured)
write("endpoints/my-endpoint/AllTraffic/2026/12/02/00/00-00-005-aaaaaaaa-0000-4000-8000-000000000002.jsonl", [
    entry("2026-12-02T00:00:00Z", '{"messages":[{"role":"user","content":"third, streamed"}],"stream":true}',
          ct="application/json; charset=utf-8"),
])
write("endpoints/my-endpoint/Canary/2026/12/01/23/59-59-000-aaaaaaaa-0000-4000-8000-000000000003.jsonl", [
    entry("2026-12-01T23:59:59Z", '{"prompt":"canary"}'),
    entry("2026-12-01T23:59:59Z", "5.1,3.5,1.4,0.2", ct="text/csv", enc="CSV"),
])
PY

"$SMFW" dataset show capture --dataset-file "$cap" --capture-variant AllTraffic --prompts 3 > "$work/show.txt"
cat "$work/show.txt"
check() { grep -qF -- "$1" "$work/show.txt" || { echo "FAIL: missing: $1"; exit 1; }; }
check "dataset: capture (sagemaker_capture), 3 prompts"
# budget from the body; two entries of one second at 0 and 500 ms
check '#1  output budget: 64  input: ~2 tokens, 64 bytes  timestamp: 0 ms'
check '{"messages":[{"role":"user","content":"first"}],"max_tokens":64}'
# BASE64-decoded body sent as captured; its budget from the captured output (TGI details)
check '#2  output budget: 37'
check 'timestamp: 500 ms'
check '{"inputs":"second","parameters":{"do_sample":false}}'
# streamed: no output captured, no budget in the body -> none (the dataset defaults at run time)
check '#3  output budget: (none)'
check 'timestamp: 2000 ms'
check "schedule: 3 timed requests of 3 over 2.000 s"

# --capture-spread none: both entries of 23:59:58 at 0 ms; the window drops the first second
"$SMFW" dataset show capture --dataset-file "$cap" --capture-variant AllTraffic \
    --capture-spread none --prompts 2 > "$work/show.txt"
[ "$(grep -c 'timestamp: 0 ms' "$work/show.txt")" = 2 ] || { cat "$work/show.txt"; echo "FAIL: spread none"; exit 1; }
"$SMFW" dataset show capture --dataset-file "$cap" --capture-start 2026-12-01T23:59:59Z \
    --prompts 0 > "$work/show.txt"
check "dataset: capture (sagemaker_capture), 3 prompts" # the canary entries and the streamed one
"$SMFW" dataset show capture --dataset-file "$cap" --capture-end "2026-12-01 23:59:59" \
    --prompts 0 > "$work/show.txt"
check "dataset: capture (sagemaker_capture), 2 prompts" # the end is exclusive
set +e
"$SMFW" dataset show capture --dataset-file "$cap" --capture-start yesterday 2> "$work/e0"; r0=$?
set -e
[ "$r0" != 0 ] && grep -q -- '--capture-start "yesterday": want ISO-8601' "$work/e0" || { cat "$work/e0"; exit 1; }
"$SMFW" dataset show capture --dataset-file "$cap" --capture-variant Canary --prompts 2 > "$work/show.txt"
check '{"prompt":"canary"}'
check '#2  output budget: (none)  input: ~'
check '5.1,3.5,1.4,0.2' # CSV: the raw text
check 'timestamp: 500 ms'

# Bad lines: each reported with its file and line, and nothing is sent.
bad="$cap/endpoints/my-endpoint/AllTraffic/2026/12/02/00/00-01-000-aaaaaaaa-0000-4000-8000-000000000004.jsonl"
"${SMFW_PYTHON:-python3}" - "$bad" <<'PY'
import json, sys
good = {"captureData": {"endpointInput": {"observedContentType": "application/json", "mode": "INPUT",
        "data": "{\"prompt\":\"ok\"}", "encoding": "JSON"}},
        "eventMetadata": {"eventId": "e", "inferenceTime": "2026-12-02T00:01:00Z"}, "eventVersion": "0"}
cut = json.loads(json.dumps(good)); cut["captureData"]["endpointInput"]["data"] = "{\"prompt\":\"trunc"
odd = json.loads(json.dumps(good)); odd["captureData"]["endpointInput"]["observedContentType"] = "image/png"
with open(sys.argv[1], "w") as f:
    f.write(json.dumps(good) + "\n")       # line 1: fine
    f.write(json.dumps(cut) + "\n")        # line 2: data cut short
    f.write("{\"captureData\": oops\n")    # line 3: corrupt
    f.write(json.dumps(odd) + "\n")        # line 4: unknown content type
    f.write(json.dumps(good)[:80])         # line 5: the file ends inside the line
PY
set +e
"$SMFW" dataset show capture --dataset-file "$cap" > "$work/bad.out" 2> "$work/bad.err"
rc=$?
set -e
cat "$work/bad.err"
[ "$rc" != 0 ] || { echo "FAIL: bad lines accepted"; exit 1; }
for want in "$bad:2: endpointInput.data is not complete JSON" "$bad:3: not a JSON object" \
    "$bad:4: endpointInput.observedContentType \"image/png\" is not a body smfw can replay" \
    "$bad:5: truncated line: the file ends inside it"; do
    grep -qF -- "$want" "$work/bad.err" || { echo "FAIL: not reported: $want"; exit 1; }
done
grep -q "$bad:1:" "$work/bad.err" && { echo "FAIL: a good line reported"; exit 1; }

# Not a folder of captures: a clear error.
set +e
"$SMFW" dataset show capture --dataset-file "$work/nothing-here" 2> "$work/e1"; r1=$?
set -e
[ "$r1" != 0 ] && grep -q "cannot read $work/nothing-here" "$work/e1" || { cat "$work/e1"; exit 1; }
mkdir -p "$work/empty/ep/AllTraffic/2026/12/02/00" && : > "$work/empty/ep/AllTraffic/2026/12/02/00/00-00-000-x.jsonl"
set +e
"$SMFW" dataset show capture --dataset-file "$work/empty" 2> "$work/e3"; r3=$?
set -e
[ "$r3" != 0 ] && grep -q "no entry in the files under" "$work/e3" || { cat "$work/e3"; exit 1; }
echo "PASS: hand-written capture read as documented, bad lines reported with file and line"
