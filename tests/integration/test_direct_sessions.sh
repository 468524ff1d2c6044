#!/usr/bin/env bash
# test_direct_sessions.sh - multi-turn conversations through the direct backend,
# checked against smfw-mock's ground truth (docs/direct.md "Sessions"):
#  1. SageMaker stateful sessions (--sagemaker-sessions, --session-close-body):
#     3 conversations of 3 turns at --concurrency 3. Every first turn opens a
#     session on InvokeEndpoint (NEW_SESSION) and has no TTFT; every later turn
#     carries the id the mock issued; turn k (from 0) carries 2k+1 messages whose
#     assistant messages are the mock's own earlier answers (SHA-256 of the
#     answers it sent against those of the bodies it read); each session is
#     closed once; turn delays (dataset "delay", else --turn-delay) are kept;
#     TTFT and latency per turn index match the ground truth within 1 ms, and so do
#     the smfw object's per-turn statistics and session durations (as
#     test_direct_groundtruth.sh; up to three attempts, "not measured" when a
#     busy machine missed it every time).
#  2. An expired session id (mock --session-ttl shorter than the turn delay) is
#     answered 400 ValidationError, recorded as that error on the second turn.
#  3. An OpenAI-compatible server (--url) with --session-header: one id per
#     conversation on every turn, the history growing the same way.
#  4. Conversations started at --request-rate (open loop), with and without a cap on
#     the users (--max-concurrency 1: an arrival waits, and its lateness is recorded).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

# Output budgets differ per turn, so every answer of a conversation differs.
cat > "$work/conv.jsonl" <<'JSONL'
{"type": "multi_turn", "session_id": "conv-a", "turns": [{"text": "hello a", "output_length": 4}, {"text": "more a", "output_length": 6}, {"text": "last a", "output_length": 8, "delay": 60}]}
{"type": "multi_turn", "session_id": "conv-b", "turns": [{"text": "hello b", "output_length": 5}, {"text": "more b", "output_length": 7}, {"text": "last b", "output_length": 9, "delay": 60}]}
{"type": "multi_turn", "session_id": "conv-c", "turns": [{"text": "hello c", "output_length": 3}, {"text": "more c", "output_length": 5}, {"text": "last c", "output_length": 7, "delay": 60}]}
JSONL
printf '{"requestType": "CLOSE"}' > "$work/close.json"

# 1. SageMaker stateful sessions. The functional checks must hold on every attempt; the timing
# (1 ms on a quiet machine, as test_direct_groundtruth.sh) gets up to three attempts, and when
# every one ran on a busy machine and missed it the script reports "not measured" (77) after
# the other checks, rather than loosening the bound.
timing=fail
for attempt in 1 2 3; do
rm -rf "$work/s1" "$work/gt1.jsonl"
quiet=$(machine_quiet)
start_mock --ttft-ms 30 --itl-ms 5 --split line --ground-truth "$work/gt1.jsonl"
rc=$(run_direct "$work/s1" --dataset custom --dataset-file "$work/conv.jsonl" --concurrency 3 \
    --request-count 9 --sagemaker-sessions --session-close-body "$work/close.json" \
    --turn-delay 25ms --report json)
stop_mock
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/s1.log"; exit 1; }
set +e
"$SMFW_PYTHON" - "$work/s1" "$work/gt1.jsonl" "$quiet" <<'PY'
import collections, hashlib, json, sys
out, gt_path, quiet = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
recs = [json.loads(l) for l in open(out + "/profile_export.jsonl")]
gt_lines = [json.loads(l) for l in open(gt_path)]
gt = {g["inference_id"]: g for g in gt_lines if not g.get("session_close")}
closes = [g for g in gt_lines if g.get("session_close")]
off = json.load(open(out + "/profile_export_aiperf.json"))["smfw"]["client"]["wall_minus_monotonic_ns"]
assert len(recs) == 9, f"{len(recs)} records"
assert len(gt) == 9, f"the mock answered {len(gt)} turns"
conv = collections.defaultdict(dict)
for r in recs:
    md = r["metadata"]
    assert "error" not in r, r.get("error")
    conv[md["conversation_id"]][md["turn_index"]] = r
