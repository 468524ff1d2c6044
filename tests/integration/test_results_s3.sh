#!/usr/bin/env bash
# test_results_s3.sh - results straight to S3 (smfw-mock's S3): two shards run with
# -o s3://bucket/p/shard-N leave numbered record chunks and their final files there,
# and `smfw merge s3://bucket/p/` equals the local merge of the same two runs (their
# folders downloaded with boto3); a shard
# killed with SIGKILL mid-run leaves its chunks, which `merge --allow-incomplete` uses
# (saying how many records each shard gave) and a plain merge refuses, naming the shard;
# `smfw results --s3` shows a run folder (as --local shows boto3's copy of it) and a merge
# written with `merge -o s3://`, and refuses, saying what to run, a shard prefix or a killed run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

start_mock --ttft-ms 2 --itl-ms 0.2 --output-tokens 8
export AWS_REGION=us-east-1
s3py() { # s3py SCRIPT ARGS... : Python with a botocore S3 client `s3` on the mock
    local script=$1; shift
    "$SMFW_PYTHON" - "$MOCK_URL" "$@" <<PY
import sys, boto3, botocore.config
s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
                  config=botocore.config.Config(s3={"addressing_style": "path"}))
$script
PY
}
s3py 's3.create_bucket(Bucket="bench-results")'
run() { # run OUT ARGS... : one direct run against the mock
    local out=$1; shift
    "$SMFW" run --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 -q -o "$out" "$@"
}

# (1) two shards to S3, with a short chunk interval so several chunks go up during the run
for i in 1 2; do
    run "s3://bench-results/p/shard-$i" --concurrency 2 --request-rate 40 --request-count 80 \
        --shard "$i/2" --s3-chunk-interval 0.3s > "$work/s3-$i.out" 2> "$work/s3-$i.err" ||
        { cat "$work/s3-$i.err"; exit 1; }
    grep -qx "s3://bench-results/p/shard-$i" "$work/s3-$i.out" || { cat "$work/s3-$i.out"; exit 1; }
done
s3py '
import os
keys = [o["Key"] for p in s3.get_paginator("list_objects_v2").paginate(Bucket="bench-results", Prefix="p/")
        for o in p.get("Contents", [])]
for i in (1, 2):
    names = [k.split("/", 2)[2] for k in keys if k.startswith(f"p/shard-{i}/")]
    chunks = sorted(n for n in names if n.startswith("records-"))
    assert len(chunks) >= 2, (i, names)   # 40 records over ~1 s at one chunk per 0.3 s
    assert chunks == [f"records-{k:06d}.jsonl" for k in range(1, len(chunks) + 1)], chunks
    for f in ("profile_export.jsonl", "profile_export_aiperf.json"):
        assert f in names, (i, f, names)
    whole = s3.get_object(Bucket="bench-results", Key=f"p/shard-{i}/profile_export.jsonl")["Body"].read()
    joined = b"".join(s3.get_object(Bucket="bench-results", Key=f"p/shard-{i}/{c}")["Body"].read() for c in chunks)
    assert joined == whole, (i, len(joined), len(whole))
    # an independent copy of the shard folder, for the local merge of the same runs
    os.makedirs(f"{sys.argv[2]}/local-{i}")
    for n in names:
        if "/" not in n and not n.startswith("records-"):
            s3.download_file("bench-results", f"p/shard-{i}/{n}", f"{sys.argv[2]}/local-{i}/{n}")
print("chunks and final files present")
' "$work"
"$SMFW" merge --endpoint-url "$MOCK_URL" s3://bench-results/p/ -o "$work/merged-s3" > "$work/merge-s3.out" 2>&1 ||
    { cat "$work/merge-s3.out"; exit 1; }
grep -q "shard-1: 40 records (complete)" "$work/merge-s3.out" || { cat "$work/merge-s3.out"; exit 1; }
"$SMFW" merge "$work/local-1" "$work/local-2" -o "$work/merged-local" -q > /dev/null
"$SMFW_PYTHON" - "$work" <<'PY'
import json, sys
w = sys.argv[1]
def ids(d):
    return sorted(json.loads(l)["metadata"]["x_request_id"] for l in open(f"{w}/{d}/profile_export.jsonl"))
