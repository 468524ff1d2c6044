#!/usr/bin/env bash
# test_direct_prefix_cache.sh - prefix-cache reuse through the direct backend, against
# smfw-mock's emulated vLLM prefix cache (--prefix-cache, docs/mock.md) and its ground truth:
#  1. Multi-turn conversations sharing a long system text, on the SageMaker streaming
#     route (event stream) and on an OpenAI-compatible server without streaming: every
#     record's usage_prompt_cached_tokens and usage_prompt_tokens are the mock's own
#     counts for that request (matched by request id); total_usage_prompt_cached_tokens
#     is their sum in the JSON and CSV exports; every later turn and every conversation
#     after the first reuses cached blocks; the smfw object's per-turn statistics carry
#     the cached tokens; TTFT is at least the mock's charge for the prompt tokens it had
#     to compute (--prefill-ms-per-token), so cached turns really are cheaper.
#  2. The same run without --prefix-cache: the server reports no cached tokens, and
#     smfw reports no cached-token metric at all (not a column of zeros).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

"$SMFW_PYTHON" - "$work/conv.jsonl" <<'PY'
import json, sys
system = "You are a careful assistant who answers questions about benchmarking. " * 8
with open(sys.argv[1], "w") as f:
    for c in "abcd":
        turns = [{"text": system + " first question from " + c * 30, "output_length": 6},
                 {"text": "a follow-up question " + c * 90, "output_length": 5},
                 {"text": "the last question " + c * 120, "output_length": 4}]
        f.write(json.dumps({"type": "multi_turn", "session_id": "conv-" + c, "turns": turns}) + "\n")
PY

check() { # OUTDIR GROUND_TRUTH CACHED(1|0) TTFT_MS PREFILL_MS_PER_TOKEN
    "$SMFW_PYTHON" - "$@" <<'PY'
import collections, csv, json, sys
out, gt_path, cached_on = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
ttft_ms, per_token = float(sys.argv[4]), float(sys.argv[5])
recs = [json.loads(l) for l in open(out + "/profile_export.jsonl")]
gt = {g["inference_id"]: g for g in map(json.loads, open(gt_path))}
agg = json.load(open(out + "/profile_export_aiperf.json"))
rows = {r[0]: r for r in csv.reader(open(out + "/profile_export_aiperf.csv")) if r}
assert len(recs) == 12 and len(gt) == 12, (len(recs), len(gt))
if not cached_on:
    assert all("cached_tokens" not in g for g in gt.values())
    assert all("usage_prompt_cached_tokens" not in r["metrics"] for r in recs)
    assert "usage_prompt_cached_tokens" not in agg and "total_usage_prompt_cached_tokens" not in agg
    assert not [k for k in rows if "Cached" in k], [k for k in rows if "Cached" in k]
    assert "usage_prompt_cached_tokens" not in json.dumps(agg["smfw"].get("sessions", {}))
    print("no prefix cache: no cached-token metric")
    sys.exit(0)
by_turn = collections.defaultdict(list)
total = 0
for r in recs:
    assert "error" not in r, r.get("error")
    md, m = r["metadata"], r["metrics"]
    g = gt[md["x_request_id"]]
    got = m["usage_prompt_cached_tokens"]["value"]
    assert got == g["cached_tokens"], (md["x_request_id"], got, g)
    assert m["usage_prompt_tokens"]["value"] == g["prompt_tokens"], (m["usage_prompt_tokens"], g)
    assert got % 16 == 0 and got < g["prompt_tokens"], g  # whole blocks, never the last token
    # TTFT (a buffered answer: its latency) includes the prefill of the tokens the cache did
    # not hold
    floor = ttft_ms + per_token * (g["prompt_tokens"] - got)
    first = m.get("time_to_first_token", m["request_latency"])
    assert first["value"] >= floor - 0.05, (first, floor, g)
    by_turn[md["turn_index"]].append((md["conversation_id"], got, g["prompt_tokens"]))
    total += got
# every later turn reuses its history; so does every conversation's first turn but the
# first one served (the shared system text)
for t in (1, 2):
    assert all(c > 0 for _, c, _ in by_turn[t]), by_turn[t]
first = sorted(by_turn[0], key=lambda x: x[1])
assert first[0][1] == 0 and all(c > 0 for _, c, _ in first[1:]), first
assert agg["total_usage_prompt_cached_tokens"]["avg"] == total, (agg["total_usage_prompt_cached_tokens"], total)
assert agg["usage_prompt_cached_tokens"]["count"] == 12
assert float(rows["Total Usage Prompt Cached Tokens (tokens)"][1]) == total, rows.get("Total Usage Prompt Cached Tokens (tokens)")
turns = {t["turn_index"]: t for t in agg["smfw"]["sessions"]["by_turn"]}
for t, v in by_turn.items():
    s = turns[t]["usage_prompt_cached_tokens"]
    assert s["count"] == len(v) and abs(s["avg"] - sum(c for _, c, _ in v) / len(v)) < 1e-9, (t, s, v)
print(f"prefix cache: 12 records equal the mock's cached counts (total {total}); "
      f"turn means {[turns[t]['usage_prompt_cached_tokens']['avg'] for t in sorted(turns)]}")
PY
}

# 1a. SageMaker streaming route (event stream), client-side history.
start_mock --ttft-ms 5 --itl-ms 1 --split line --prefix-cache 4096 --prefill-ms-per-token 0.05 \
    --ground-truth "$work/gt1.jsonl"
rc=$(run_direct "$work/r1" --dataset custom --dataset-file "$work/conv.jsonl" --concurrency 2 \
    --request-count 12)
stop_mock
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/r1.log"; exit 1; }
check "$work/r1" "$work/gt1.jsonl" 1 5 0.05

# 1b. OpenAI-compatible server, one buffered answer per request.
start_mock --no-auth --ttft-ms 5 --itl-ms 1 --prefix-cache 4096 --prefill-ms-per-token 0.05 \
    --ground-truth "$work/gt2.jsonl"
"$SMFW" run --backend direct --url "$MOCK_URL" --model mock-model --no-streaming --dataset custom \
    --dataset-file "$work/conv.jsonl" --concurrency 2 --request-count 12 -q -o "$work/r2" \
    > "$work/r2.log" 2>&1 || { echo "smfw exited $?"; cat "$work/r2.log"; exit 1; }
stop_mock
check "$work/r2" "$work/gt2.jsonl" 1 5 0.05

# 2. No prefix cache on the server.
start_mock --ttft-ms 5 --itl-ms 1 --ground-truth "$work/gt3.jsonl"
rc=$(run_direct "$work/r3" --dataset custom --dataset-file "$work/conv.jsonl" --concurrency 2 \
    --request-count 12)
stop_mock
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/r3.log"; exit 1; }
check "$work/r3" "$work/gt3.jsonl" 0 5 0
echo "test_direct_prefix_cache: passed"