assert sorted(conv) == ["conv-a", "conv-b", "conv-c"], sorted(conv)
tol = 1.0
err = collections.defaultdict(list)  # per turn index: |smfw - truth| in ms
ids = set()
for cid, turns in conv.items():
    assert sorted(turns) == [0, 1, 2], (cid, sorted(turns))
    g = [gt[turns[k]["metadata"]["x_request_id"]] for k in range(3)]
    sid = g[0]["session_id"]
    ids.add(sid)
    # one id per session, the one the mock issued on the opening turn
    assert [x["session_id"] for x in g] == [sid] * 3, [x["session_id"] for x in g]
    assert [x["session_turn"] for x in g] == [0, 1, 2], [x["session_turn"] for x in g]
    # turn k: the k earlier user turns, their k answers (as the mock sent them), this turn
    for k in range(3):
        assert g[k]["status"] == 200 and g[k]["messages"] == 2 * k + 1, (cid, k, g[k])
        assert g[k]["assistant_sha256"] == [g[j]["answer_sha256"] for j in range(k)], (cid, k)
    for k in range(3):
        md, m = turns[k]["metadata"], turns[k]["metrics"]
        start = md["request_start_ns"] - off
        last = md["request_end_ns"] - off
        assert start <= g[k]["recv_ns"], "sent after the mock read it?"
        err[k].append(abs(last - g[k]["last_byte_ns"]) / 1e6)
        if k == 0:
            # the opening turn is InvokeEndpoint: one buffered body, no stream, no TTFT
            assert "time_to_first_token" not in m, m.keys()
            assert g[0]["first_token_ns"] == g[0]["last_byte_ns"]
        else:
            first = start + m["time_to_first_token"]["value"] * 1e6
            err[k].append(abs(first - g[k]["first_token_ns"]) / 1e6)
        assert m["output_sequence_length"]["value"] == g[k]["tokens"], (m, g[k])
    # turn 1 waited --turn-delay (25 ms), turn 2 its dataset delay (60 ms), after the answer
    for k, want in ((1, 25), (2, 60)):
        prev_end = turns[k - 1]["metadata"]["request_end_ns"] - off
        # from the end smfw saw (the mock's own stamp of its last byte may come later on a
        # busy machine: it is taken when its event loop learns the write drained)
        waited = (g[k]["recv_ns"] - prev_end) / 1e6
        assert waited >= want, f"{cid} turn {k}: sent {waited:.3f} ms after turn {k - 1}, want {want}"
assert len(ids) == 3, ids
assert sorted(c["session_id"] for c in closes) == sorted(ids), closes
assert all(c["session_turn"] == 3 and c["status"] == 200 for c in closes), closes
# The per-turn and per-session statistics in the smfw object, against the records (numpy's
# linear percentile over 3 values is the middle one) and the mock's ground truth.
ses = json.load(open(out + "/profile_export_aiperf.json"))["smfw"]["sessions"]
assert ses["sessions"] == 3 and ses["turns_per_session"]["avg"] == 3, ses
assert [t["turn_index"] for t in ses["by_turn"]] == [0, 1, 2], ses["by_turn"]
for t in ses["by_turn"]:
    k = t["turn_index"]
    assert t["requests"] == 3 and t["errors"] == 0, t
    lat = sorted(conv[c][k]["metrics"]["request_latency"]["value"] for c in conv)
    assert abs(t["request_latency"]["avg"] - sum(lat) / 3) < 1e-9, (k, t, lat)
    assert t["request_latency"]["p50"] == lat[1] and t["request_latency"]["max"] == lat[2], (k, t)
    truth = [(gt[conv[c][k]["metadata"]["x_request_id"]]["last_byte_ns"] -
              (conv[c][k]["metadata"]["request_start_ns"] - off)) / 1e6 for c in conv]
    err[k].append(abs(t["request_latency"]["avg"] - sum(truth) / 3))
    if k == 0:
        assert "time_to_first_token" not in t, t  # InvokeEndpoint: no first token to time
    else:
        ttft = sorted(conv[c][k]["metrics"]["time_to_first_token"]["value"] for c in conv)
        assert abs(t["time_to_first_token"]["avg"] - sum(ttft) / 3) < 1e-9, (k, t, ttft)
        assert t["time_to_first_token"]["p50"] == ttft[1], (k, t, ttft)
        truth = [(gt[conv[c][k]["metadata"]["x_request_id"]]["first_token_ns"] -
                  (conv[c][k]["metadata"]["request_start_ns"] - off)) / 1e6 for c in conv]
        err[k].append(abs(t["time_to_first_token"]["avg"] - sum(truth) / 3))