def count(d):
    return json.load(open(f"{w}/{d}/profile_export_aiperf.json"))["request_count"]["avg"]
assert count("merged-s3") == count("merged-local") == 80, (count("merged-s3"), count("merged-local"))
assert len(ids("merged-s3")) == 80
assert ids("merged-s3") == ids("merged-local"), "request ids differ"
def metrics(d):
    j = json.load(open(f"{w}/{d}/profile_export_aiperf.json"))
    return {k: v for k, v in j.items() if isinstance(v, dict) and "unit" in v}
assert metrics("merged-s3") == metrics("merged-local")
m = json.load(open(f"{w}/merged-s3/profile_export_aiperf.json"))
assert m["smfw"]["client"]["merge"]["shard_count"] == 2, m["smfw"]["client"]["merge"]
print("S3 merge equals the local merge: 80 records")
PY

# (2) a shard killed with SIGKILL mid-run: its chunks are what is left
run "s3://bench-results/k/shard-1" --concurrency 2 --request-rate 40 --request-count 40 \
    --shard 1/2 --s3-chunk-interval 0.3s > /dev/null 2>&1
# smfw itself in the background (not the function's subshell), so kill -9 reaches it
"$SMFW" run --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 -q \
    -o "s3://bench-results/k/shard-2" --concurrency 2 --request-rate 20 --request-count 400 \
    --shard 2/2 --s3-chunk-interval 0.5s > /dev/null 2> "$work/killed.err" &
victim=$!
# wait until at least two chunks are up, then kill without any chance to clean up
for _ in $(seq 200); do
    n=$(s3py 'print(sum(1 for o in s3.list_objects_v2(Bucket="bench-results", Prefix="k/shard-2/records-").get("Contents", [])))')
    [ "$n" -ge 2 ] && break
    sleep 0.2
done
kill -9 "$victim"
wait "$victim" 2>/dev/null || true
kill -0 "$victim" 2>/dev/null && { echo "FAIL: the shard survived kill -9"; exit 1; }
sleep 0.5 # a put whose body was already sent may still land at the mock: count after it
chunk_records=$(s3py '
n = 0
for o in s3.list_objects_v2(Bucket="bench-results", Prefix="k/shard-2/").get("Contents", []):
    name = o["Key"].rsplit("/", 1)[1]
    assert not name.startswith("profile_export"), name   # killed: no final files
    if name == "shard.txt":   # put up first, so the killed shard is still placed
        assert s3.get_object(Bucket="bench-results", Key=o["Key"])["Body"].read() == b"2/2\n"
        continue
    n += s3.get_object(Bucket="bench-results", Key=o["Key"])["Body"].read().count(b"\n")
print(n)')
[ "$chunk_records" -ge 2 ] || { echo "FAIL: only $chunk_records records in chunks"; exit 1; }
set +e
"$SMFW" merge --endpoint-url "$MOCK_URL" s3://bench-results/k/ -o "$work/merged-k-refused" > "$work/refused.out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "FAIL: incomplete shard without --allow-incomplete: exit $rc, want 1 (an input refusal, as a local merge's)"; exit 1; }
grep -q "s3://bench-results/k/shard-2 has no final summary" "$work/refused.out" ||
    { cat "$work/refused.out"; exit 1; }
[ ! -e "$work/merged-k-refused" ] || { echo "FAIL: refused merge left its folder"; exit 1; }
"$SMFW" merge --endpoint-url "$MOCK_URL" s3://bench-results/k/ --allow-incomplete -o "$work/merged-k" \
    > "$work/merge-k.out" 2>&1 || { cat "$work/merge-k.out"; exit 1; }
grep -q "s3://bench-results/k/shard-1: 20 records (complete)" "$work/merge-k.out" ||
    { cat "$work/merge-k.out"; exit 1; }
grep -q "s3://bench-results/k/shard-2: $chunk_records records from [0-9]* chunks (incomplete" \
    "$work/merge-k.out" || { echo "want $chunk_records"; cat "$work/merge-k.out"; exit 1; }
total=$(wc -l < "$work/merged-k/profile_export.jsonl")
[ "$total" -eq $((20 + chunk_records)) ] || { echo "FAIL: merged $total records"; exit 1; }
echo "killed shard: $chunk_records records from its chunks, merged $total"

# (3) a record threshold: with a long interval the chunks still go up every 10 records
run "s3://bench-results/m/shard-1" --concurrency 2 --request-rate 40 --request-count 40 \
    --s3-chunk-interval 60s --s3-chunk-records 10 > /dev/null 2> "$work/m.err" ||
    { cat "$work/m.err"; exit 1; }
s3py '
objs = s3.list_objects_v2(Bucket="bench-results", Prefix="m/shard-1/records-").get("Contents", [])
sizes = [s3.get_object(Bucket="bench-results", Key=o["Key"])["Body"].read().count(b"\n") for o in objs]
assert len(sizes) >= 2 and sum(sizes) == 40, sizes      # by time alone: one chunk at the end
assert all(k >= 10 for k in sizes[:-1]), sizes
print("record threshold: chunks of", sizes)
'

# (4) a bucket that does not exist: refused before any load, nothing left behind locally
mkdir "$work/tmp"
set +e
TMPDIR="$work/tmp" run "s3://no-such-bucket/p/shard-1" --request-count 4 > /dev/null \
    2> "$work/nobucket.err"
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "FAIL: a missing bucket: exit $rc, want 2 (the target cannot work)"; cat "$work/nobucket.err"; exit 1; }
grep -q "no-such-bucket" "$work/nobucket.err" || { cat "$work/nobucket.err"; exit 1; }
[ -z "$(ls -A "$work/tmp")" ] || { echo "FAIL: left $(ls "$work/tmp")"; exit 1; }
echo "missing bucket refused: $(head -1 "$work/nobucket.err")"

