#!/usr/bin/env bash
# test_moto_s3_multipart.sh - smfw_aws_s3_upload_file against moto_server (an
# AWS emulator nobody here wrote) through a recording proxy
# (s3_record_proxy.py), with boto3/botocore 1.43 as the independent reader:
#  1. A 12 MiB + 123 B file with 5 MiB parts: 3 UploadParts, each with the
#     x-amz-checksum-crc32 of its bytes; boto3 reads the object back with the
#     file's SHA-256, ETag "...-3", and no upload left over.
#  2. The same file uploaded by boto3's upload_file (same part size): smfw's
#     requests match boto3's (method, query names, checksum headers, part
#     bodies, the CompleteMultipartUpload XML byte for byte).
#  3. The defaults: 9 MiB goes multipart in 8 MiB parts (ETag "-2"), 1 MiB is
#     one PutObject with its CRC-32 (boto3's get_object checksum matches).
#  4. A part S3 keeps refusing (500): smfw fails naming UploadPart, sends
#     AbortMultipartUpload, and boto3's list_multipart_uploads is empty.
#  5. CompleteMultipartUpload answered 200 with an <Error> body: retried like
#     a 500 (botocore's rule) and succeeds; always so: fails and aborts.
#  6. ListObjectsV2 with encoding-type=url: keys with control characters, '+',
#     '%', spaces and UTF-8 come back exactly as boto3 wrote them.
#  7. The bucket in another region than the client's (the proxy answers what S3
#     does: 400 AuthorizationHeaderMalformed, HEAD's bodyless 400, 301
#     PermanentRedirect, with x-amz-bucket-region): smfw retries once in the
#     named region and stays there for the other requests, as boto3 does
#     through the same proxy (same redirects, same regions signed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
start_moto

# The recording proxy in front of moto; smfw and boto3 both go through it.
export S3_PROXY_FAULTS="$work/faults"
: >"$S3_PROXY_FAULTS"
"$SMFW_PYTHON" "$here/s3_record_proxy.py" "$MOTO_URL" "$work/proxy.log" "$work/proxy.port" \
    >"$work/proxy.out" 2>&1 &
proxy_pid=$!
trap 'kill $proxy_pid 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
[ -s "$work/proxy.port" ] || fail "the recording proxy did not start" "$work/proxy.out"
PROXY_URL="http://127.0.0.1:$(cat "$work/proxy.port")"
export AWS_ENDPOINT_URL_S3="$PROXY_URL" AWS_MAX_ATTEMPTS=3 AWS_RETRY_MODE=standard
BUCKET=smfw-multipart
boto 's3.create_bucket(Bucket=sys.argv[1])' "$BUCKET"
MIB=1048576
"$SMFW_PYTHON" -c "
import os, sys
for name, n in (('big.bin', 12 * $MIB + 123), ('nine.bin', 9 * $MIB), ('one.bin', $MIB)):
    open(name, 'wb').write(os.urandom(n))
"
# check_object KEY FILE PARTS : boto3 reads KEY back: bytes, ETag form, nothing left open.
check_object() {
    boto '
bucket, key, local, parts = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
want = hashlib.sha256(open(local, "rb").read()).hexdigest()
o = s3.get_object(Bucket=bucket, Key=key, ChecksumMode="ENABLED")
got = hashlib.sha256(o["Body"].read()).hexdigest()
assert got == want, (key, got, want)
etag = o["ETag"].strip("\"")
if parts:
    assert etag.endswith("-%d" % parts), (key, etag)
else:
    assert "-" not in etag, (key, etag)
left = s3.list_multipart_uploads(Bucket=bucket).get("Uploads", [])
assert not left, left
' "$BUCKET" "$1" "$2" "$3"
}
proxy_log() { # proxy_log TAG : move the proxy log so far to $work/TAG.jsonl
    mv "$work/proxy.log" "$work/$1.jsonl" 2>/dev/null || : >"$work/$1.jsonl"
}