dur = sorted((conv[c][2]["metadata"]["request_end_ns"] - conv[c][0]["metadata"]["request_start_ns"]) / 1e6
             for c in conv)
assert abs(ses["session_duration"]["avg"] - sum(dur) / 3) < 1e-6, (ses["session_duration"], dur)
assert abs(ses["session_duration"]["max"] - dur[2]) < 1e-6, (ses["session_duration"], dur)
assert dur[0] >= 25 + 60, dur  # both turn delays are inside a session
late = []
for k in range(3):
    worst = max(err[k])
    print(f"turn {k}: worst |smfw - ground truth| {worst:.3f} ms over {len(err[k])} stamps")
    if worst > tol:
        late.append(f"turn {k}: {worst:.3f} ms > {tol} ms")
if late:
    print("timing missed (machine quiet: %s): %s" % (quiet, "; ".join(late)))
    sys.exit(3)
PY
py_rc=$?
set -e
[ "$py_rc" = 0 ] && { timing=ok; break; }
[ "$py_rc" = 3 ] || exit 1
[ "$quiet" = 1 ] && timing=failed_quiet
done
[ "$timing" = failed_quiet ] && { echo "per-turn timing missed on a quiet machine"; exit 1; }

# 2. An expired session: the second turn is refused with 400 ValidationError.
start_mock --ttft-ms 5 --itl-ms 1 --session-ttl 0.05 --ground-truth "$work/gt2.jsonl"
rc=$(run_direct "$work/s2" --dataset custom --dataset-file "$work/conv.jsonl" --concurrency 1 \
    --request-count 2 --sagemaker-sessions --turn-delay 200ms --max-error-rate 1)
stop_mock
[ "$rc" = 0 ] || [ "$rc" = 3 ] || { echo "smfw exited $rc"; cat "$work/s2.log"; exit 1; }
"$SMFW_PYTHON" - "$work/s2" "$work/gt2.jsonl" <<'PY'
import json, sys
recs = sorted((json.loads(l) for l in open(sys.argv[1] + "/profile_export.jsonl")),
              key=lambda r: r["metadata"]["turn_index"])
gt = [json.loads(l) for l in open(sys.argv[2])]
assert len(recs) == 2, len(recs)
assert "error" not in recs[0], recs[0]["error"]
e = recs[1].get("error")
assert e and e["code"] == 400 and e["type"] == "ValidationError", e
assert "Session" in e["message"], e
assert [g["status"] for g in gt] == [200, 400], gt
print("expired session:", e["type"], e["code"], e["message"][:80])
PY

# 3. OpenAI-compatible server: --session-header carries one id per conversation.
start_mock --ttft-ms 5 --itl-ms 1 --session-header X-Session-Key --ground-truth "$work/gt3.jsonl"
set +e
"$SMFW" run --backend direct --url "$MOCK_URL" -o "$work/s3" -q --dataset custom \
    --dataset-file "$work/conv.jsonl" --concurrency 2 --request-count 9 \
    --session-header X-Session-Key > "$work/s3.log" 2>&1
rc=$?
set -e
stop_mock
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/s3.log"; exit 1; }
"$SMFW_PYTHON" - "$work/s3" "$work/gt3.jsonl" <<'PY'
import collections, json, sys
recs = [json.loads(l) for l in open(sys.argv[1] + "/profile_export.jsonl")]
gt = {g["inference_id"]: g for g in map(json.loads, open(sys.argv[2]))}
assert len(recs) == 9 and len(gt) == 9, (len(recs), len(gt))
by_key = collections.defaultdict(list)  # one id per conversation a user went through
for r in recs:
    md = r["metadata"]
    assert "error" not in r, r["error"]
    g = gt[md["x_request_id"]]
    assert g["session_id"] == md["x_correlation_id"], "x_correlation_id is the session's id"
    by_key[g["session_id"]].append((md["turn_index"], g, md["conversation_id"]))
