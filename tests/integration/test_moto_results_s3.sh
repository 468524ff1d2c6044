#!/usr/bin/env bash
# test_moto_results_s3.sh - results straight to S3 against moto_server (an S3 nobody here wrote),
# the load against smfw-mock's SageMaker runtime (per-service endpoint variables), boto3 as the
# independent reader:
#  1. two shards with -o s3://smfw-moto-runs/r/shard-I: in moto, each has its shard.txt, record
#     chunks whose concatenation is its profile_export.jsonl, and its final files;
#  2. `smfw merge s3://.../r/ -o s3://.../r-merged`: the merged folder in moto holds the 40
#     records of the two shards and no chunks;
#  3. `smfw results --s3` of the merged folder and of one shard: the files are moto's bytes and
#     the printed request count is the run's; of the shard prefix: refused (exit 1), saying to
#     merge first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
start_moto
start_mock --endpoint bench
boto 's3.create_bucket(Bucket="smfw-moto-runs")'
smfw_s3() { # smfw with S3 at moto and the SageMaker runtime at smfw-mock (signed with its key)
    AWS_ENDPOINT_URL_S3="$MOTO_URL" AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME="$MOCK_URL" \
        AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET" "$SMFW" "$@"
}

# ---- 1. two shards into moto ------------------------------------------------------------
for i in 1 2; do
    smfw_s3 run --endpoint bench -q --request-count 40 --concurrency 2 --shard "$i/2" \
        --s3-chunk-records 6 -o "s3://smfw-moto-runs/r/shard-$i" > "shard-$i.out" 2> "shard-$i.err" ||
        fail "shard $i" "shard-$i.out" "shard-$i.err"
    grep -qx "s3://smfw-moto-runs/r/shard-$i" "shard-$i.out" || fail "shard $i: -q names no URI" "shard-$i.out"
done
boto '
keys = [o["Key"] for p in s3.get_paginator("list_objects_v2").paginate(Bucket="smfw-moto-runs", Prefix="r/")
        for o in p.get("Contents", [])]
get = lambda k: s3.get_object(Bucket="smfw-moto-runs", Key=k)["Body"].read()
for i in (1, 2):
    names = sorted(k.split("/", 2)[2] for k in keys if k.startswith(f"r/shard-{i}/"))
    chunks = [n for n in names if n.startswith("records-")]
    assert chunks == [f"records-{k:06d}.jsonl" for k in range(1, len(chunks) + 1)] and chunks, names
    assert "profile_export_aiperf.json" in names and "profile_export.jsonl" in names, names
    assert get(f"r/shard-{i}/shard.txt") == f"{i}/2\n".encode()
    whole = get(f"r/shard-{i}/profile_export.jsonl")
    assert b"".join(get(f"r/shard-{i}/{c}") for c in chunks) == whole, i
    assert whole.count(b"\n") == 20, (i, whole.count(b"\n"))
print("moto: 2 shards, chunks and final files")
'

# ---- 2. merge from moto into moto -----------------------------------------------------------
smfw_s3 merge s3://smfw-moto-runs/r/ -o s3://smfw-moto-runs/r-merged -q > merge.out 2> merge.err ||
    fail "merge to S3" merge.out merge.err
grep -qx "s3://smfw-moto-runs/r-merged" merge.out || fail "merge -q names no URI" merge.out
boto '
objs = s3.list_objects_v2(Bucket="smfw-moto-runs", Prefix="r-merged/")["Contents"]
names = sorted(o["Key"].split("/", 1)[1] for o in objs)
assert not [n for n in names if n.startswith("records-") or "/" in n], names
get = lambda k: s3.get_object(Bucket="smfw-moto-runs", Key=k)["Body"].read()
recs = [json.loads(l) for l in get("r-merged/profile_export.jsonl").splitlines()]
ids = sorted(r["metadata"]["x_request_id"] for r in recs)
shard_ids = sorted(json.loads(l)["metadata"]["x_request_id"] for i in (1, 2)
                   for l in get(f"r/shard-{i}/profile_export.jsonl").splitlines())
assert len(ids) == 40 and ids == shard_ids, (len(ids), len(shard_ids))
summary = json.loads(get("r-merged/profile_export_aiperf.json"))
assert summary["request_count"]["avg"] == 40, summary["request_count"]
assert summary["smfw"]["client"]["merge"]["shard_count"] == 2
for n in names:
    os.makedirs("boto-merged", exist_ok=True)
    open(f"boto-merged/{n}", "wb").write(get(f"r-merged/{n}"))
for n in ("profile_export_aiperf.json", "profile_export.jsonl"):
    os.makedirs("boto-shard-2", exist_ok=True)
    open(f"boto-shard-2/{n}", "wb").write(get(f"r/shard-2/{n}"))
print("moto: merged run of 40 records, no chunks:", ", ".join(names))
'

# ---- 3. smfw results --s3 from moto -------------------------------------------------------
smfw_s3 results --s3 s3://smfw-moto-runs/r-merged/ -o fetched-merged > res-merged.out 2> res-merged.err ||
    fail "results --s3 (merged)" res-merged.out res-merged.err
for f in boto-merged/*; do
    cmp "$f" "fetched-merged/${f#boto-merged/}" || fail "results --s3: $f differs from moto's"
done
grep -Eq "^  Request Count \(requests\) +40\.00$" res-merged.out || fail "no request count 40" res-merged.out
smfw_s3 results --s3 s3://smfw-moto-runs/r/shard-2 -o fetched-2 > res-2.out 2> res-2.err ||
    fail "results --s3 (one shard)" res-2.out res-2.err
for f in boto-shard-2/*; do
    cmp "$f" "fetched-2/${f#boto-shard-2/}" || fail "results --s3: $f differs from moto's"
done
ls fetched-2 | grep -q "^records-" && fail "results --s3 copied the record chunks" res-2.out
grep -Eq "^  Request Count \(requests\) +20\.00$" res-2.out || fail "no request count 20" res-2.out
set +e
smfw_s3 results --s3 s3://smfw-moto-runs/r/ > res-prefix.out 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "results --s3 of the shard prefix: exit $rc, want 1" res-prefix.out
grep -q "holds 2 run folders (shard-1, shard-2).*smfw merge s3://smfw-moto-runs/r/" res-prefix.out ||
    fail "results --s3 of the shard prefix: no hint" res-prefix.out
echo "results --s3 from moto: the merged run (40) and one shard (20) as moto holds them"