# ---- 1. three parts ---------------------------------------------------------------
"$AWS_CALL" s3-put-file "$BUCKET" "runs/chunk 1.bin" big.bin $((5 * MIB)) >put1.out 2>put1.err ||
    fail "s3-put-file big.bin" put1.out put1.err
grep -qE '^etag "[0-9a-f]{32}-3"$' put1.out || fail "no 3-part ETag" put1.out
grep -q "^size $((12 * MIB + 123))$" put1.out || fail "wrong size" put1.out
check_object "runs/chunk 1.bin" big.bin 3
proxy_log smfw1

# ---- 2. the same upload by boto3 ----------------------------------------------------
MOTO_URL="$PROXY_URL" boto '
import boto3.s3.transfer
cfg = boto3.s3.transfer.TransferConfig(multipart_threshold=5 * 1048576,
                                       multipart_chunksize=5 * 1048576, max_concurrency=1)
s3.upload_file("big.bin", sys.argv[1], "runs/chunk 1.bin", Config=cfg)
' "$BUCKET"
proxy_log boto1
"$SMFW_PYTHON" - "$work/smfw1.jsonl" "$work/boto1.jsonl" <<'PY' || fail "smfw's multipart requests differ from boto3's" "$work/smfw1.jsonl" "$work/boto1.jsonl"
import json, re, sys
def load(p):
    recs = [json.loads(l) for l in open(p)]
    # The upload's own requests (boto3's upload_file makes no others; smfw none either).
    return [r for r in recs if r["path"].endswith("/runs/chunk 1.bin")]
s, b = load(sys.argv[1]), load(sys.argv[2])
def shape(r):
    h = r["headers"]
    return (r["method"], r["query"], r["partNumber"], r["length"], r["sha256"] if r["partNumber"] else None,
            h.get("x-amz-checksum-crc32"), h.get("x-amz-sdk-checksum-algorithm"),
            h.get("x-amz-checksum-algorithm"))
ss, bs = [shape(r) for r in s], [shape(r) for r in b]
for x, y in zip(ss, bs):
    print("smfw ", x[:4], x[5:], "\nboto3", y[:4], y[5:])
assert ss == bs, "request shapes differ"
parts = [r for r in s if r["partNumber"]]
assert len(parts) == 3 and all(r["headers"].get("x-amz-checksum-crc32") for r in parts)
cs, cb = s[-1]["body"], b[-1]["body"]
# Same parts, same bytes: same ETags, checksums and XML.
assert cs == cb, (cs, cb)
assert cs.count("<ChecksumCRC32>") == 3, cs
print("CompleteMultipartUpload bodies identical:", len(cs), "bytes")
PY

# ---- 3. the defaults ------------------------------------------------------------------
"$AWS_CALL" s3-put-file "$BUCKET" nine.bin nine.bin >put2.out 2>put2.err || fail "nine.bin" put2.err
grep -qE '^etag "[0-9a-f]{32}-2"$' put2.out || fail "9 MiB is not 2 default parts" put2.out
check_object nine.bin nine.bin 2
"$AWS_CALL" put "$BUCKET" one.bin one.bin 2>put3.err || fail "one.bin" put3.err
check_object one.bin one.bin 0
proxy_log smfw3
"$SMFW_PYTHON" - "$work/smfw3.jsonl" <<'PY' || fail "default part sizes / PutObject checksum" "$work/smfw3.jsonl"
import base64, json, sys, zlib
recs = [json.loads(l) for l in open(sys.argv[1])]
nine = [r for r in recs if r["path"].endswith("/nine.bin") and r["partNumber"]]
assert [r["length"] for r in nine] == [8 * 1048576, 1048576], [r["length"] for r in nine]
one = [r for r in recs if r["path"].endswith("/one.bin") and r["method"] == "PUT"]
assert len(one) == 1 and not one[0]["query"], one
data = open("one.bin", "rb").read()
want = base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()
assert one[0]["headers"].get("x-amz-checksum-crc32") == want, (one[0]["headers"], want)
PY