sids = set(by_key)
for key, turns in by_key.items():
    turns.sort(key=lambda t: t[0])
    # 2 users over 3 conversations: each id covers consecutive turns of one conversation
    assert [t[0] for t in turns] == list(range(len(turns))), (key, [t[0] for t in turns])
    assert len({t[2] for t in turns}) == 1, (key, {t[2] for t in turns})
    for k, g, _ in turns:
        assert g["messages"] == 2 * k + 1, (key, k, g["messages"])
        assert g["assistant_sha256"] == [turns[j][1]["answer_sha256"] for j in range(k)]
assert len(sids) >= 4, sids  # 9 turns of 3-turn conversations on 2 users: a 4th one begins
assert sum(len(t) == 3 for t in by_key.values()) >= 2, {k: len(t) for k, t in by_key.items()}
print("openai sessions:", sorted(sids))
PY
# 4. Conversations started at a rate (open loop): each arrival of --request-rate starts one on
#    an idle user, its first turn intended for the arrival; later turns follow the answers. With
#    --max-concurrency 1 one conversation at a time: an arrival waits for the user, and its
#    first turn's record keeps the lateness (schedule_lag).
start_mock --ttft-ms 5 --itl-ms 1 --ground-truth "$work/gt4.jsonl"
for cap in "" 1; do
    rc=$(run_direct "$work/s4$cap" --dataset custom --dataset-file "$work/conv.jsonl" \
        --request-rate 20 --arrival constant --request-count 12 --turn-delay 10ms \
        ${cap:+--max-concurrency $cap})
    [ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/s4$cap.log"; exit 1; }
    grep -q "open loop, 20.000 conversations/s started (constant)" "$work/s4$cap/benchmark_summary.txt" ||
        { echo "the summary does not say conversations start at the rate"; cat "$work/s4$cap/benchmark_summary.txt"; exit 1; }
done
stop_mock
"$SMFW_PYTHON" - "$work/s4" "$work/s41" <<'PY'
import collections, json, sys
def sessions(d):
    by = collections.defaultdict(list)
    for l in open(d + "/profile_export.jsonl"):
        r = json.loads(l)
        assert "error" not in r, r["error"]
        md = r["metadata"]
        by[md["x_correlation_id"]].append((md["turn_index"], md, r["smfw"]["metrics"]))
    for v in by.values():
        v.sort(key=lambda t: t[0])
    return sorted(by.values(), key=lambda v: v[0][1]["credit_issued_ns"])
free, capped = sessions(sys.argv[1]), sessions(sys.argv[2])
# --request-count counts turns: with free users the 12 are shared by the conversations that
# arrivals started (a later one is cut when the budget is spent); one user finishes each.
for ses in (free, capped):
    turns = [[t[0] for t in v] for v in ses]
    assert all(t == list(range(len(t))) for t in turns) and sum(map(len, turns)) == 12, turns
    assert ses is free or turns == [[0, 1, 2]] * 4, turns
    for v in ses:  # a later turn waits for the answer before it, plus the delay
        for a, b in zip(v, v[1:]):
            assert b[1]["request_start_ns"] >= a[1]["request_end_ns"] + 10e6 * (b[0] == 1), (a[1], b[1])
# free users: conversation k's first turn is intended for arrival k, 1/20 s apart
starts = [v[0][1]["credit_issued_ns"] for v in free]
gaps = [(b - a) / 1e6 for a, b in zip(starts, starts[1:])]
assert all(abs(g - 50.0) < 0.01 for g in gaps), gaps
# one user: conversations one after another; an arrival that found it busy is sent late
for a, b in zip(capped, capped[1:]):
    assert b[0][1]["request_start_ns"] >= a[-1][1]["request_end_ns"], "conversations overlapped"
lag = [v[0][2]["schedule_lag"]["value"] for v in capped[1:]]
assert all(x > 20 for x in lag), lag  # a 3-turn conversation takes > 70 ms, arrivals 50 ms apart
print("conversations at a rate: first-turn gaps", [round(g, 3) for g in gaps],
      "ms; one user: first turns sent", [round(x, 1) for x in lag], "ms late")
PY
[ "$timing" = ok ] || { echo "not measured: per-turn timing missed on a busy machine"; exit 77; }
echo "ok"