# (5) `smfw results --s3`: a single run folder written with -o s3:// (p/shard-1), and a merge
# written to S3 with `merge -o s3://` (not into the shards' prefix, and never over results)
mr() { "$SMFW" "$@" --endpoint-url "$MOCK_URL" --region us-east-1; }
mr merge s3://bench-results/p/ -o s3://bench-results/p-merged -q > "$work/m2s3.out" 2> "$work/m2s3.err" ||
    { cat "$work/m2s3.err"; exit 1; }
grep -qx "s3://bench-results/p-merged" "$work/m2s3.out" || { cat "$work/m2s3.out"; exit 1; }
expect_refusal() { # expect_refusal RC PATTERN COMMAND... : COMMAND exits RC saying PATTERN
    local want=$1 pattern=$2 rc
    shift 2
    set +e
    "$@" > "$work/refusal.out" 2>&1
    rc=$?
    set -e
    [ "$rc" -eq "$want" ] || { echo "FAIL: $*: exit $rc, want $want"; cat "$work/refusal.out"; exit 1; }
    grep -q -- "$pattern" "$work/refusal.out" || { echo "FAIL: $*: no \"$pattern\""; cat "$work/refusal.out"; exit 1; }
}
expect_refusal 1 "s3://bench-results/p-merged already holds results" \
    mr merge s3://bench-results/p/ -o s3://bench-results/p-merged
expect_refusal 2 "cannot write the results to s3://no-such-bucket/m: bucket no-such-bucket" \
    mr merge s3://bench-results/p/ -o s3://no-such-bucket/m
expect_refusal 1 "is inside the merged prefix s3://bench-results/p/" \
    mr merge s3://bench-results/p/ -o s3://bench-results/p/merged
expect_refusal 1 "holds 2 run folders (shard-1, shard-2), the shards of one run" \
    mr results --s3 s3://bench-results/p/
expect_refusal 1 "s3://bench-results/k/shard-2 holds [0-9]* record chunks but no final summary.*--allow-incomplete" \
    mr results --s3 s3://bench-results/k/shard-2
