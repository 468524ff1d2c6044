#!/usr/bin/env bash
# test_merge_shards.sh - a run split into 3 shards (`smfw run --shard I/3`)
# against smfw-mock, merged with `smfw merge`: the merged aggregates equal
# those of the union of the shards' records recomputed on its own (bit for
# bit) and an independent recomputation in Python (numpy-style percentiles);
# one folder merged alone reproduces its own aggregates; a missing or
# repeated shard is refused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

start_mock --ttft-ms 10:3 --itl-ms 2:1 --output-tokens 12
for i in 1 2 3; do
    rc=$(run_direct "$work/shard$i" --concurrency 6 --request-count 90 --shard "$i/3")
    [ "$rc" = 0 ] || { cat "$work/shard$i.log"; exit 1; }
done
stop_mock

"$SMFW" merge "$work/shard1" "$work/shard2" "$work/shard3" -o "$work/merged" -q
# The union of the records as a plain records-only folder, recomputed on its own.
mkdir "$work/union"
cat "$work/shard1/profile_export.jsonl" "$work/shard2/profile_export.jsonl" \
    "$work/shard3/profile_export.jsonl" > "$work/union/profile_export.jsonl"
"$SMFW" merge "$work/union" -o "$work/union-recomputed" -q
# One folder alone: its own aggregates.
"$SMFW" merge "$work/shard2" -o "$work/shard2-again" -q

"$SMFW_PYTHON" - "$work" <<'PY'
import json, math, sys
w = sys.argv[1]
def load(d):
    return json.load(open(f"{w}/{d}/profile_export_aiperf.json"))
def metrics(j):
    return {k: v for k, v in j.items() if isinstance(v, dict) and "unit" in v}
m, u = load("merged"), load("union-recomputed")
mm, um = metrics(m), metrics(u)
assert mm.keys() == um.keys(), set(mm) ^ set(um)
for k in mm:
    assert mm[k] == um[k], (k, mm[k], um[k])
assert m["smfw"]["client"]["merge"]["shard_count"] == 3
assert m["smfw"].get("shard") is None
assert mm["request_count"]["avg"] == 90, mm["request_count"]   # 30 per shard
assert m["smfw"].get("concurrency") in (None, 6), m["smfw"].get("concurrency")  # 2 + 2 + 2
for d in ("shard1", "shard2", "shard3"):
    assert load(d)["request_count"]["avg"] == 30, d
# independent recomputation from the records (ms in the files)
recs = [json.loads(l) for d in ("shard1", "shard2", "shard3")
        for l in open(f"{w}/{d}/profile_export.jsonl")]
def pct(v, p):
    v = sorted(v); h = (len(v) - 1) * p / 100; lo = math.floor(h); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])
ttft = [r["metrics"]["time_to_first_token"]["value"] for r in recs if not r.get("error")]
for p in (50, 90, 99):
    got = mm["time_to_first_token"]["p%d" % p]
    assert math.isclose(got, pct(ttft, p), rel_tol=1e-9), (p, got, pct(ttft, p))
assert math.isclose(mm["time_to_first_token"]["avg"], sum(ttft) / len(ttft), rel_tol=1e-9)
osl = sum(r["metrics"]["output_sequence_length"]["value"] for r in recs)
start = min(r["metadata"]["request_start_ns"] for r in recs)
end = max(r["metadata"]["request_start_ns"] + r["metrics"]["request_latency"]["value"] * 1e6 for r in recs)
assert math.isclose(mm["output_token_throughput"]["avg"], osl / ((end - start) / 1e9), rel_tol=1e-6)
# the shards alone do not tell the whole: the merged p99 is not any shard's p99
s2, s2b = metrics(load("shard2")), metrics(load("shard2-again"))
for k in s2:
    if k in ("goodput",): continue
    assert k in s2b, k
    for stat, v in s2[k].items():
        if stat == "unit": continue
        assert math.isclose(s2b[k][stat], v, rel_tol=1e-12), (k, stat, s2b[k][stat], v)
print("merged", len(recs), "records; TTFT p99 %.3f ms" % mm["time_to_first_token"]["p99"])
PY

set +e
"$SMFW" merge "$work/shard1" "$work/shard3" -o "$work/partial" -q 2> "$work/partial.err"
rc=$?
set -e
[ "$rc" = 1 ] && grep -q "2/3" "$work/partial.err" || { echo "missing shard not refused ($rc)"; cat "$work/partial.err"; exit 1; }
"$SMFW" merge "$work/shard1" "$work/shard3" -o "$work/partial2" --allow-partial -q
set +e
"$SMFW" merge "$work/shard1" "$work/shard1" "$work/shard2" -o "$work/twice" -q 2> "$work/twice.err"
rc=$?
set -e
[ "$rc" = 1 ] && grep -q "twice" "$work/twice.err" || { echo "repeated shard not refused"; cat "$work/twice.err"; exit 1; }
# never overwrites a run
set +e
"$SMFW" merge "$work/shard1" "$work/shard2" "$work/shard3" -o "$work/merged" -q 2>/dev/null
rc=$?
set -e
[ "$rc" = 1 ] || { echo "merge overwrote an existing run"; exit 1; }
echo "merge shards OK"