# ---- 4. a part that keeps failing -------------------------------------------------------
echo "part 2 500" >"$S3_PROXY_FAULTS"
set +e
"$AWS_CALL" s3-put-file "$BUCKET" failed.bin big.bin $((5 * MIB)) >put4.out 2>put4.err
rc=$?
set -e
: >"$S3_PROXY_FAULTS"
[ "$rc" -eq 1 ] || fail "a failing part: exit $rc" put4.out put4.err
grep -q "UploadPart failed: InternalError" put4.err || fail "no UploadPart error" put4.err
proxy_log smfw4
"$SMFW_PYTHON" - "$work/smfw4.jsonl" <<'PY' || fail "no abort after the failed part" "$work/smfw4.jsonl"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
tries = [r for r in recs if r["partNumber"] == "2"]
assert len(tries) == 3, "part 2 tried %d times, AWS_MAX_ATTEMPTS=3" % len(tries)
assert not [r for r in recs if r["partNumber"] == "3"], "went on after part 2"
assert recs[-1]["method"] == "DELETE" and recs[-1]["query"] == ["uploadId"], recs[-1]
PY
boto '
assert not s3.list_multipart_uploads(Bucket=sys.argv[1]).get("Uploads"), "upload left behind"
keys = [o["Key"] for o in s3.list_objects_v2(Bucket=sys.argv[1]).get("Contents", [])]
assert "failed.bin" not in keys, keys
' "$BUCKET"

# ---- 4b. interrupted between parts ----------------------------------------------------
echo "slow 2 3" >"$S3_PROXY_FAULTS"
"$AWS_CALL" s3-put-file "$BUCKET" cancelled.bin big.bin $((5 * MIB)) >put4b.out 2>put4b.err &
call_pid=$!
for _ in $(seq 200); do grep -q '"partNumber": "2"' "$work/proxy.log" 2>/dev/null && break; sleep 0.05; done
grep -q '"partNumber": "2"' "$work/proxy.log" || fail "part 2 never reached the proxy" put4b.err
kill -INT "$call_pid"
set +e
wait "$call_pid"
rc=$?
set -e
: >"$S3_PROXY_FAULTS"
[ "$rc" -eq 1 ] || fail "interrupted upload: exit $rc" put4b.out put4b.err
grep -q "was interrupted after 2 of 3 parts" put4b.err || fail "no interruption message" put4b.err
proxy_log smfw4b
"$SMFW_PYTHON" - "$work/smfw4b.jsonl" <<'PY' || fail "no abort after the interruption" "$work/smfw4b.jsonl"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert not [r for r in recs if r["partNumber"] == "3"], "part 3 sent after the interruption"
assert recs[-1]["method"] == "DELETE" and recs[-1]["query"] == ["uploadId"], recs[-1]
PY
boto '
assert not s3.list_multipart_uploads(Bucket=sys.argv[1]).get("Uploads"), "upload left behind"
' "$BUCKET"

# ---- 5. CompleteMultipartUpload: 200 with an <Error> ---------------------------------
echo "complete200 1" >"$S3_PROXY_FAULTS"
"$AWS_CALL" s3-put-file "$BUCKET" retried.bin big.bin $((5 * MIB)) >put5.out 2>put5.err ||
    fail "a 200 <Error> once was not retried" put5.out put5.err
check_object retried.bin big.bin 3
echo "complete200 all" >"$S3_PROXY_FAULTS"
set +e
"$AWS_CALL" s3-put-file "$BUCKET" never.bin big.bin $((5 * MIB)) >put6.out 2>put6.err
rc=$?
set -e
: >"$S3_PROXY_FAULTS"
[ "$rc" -eq 1 ] || fail "200 <Error> every time: exit $rc" put6.err
grep -q "CompleteMultipartUpload failed: InternalError" put6.err || fail "no Complete error" put6.err
proxy_log smfw5
boto '
assert not s3.list_multipart_uploads(Bucket=sys.argv[1]).get("Uploads"), "upload left behind"
' "$BUCKET"
grep -c '"DELETE"' "$work/smfw5.jsonl" | grep -qx 1 || fail "no single abort" "$work/smfw5.jsonl"