(cd "$work" && mr results --s3 s3://bench-results/p-merged/ -o res-merged > res-merged.out 2>&1) ||
    { cat "$work/res-merged.out"; exit 1; }
(cd "$work" && mr results --s3 s3://bench-results/p/shard-1 -o res-1 > res-1.out 2>&1) ||
    { cat "$work/res-1.out"; exit 1; }
# the same folder from S3 a second time: the copy made before is reused (same ETags)
(cd "$work" && mr results --s3 s3://bench-results/p/shard-1 > again-1.out 2>&1 &&
    mr results --s3 s3://bench-results/p/shard-1/ > again-2.out 2>&1) || { cat "$work"/again-*.out; exit 1; }
grep -q "using the bundle downloaded before" "$work/again-2.out" || { cat "$work/again-2.out"; exit 1; }
"$SMFW" results --local "$work/local-1" > "$work/local-1.out"
"$SMFW" results --local "$work/merged-s3" > "$work/merged-s3.out"
"$SMFW_PYTHON" - "$work" <<'PY'
import json, os, sys
w = sys.argv[1]
def block(name):   # the summary smfw results prints, from its "Results (" line on, folder cut
    lines = open(f"{w}/{name}.out").read().splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith("Results ("))
    return lines[i + 1:]
# a single run: the files as the run wrote them (boto3's copy), no chunks, the same summary
got = sorted(os.listdir(f"{w}/res-1"))
assert not [n for n in got if n.startswith("records-") or n == "shard.txt"], got
run_files = sorted(n for n in os.listdir(f"{w}/local-1") if n != "shard.txt")   # boto3's copy
assert run_files == [n for n in got if n != "source.json"], (got, run_files)
for n in run_files:
    assert open(f"{w}/res-1/{n}", "rb").read() == open(f"{w}/local-1/{n}", "rb").read(), n
assert block("res-1") == block("local-1"), "results --s3 of a run folder differs from --local"
# the merged run in S3: what `merge s3://.../p/` computed locally, record for record
def metrics(d):
    j = json.load(open(f"{w}/{d}/profile_export_aiperf.json"))
    return {k: v for k, v in j.items() if isinstance(v, dict) and "unit" in v}
assert metrics("res-merged") == metrics("merged-s3")
ids = lambda d: sorted(json.loads(l)["metadata"]["x_request_id"] for l in open(f"{w}/{d}/profile_export.jsonl"))
assert ids("res-merged") == ids("merged-s3") and len(ids("res-merged")) == 80
assert block("res-merged") == block("merged-s3")
assert any(l.split()[:3] == ["Request", "Count", "(requests)"] and l.split()[3] == "80.00" for l in block("res-merged"))
print("results --s3: a run folder as --local shows it; the merge written to S3 as computed (80 records)")
PY

# (6) a run folder's keys are names smfw did not choose: a nested file comes along, a hidden or
# control-character component is skipped with a warning, nothing lands outside the folder
s3py '
import os
src = sys.argv[2] + "/local-1"
for n in ("profile_export_aiperf.json", "profile_export.jsonl"):
    s3.upload_file(f"{src}/{n}", "bench-results", f"odd/{n}")
s3.put_object(Bucket="bench-results", Key="odd/plots/ttft.png", Body=b"png")
s3.put_object(Bucket="bench-results", Key="odd/.hidden/x", Body=b"no")
s3.put_object(Bucket="bench-results", Key="odd/sub/\x1b]0;t\x07", Body=b"no")
' "$work"
(cd "$work" && mr results --s3 s3://bench-results/odd -o res-odd > res-odd.out 2> res-odd.err) ||
    { cat "$work/res-odd.out" "$work/res-odd.err"; exit 1; }
[ "$(cat "$work/res-odd/plots/ttft.png")" = png ] || { echo "FAIL: nested file not fetched"; exit 1; }
[ "$(grep -c "not a plain file name below the run folder; skipped" "$work/res-odd.err")" -eq 2 ] ||
    { cat "$work/res-odd.err"; exit 1; }
grep -q $'\x1b' "$work/res-odd.err" "$work/res-odd.out" && { echo "FAIL: a raw ESC reached the terminal"; exit 1; }
[ "$(cd "$work/res-odd" && find . -mindepth 1 | sort | tr '\n' ' ')" = \
    "./plots ./plots/ttft.png ./profile_export.jsonl ./profile_export_aiperf.json ./source.json " ] ||
    { echo "FAIL: fetched $(cd "$work/res-odd" && find . | tr '\n' ' ')"; exit 1; }
echo "results --s3 of a folder with odd keys: nested file fetched, 2 skipped"
