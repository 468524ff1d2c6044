#!/usr/bin/env bash
# test_mock_s3_multipart.sh - smfw-mock's S3 multipart uploads, checked with
# boto3/botocore 1.43 (a client nobody here wrote) and with smfw's own
# uploader (aws_call s3-put-file):
#  1. boto3 upload_file of 12 MiB + 123 B in 5 MiB parts (CRC32 checksums):
#     download_file gives the same bytes, the ETag is "-3" and equals S3's
#     formula (MD5 of the parts' binary MD5s) computed here; ListParts saw the
#     parts before completion; no upload is left open.
#  2. AbortMultipartUpload: 204, list_multipart_uploads empty, the id then
#     answers NoSuchUpload (404) to UploadPart and to a second abort.
#  3. CompleteMultipartUpload refusals: a 1 MiB first part (EntityTooSmall),
#     a wrong ETag (InvalidPart), a wrong ChecksumCRC32 (InvalidPart), parts
#     out of order (InvalidPartOrder); a part with a wrong x-amz-checksum-crc32
#     is BadDigest.
#  4. smfw_aws_s3_upload_file through aws_call: the same ETag as boto3's, and
#     boto3 reads the same bytes back; uploads survive a mock restart.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_PYTHON:?}"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
AWS_CALL="$SMFW_BUILD_DIR/tests/integration/aws_call"
for b in "$MOCK" "$AWS_CALL"; do [ -x "$b" ] || { echo "FAIL: $b is not built"; exit 1; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-mock-mpu.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $1"; shift; for f in "$@"; do echo "--- $f"; tail -n 40 "$f"; done; exit 1; }

unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_SESSION_TOKEN AWS_SECURITY_TOKEN AWS_ROLE_ARN \
    AWS_WEB_IDENTITY_TOKEN_FILE AWS_DEFAULT_REGION AWS_ENDPOINT_URL AWS_ENDPOINT_URL_S3 || true
export HOME="$work/home" AWS_CONFIG_FILE="$work/home/config" AWS_SHARED_CREDENTIALS_FILE="$work/home/creds"
mkdir -p "$HOME" && : >"$AWS_CONFIG_FILE" && : >"$AWS_SHARED_CREDENTIALS_FILE"
export AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1
export AWS_ACCESS_KEY_ID=AKIDSMFWMOCKEXAMPLE AWS_SECRET_ACCESS_KEY=smfw-mock-secret-key-EXAMPLEKEY

start_mock() {
    : >"$work/mock.out"
    "$MOCK" --listen 127.0.0.1:0 --region us-east-1 --state-dir "$work/state" \
        >"$work/mock.out" 2>"$work/mock.err" &
    pid=$!
    for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
    URL=$(sed -n 's/^listening on //p' "$work/mock.out")
    [ -n "$URL" ] || fail "smfw-mock did not start" "$work/mock.err"
    export AWS_ENDPOINT_URL_S3="$URL"
}
start_mock
cd "$work"
"$SMFW_PYTHON" -c "import os; open('big.bin', 'wb').write(os.urandom(12 * 1048576 + 123))"

py() { "$SMFW_PYTHON" - "$@"; }
PRELUDE='
import base64, hashlib, os, sys, zlib
import boto3, botocore
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL_S3"], region_name="us-east-1",
                  config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
B = "mpu-bucket"
MIB = 1048576
def s3_etag(data, size):
    mds = b"".join(hashlib.md5(data[i:i + size]).digest() for i in range(0, len(data), size))
    return "\"%s-%d\"" % (hashlib.md5(mds).hexdigest(), (len(data) + size - 1) // size)
def code(e):
    return e.response["Error"]["Code"], e.response["ResponseMetadata"]["HTTPStatusCode"]
'

# ---- 1. boto3 upload_file / download_file ------------------------------------------------
py >boto1.out 2>&1 <<PY || fail "boto3 multipart round trip" boto1.out "$work/mock.err"
$PRELUDE
s3.create_bucket(Bucket=B)
data = open("big.bin", "rb").read()
# ListParts while the upload is open (the same calls upload_file makes).
up = s3.create_multipart_upload(Bucket=B, Key="peek", ChecksumAlgorithm="CRC32")
assert up["ChecksumAlgorithm"] == "CRC32", up
uid = up["UploadId"]
r = s3.upload_part(Bucket=B, Key="peek", UploadId=uid, PartNumber=1, Body=data[:5 * MIB],
                   ChecksumAlgorithm="CRC32")
want_crc = base64.b64encode(zlib.crc32(data[:5 * MIB]).to_bytes(4, "big")).decode()
assert r["ETag"] == "\"%s\"" % hashlib.md5(data[:5 * MIB]).hexdigest(), r
assert r["ChecksumCRC32"] == want_crc, (r, want_crc)
parts = s3.list_parts(Bucket=B, Key="peek", UploadId=uid)["Parts"]
assert [(p["PartNumber"], p["Size"], p["ETag"], p["ChecksumCRC32"]) for p in parts] == \
    [(1, 5 * MIB, r["ETag"], want_crc)], parts
ups = s3.list_multipart_uploads(Bucket=B)["Uploads"]
assert [(u["Key"], u["UploadId"]) for u in ups] == [("peek", uid)], ups
s3.abort_multipart_upload(Bucket=B, Key="peek", UploadId=uid)

cfg = TransferConfig(multipart_threshold=5 * MIB, multipart_chunksize=5 * MIB, max_concurrency=1)
s3.upload_file("big.bin", B, "runs/big 1.bin", Config=cfg)
s3.download_file(B, "runs/big 1.bin", "back.bin", Config=cfg)
assert open("back.bin", "rb").read() == data, "downloaded bytes differ"
etag = s3.head_object(Bucket=B, Key="runs/big 1.bin")["ETag"]
assert etag.endswith("-3\""), etag
assert etag == s3_etag(data, 5 * MIB), (etag, s3_etag(data, 5 * MIB))
assert not s3.list_multipart_uploads(Bucket=B).get("Uploads"), "upload left open"
print("boto3 etag", etag)
open("boto_etag", "w").write(etag)
PY

# ---- 2. abort ------------------------------------------------------------------------------
py >abort.out 2>&1 <<PY || fail "abort" abort.out "$work/mock.err"
$PRELUDE
uid = s3.create_multipart_upload(Bucket=B, Key="gone")["UploadId"]
s3.upload_part(Bucket=B, Key="gone", UploadId=uid, PartNumber=1, Body=b"x" * 1000)
r = s3.abort_multipart_upload(Bucket=B, Key="gone", UploadId=uid)
assert r["ResponseMetadata"]["HTTPStatusCode"] == 204, r
assert not s3.list_multipart_uploads(Bucket=B).get("Uploads"), "upload left after abort"
assert not os.listdir("state/s3/.uploads"), os.listdir("state/s3/.uploads")
for call in (lambda: s3.upload_part(Bucket=B, Key="gone", UploadId=uid, PartNumber=2, Body=b"y"),
             lambda: s3.abort_multipart_upload(Bucket=B, Key="gone", UploadId=uid)):
    try:
        call()
        raise SystemExit("a finished upload id was accepted")
    except botocore.exceptions.ClientError as e:
        assert code(e) == ("NoSuchUpload", 404), e.response
keys = [o["Key"] for o in s3.list_objects_v2(Bucket=B).get("Contents", [])]
assert "gone" not in keys, keys
PY

# ---- 3. refusals ----------------------------------------------------------------------------
py >refuse.out 2>&1 <<PY || fail "CompleteMultipartUpload refusals" refuse.out "$work/mock.err"
$PRELUDE
def parts_of(key, sizes):
    uid = s3.create_multipart_upload(Bucket=B, Key=key, ChecksumAlgorithm="CRC32")["UploadId"]
    out = []
    for n, size in enumerate(sizes, 1):
        r = s3.upload_part(Bucket=B, Key=key, UploadId=uid, PartNumber=n, Body=os.urandom(size),
                           ChecksumAlgorithm="CRC32")
        out.append({"PartNumber": n, "ETag": r["ETag"], "ChecksumCRC32": r["ChecksumCRC32"]})
    return uid, out
def refused(key, uid, parts, want):
    try:
        s3.complete_multipart_upload(Bucket=B, Key=key, UploadId=uid, MultipartUpload={"Parts": parts})
        raise SystemExit("completed: %s" % want)
    except botocore.exceptions.ClientError as e:
        assert code(e) == (want, 400), (want, e.response)
uid, parts = parts_of("small", [MIB, MIB])
refused("small", uid, parts, "EntityTooSmall")
uid, parts = parts_of("bad", [5 * MIB, 10])
refused("bad", uid, [parts[0], dict(parts[1], ETag="\"%s\"" % ("0" * 32))], "InvalidPart")
refused("bad", uid, [parts[0], dict(parts[1], ChecksumCRC32="AAAAAA==")], "InvalidPart")
refused("bad", uid, [parts[0], dict(parts[1], PartNumber=7)], "InvalidPart")
refused("bad", uid, [parts[1], parts[0]], "InvalidPartOrder")
try:
    s3.upload_part(Bucket=B, Key="bad", UploadId=uid, PartNumber=3, Body=b"abc", ChecksumCRC32="AAAAAA==")
    raise SystemExit("a part with a wrong CRC32 was stored")
except botocore.exceptions.ClientError as e:
    assert code(e) == ("BadDigest", 400), e.response
# Refusals leave the upload open and whole: it still completes.
r = s3.complete_multipart_upload(Bucket=B, Key="bad", UploadId=uid, MultipartUpload={"Parts": parts})
assert r["ETag"].endswith("-2\""), r
assert s3.head_object(Bucket=B, Key="bad")["ContentLength"] == 5 * MIB + 10
for u in s3.list_multipart_uploads(Bucket=B).get("Uploads", []):
    s3.abort_multipart_upload(Bucket=B, Key=u["Key"], UploadId=u["UploadId"])
assert not s3.list_multipart_uploads(Bucket=B).get("Uploads")
PY

# ---- 4. smfw's uploader, and a restart ---------------------------------------------------------
"$AWS_CALL" s3-put-file mpu-bucket "runs/smfw.bin" big.bin $((5 * 1048576)) >smfw.out 2>smfw.err ||
    fail "aws_call s3-put-file" smfw.out smfw.err "$work/mock.err"
grep -qx "size $((12 * 1048576 + 123))" smfw.out || fail "smfw size" smfw.out
grep -qx "etag $(cat boto_etag)" smfw.out || fail "smfw's ETag differs from boto3's" smfw.out boto_etag
"$AWS_CALL" s3-put-file mpu-bucket "runs/default.bin" big.bin >smfw2.out 2>smfw2.err ||
    fail "aws_call s3-put-file (default parts)" smfw2.err "$work/mock.err"
grep -qE '^etag "[0-9a-f]{32}-2"$' smfw2.out || fail "12 MiB is not 2 default parts" smfw2.out
py >smfw_read.out 2>&1 <<PY || fail "boto3 reading smfw's upload" smfw_read.out
$PRELUDE
data = open("big.bin", "rb").read()
for key, size in (("runs/smfw.bin", 5 * MIB), ("runs/default.bin", 8 * MIB)):
    got = s3.get_object(Bucket=B, Key=key)
    assert got["Body"].read() == data, key
    assert got["ETag"] == s3_etag(data, size), (key, got["ETag"])
assert not s3.list_multipart_uploads(Bucket=B).get("Uploads"), "smfw left an upload open"
uid = s3.create_multipart_upload(Bucket=B, Key="kept")["UploadId"]
s3.upload_part(Bucket=B, Key="kept", UploadId=uid, PartNumber=1, Body=b"last part")
open("kept_id", "w").write(uid)
PY
kill "$pid" && wait "$pid" 2>/dev/null || true
pid=
start_mock
py >restart.out 2>&1 <<PY || fail "an upload across a restart" restart.out "$work/mock.err"
$PRELUDE
uid = open("kept_id").read()
ups = s3.list_multipart_uploads(Bucket=B)["Uploads"]
assert [(u["Key"], u["UploadId"]) for u in ups] == [("kept", uid)], ups
p = s3.list_parts(Bucket=B, Key="kept", UploadId=uid)["Parts"]
r = s3.complete_multipart_upload(Bucket=B, Key="kept", UploadId=uid,
    MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": p[0]["ETag"]}]})
assert s3.get_object(Bucket=B, Key="kept")["Body"].read() == b"last part"
assert r["ETag"] == s3_etag(b"last part", 5 * MIB), r
PY
echo "PASS: smfw-mock S3 multipart: boto3 and smfw uploads, ETag formula, abort, refusals, restart"
