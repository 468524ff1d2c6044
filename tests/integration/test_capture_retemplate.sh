#!/usr/bin/env bash
# test_capture_retemplate.sh - captured bodies re-templated to another endpoint type
# (docs/datasets.md "Bodies"): a hand-written capture of chat bodies (one with a system
# message) and one completions body, replayed with --endpoint-type completions against
# smfw-mock's OpenAI completions route. The chat bodies go out as completions bodies around
# their prompt (one user message: its content; several: "role: content" paragraphs), with the
# captured output budget and --model; the completions body goes out byte for byte; the mock
# answers every one. Without --endpoint-type every body is sent as captured; a body with an
# image part cannot be re-templated and the run stops before the first request, naming the
# entry.
set -euo pipefail
. "$(dirname "$0")/test_direct_lib.bash"
cap="$work/capture"
"$SMFW_PYTHON" - "$cap" <<'PY'
import json, os, sys
hour = os.path.join(sys.argv[1], "endpoints/ep/AllTraffic/2026/12/02/05")
os.makedirs(hour)
def entry(t, body):
    return json.dumps({"captureData": {"endpointInput": {"observedContentType": "application/json",
        "mode": "INPUT", "data": body, "encoding": "JSON"}},
        "eventMetadata": {"eventId": "e", "inferenceTime": t}, "eventVersion": "0"})
bodies = [
    '{"messages":[{"role":"user","content":"What is a GPU?"}],"max_tokens":12}',
    '{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":[{"type":"text","text":"Name a prime."}]}],"max_tokens":7}',
    '{"prompt":"Once upon a time","max_tokens":5,"temperature":0.5}',
]
with open(os.path.join(hour, "00-00-000-x.jsonl"), "w") as f:
    for k, b in enumerate(bodies):
        f.write(entry(f"2026-12-02T05:00:0{k}Z", b) + "\n")
img = os.path.join(sys.argv[1] + "-img", "endpoints/ep/AllTraffic/2026/12/02/05")
os.makedirs(img)
with open(os.path.join(img, "00-00-000-x.jsonl"), "w") as f:
    f.write(entry("2026-12-02T05:00:00Z", bodies[0]) + "\n")
    f.write(entry("2026-12-02T05:00:01Z", '{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:,"}}]}]}') + "\n")
PY

start_mock --ttft-ms 2 --itl-ms 1 --ground-truth "$work/gt.jsonl"
replay() { # OUT ARGS...
    local out=$1; shift
    set +e
    "$SMFW" run --backend direct --url "$MOCK_URL" --model m -o "$out" -q --dataset capture \
        --dataset-file "$cap" --dataset-sampling sequential --no-streaming \
        "$@" > "$out.log" 2>&1
    local rc=$?
    set -e
    echo "$rc"
}
rc=$(replay "$work/re" --endpoint-type completions --request-count 3)
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/re.log"; exit 1; }
# as captured, on the default chat route: the two chat bodies
rc=$(replay "$work/raw" --request-count 2)
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/raw.log"; exit 1; }
set +e
"$SMFW" run --backend direct --url "$MOCK_URL" --model m -o "$work/img" -q --dataset capture \
    --dataset-file "$cap-img" --request-count 2 --no-streaming --endpoint-type completions \
    > "$work/img.log" 2>&1
img_rc=$?
set -e
stop_mock
"$SMFW_PYTHON" - "$work" "$img_rc" <<'PY'
import json, sys
work, img_rc = sys.argv[1], int(sys.argv[2])
def sent(run):
    d = json.load(open(f"{work}/{run}/inputs.json"))["data"]
    return [e["payloads"][0] for e in d]
re, raw = sent("re"), sent("raw")
def prompt(body):  # a completions prompt: a string or a list of strings (AIPerf sends a list)
    p = body["prompt"]
    return p if isinstance(p, str) else "\n".join(p)
assert prompt(re[0]) == "What is a GPU?" and re[0]["max_tokens"] == 12 and re[0]["model"] == "m", re[0]
assert prompt(re[1]) == "system: Be brief.\n\nuser: Name a prime." and re[1]["max_tokens"] == 7, re[1]
assert "messages" not in re[0] and "messages" not in re[1], re
# already a completions body: as captured (temperature kept, no model added)
assert re[2] == {"prompt": "Once upon a time", "max_tokens": 5, "temperature": 0.5}, re[2]
assert raw[0] == {"messages": [{"role": "user", "content": "What is a GPU?"}], "max_tokens": 12}, raw[0]
for run, n in (("re", 3), ("raw", 2)):
    recs = [json.loads(l) for l in open(f"{work}/{run}/profile_export.jsonl")]
    assert len(recs) == n and all("error" not in r for r in recs), [r.get("error") for r in recs]
gt = [json.loads(l) for l in open(f"{work}/gt.jsonl")]
assert len(gt) == 5 and all(g["status"] == 200 for g in gt), [g["status"] for g in gt]
err = open(f"{work}/img.log").read()
assert img_rc == 1, (img_rc, err)
assert "capture entry 2: message 1 of its chat body has no text content" in err, err
assert not __import__("os").path.exists(f"{work}/img/profile_export.jsonl") or \
    open(f"{work}/img/profile_export.jsonl").read() == "", "a request was sent"
print("PASS: captured chat bodies re-templated to completions, a completions body as captured")
PY