# ---- 6. listing with encoding-type=url ------------------------------------------------
boto '
keys = ["odd/ctl\x01\x1fend", "odd/plus+and space", "odd/100%25 %", "odd/ünï😀", "odd/a&b<c>\"d\x27"]
for k in keys:
    s3.put_object(Bucket=sys.argv[1], Key=k, Body=k.encode())
json.dump(sorted(keys), open("keys.json", "w"))
' "$BUCKET"
"$AWS_CALL" list "$BUCKET" odd/ >list.out 2>list.err || fail "list" list.err
"$SMFW_PYTHON" - <<'PY' || fail "listed keys differ" list.out
import json
want = json.load(open("keys.json"))
got = sorted(l.split("\t")[0] for l in open("list.out", encoding="utf-8").read().split("\n") if l)
assert got == want, (got, want)
PY
grep -q "encoding-type=url" "$work/proxy.log" 2>/dev/null ||
    grep -q '"encoding-type"' "$work/proxy.log" || fail "no encoding-type=url sent" "$work/proxy.log"
proxy_log list6

# ---- 7. the wrong region ----------------------------------------------------------------
echo "region eu-west-1" >"$S3_PROXY_FAULTS"
"$AWS_CALL" s3-put-file "$BUCKET" "eu/chunk.bin" big.bin $((5 * MIB)) >put7.out 2>put7.err ||
    fail "upload to a bucket in eu-west-1" put7.out put7.err
proxy_log smfw7
MOTO_URL="$PROXY_URL" boto '
import boto3.s3.transfer
cfg = boto3.s3.transfer.TransferConfig(multipart_threshold=5 * 1048576,
                                       multipart_chunksize=5 * 1048576, max_concurrency=1)
s3.upload_file("big.bin", sys.argv[1], "eu/chunk.bin", Config=cfg)
' "$BUCKET"
proxy_log boto7
"$SMFW_PYTHON" - "$work/smfw7.jsonl" "$work/boto7.jsonl" <<'PY' || fail "redirects differ from boto3's" "$work/smfw7.jsonl" "$work/boto7.jsonl"
import json, sys
def seq(p):
    return [(r["method"], r["query"], r["partNumber"], r["region"], r["injected"])
            for r in map(json.loads, open(p))]
s, b = seq(sys.argv[1]), seq(sys.argv[2])
for x in s: print("smfw ", x)
for x in b: print("boto3", x)
assert s == b, "not the same requests"
assert s[0][3] == "us-east-1" and s[0][4] and all(r[3] == "eu-west-1" and not r[4] for r in s[1:]), s
PY
echo "moved eu-west-1" >"$S3_PROXY_FAULTS"
"$AWS_CALL" head "$BUCKET" "eu/chunk.bin" >head7.out 2>head7.err || fail "HEAD after a 301" head7.err
grep -q "^size $((12 * MIB + 123))$" head7.out || fail "HEAD size" head7.out
"$AWS_CALL" list "$BUCKET" eu/ >list7.out 2>list7.err || fail "list after a 301" list7.err
grep -q "^eu/chunk.bin	" list7.out || fail "list after a 301" list7.out
echo "region ap-south-1" >"$S3_PROXY_FAULTS"
"$AWS_CALL" head "$BUCKET" "eu/chunk.bin" >head8.out 2>head8.err || fail "HEAD after a 400" head8.err
: >"$S3_PROXY_FAULTS"
proxy_log smfw8
"$SMFW_PYTHON" - "$work/smfw8.jsonl" <<'PY' || fail "HEAD/list redirects" "$work/smfw8.jsonl"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
got = [(r["method"], r["region"], r["injected"]) for r in recs]
# Each aws_call is a new client: one redirect each, then the named region.
assert got == [("HEAD", "us-east-1", True), ("HEAD", "eu-west-1", False),
               ("GET", "us-east-1", True), ("GET", "eu-west-1", False),
               ("HEAD", "us-east-1", True), ("HEAD", "ap-south-1", False)], got
PY
echo "PASS: multipart upload (parts, checksums, abort, 200 <Error>), url-encoded listing, wrong-region redirects"
