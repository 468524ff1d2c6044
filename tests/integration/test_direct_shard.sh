#!/usr/bin/env bash
# test_direct_shard.sh - `smfw run --shard I/N` with the direct backend: three
# shards of a 31-request run (shares 11, 10, 10; concurrency 4 split 2, 1, 1)
# send, between them, exactly the requests of one unsharded run: the same
# global request numbers (session_num) with the same prompts (each payload's
# conversation id, and the exact bodies in inputs.json), each stamped with
# info.shard; `smfw merge` of the three is accepted as one complete run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

start_mock --ttft-ms 1 --itl-ms 0.5 --output-tokens 4 --split line
common=(--concurrency 4 --request-count 31 --warmup-request-count 3 --random-seed 9)
rc=$(run_direct "$work/whole" "${common[@]}")
[ "$rc" = 0 ] || { echo "unsharded run exited $rc"; cat "$work/whole.log"; exit 1; }
for i in 1 2 3; do
    rc=$(run_direct "$work/s$i" "${common[@]}" --shard "$i/3")
    [ "$rc" = 0 ] || { echo "shard $i/3 exited $rc"; cat "$work/s$i.log"; exit 1; }
done
rc=$(run_direct "$work/bad" "${common[@]}" --shard 4/3)
[ "$rc" = 1 ] || { echo "--shard 4/3 must be refused (exit $rc)"; exit 1; }
grep -q "shard" "$work/bad.log"
stop_mock

"$SMFW_PYTHON" - "$work" <<'PY'
import json, sys
w = sys.argv[1]
def records(d):
    return [json.loads(l) for l in open(f"{w}/{d}/profile_export.jsonl")]
def seq(recs):
    return {r["metadata"]["session_num"]: r["metadata"]["conversation_id"] for r in recs}
whole = records("whole")
assert len(whole) == 31 and not any("error" in r for r in whole)
want = seq(whole)
assert sorted(want) == list(range(31)), sorted(want)
union, shares = {}, []
for i in (1, 2, 3):
    recs = records(f"s{i}")
    assert not any("error" in r for r in recs)
    got = seq(recs)
    shares.append(len(got))
    assert all(n % 3 == i - 1 for n in got), f"shard {i}: {sorted(got)}"
    assert not set(got) & set(union), "a request was sent by two shards"
    union.update(got)
    info = json.load(open(f"{w}/s{i}/profile_export_aiperf.json"))["smfw"]
    assert info.get("shard") == f"{i}/3", info.get("shard")
    assert info["request_count_target"] == shares[-1]
    assert info["concurrency"] == [2, 1, 1][i - 1], info["concurrency"]
    # every shard loads the same prompts in the same order
    assert json.load(open(f"{w}/s{i}/inputs.json")) == json.load(open(f"{w}/whole/inputs.json"))
assert shares == [11, 10, 10], shares
assert union == want, "the shards' prompts differ from the unsharded run's"
assert "shard" not in json.load(open(f"{w}/whole/profile_export_aiperf.json"))["smfw"]
print(f"3 shards ({shares}) = the unsharded run's 31 requests, same prompts")
PY

# The merged shards form one complete run of 31 requests.
"$SMFW" merge "$work/s1" "$work/s2" "$work/s3" -o "$work/merged" -q > "$work/merge.log" 2>&1 \
    || { echo "smfw merge failed"; cat "$work/merge.log"; exit 1; }
"$SMFW_PYTHON" - "$work/merged/profile_export_aiperf.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["request_count"]["avg"] == 31, j["request_count"]
print("merge: 31 requests")
PY
echo "ok"
