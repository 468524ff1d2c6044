#!/usr/bin/env bash
# test_moto_s3.sh - smfw's S3 code against moto_server (an AWS emulator nobody
# here wrote), with boto3 as the independent reader and writer:
#  1. Dataset staging by `smfw --backend managed --run --no-wait`, S3/STS/IAM/
#     Auto Scaling at moto and SageMaker at smfw-mock (per-service endpoint
#     variables, as for VPC endpoints): the default bucket is created, the
#     dataset lands once at its content-addressed key (boto3: content, SHA-256
#     in the key); a second run PUTs nothing (moto's request log) and leaves
#     ETag and LastModified as they were.
#  2. `smfw results --s3` of an AIPerf output.tar.gz that boto3 uploaded under a
#     prefix with a space, '+', '=' and UTF-8: the printed numbers are the JSON's.
#  3. Keys with spaces, '+', '=', '%', '~' and UTF-8: what smfw writes boto3 reads
#     back byte for byte and vice versa; the same against smfw-mock.
#  4. ListObjectsV2 past 1,000 keys: every key once, over two pages (moto's log),
#     and the same listing from smfw-mock.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
t_start=$(date +%s%N)
lap() { echo "  [$1 at $((($(date +%s%N) - t_start) / 1000000)) ms]"; }
start_moto
start_mock --endpoint bench-ep

# ---- 1. dataset staging -----------------------------------------------------------
boto '
iam.create_role(RoleName="SmfwBenchRole", AssumeRolePolicyDocument=json.dumps({
    "Version": "2012-10-17", "Statement": [{"Effect": "Allow",
    "Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}))
'
"$SMFW_PYTHON" - <<'PY'
import json
with open("prompts.jsonl", "w") as f:
    for i in range(10):
        f.write(json.dumps({"text": f"moto prompt {i} " + "word " * (i + 2), "output_length": 30 + i}) + "\n")
PY
ROLE="arn:aws:iam::$ACCOUNT:role/SmfwBenchRole"
BUCKET="sagemaker-us-east-1-$ACCOUNT" # the default bucket, created by smfw
stage() { # stage OUT : one managed launch (not waited for), SageMaker at smfw-mock
    set +e
    AWS_ENDPOINT_URL_S3="$MOTO_URL" AWS_ENDPOINT_URL_STS="$MOTO_URL" AWS_ENDPOINT_URL_IAM="$MOTO_URL" \
        AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING="$MOTO_URL" AWS_ENDPOINT_URL_SAGEMAKER="$MOCK_URL" \
        AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET" \
        "$SMFW" --backend managed --run --no-wait --endpoint bench-ep --role-arn "$ROLE" \
        --dataset custom --dataset-file prompts.jsonl --request-count 10 --concurrency 2 \
        -o "$1" >"$1.out" 2>"$1.err"
    rc=$?
    set -e
    [ "$rc" -eq 0 ] || fail "managed launch $1: exit $rc" "$1.out" "$1.err"
    grep -q "launched benchmark job" "$1.err" || fail "$1: no job launched" "$1.err"
}
stage run1
grep -q "creating the default bucket $BUCKET" run1.err || fail "default bucket not created" run1.err
grep -q "uploading prompts.jsonl" run1.err || fail "dataset not uploaded" run1.err
key=$(sed -n "s|.*uploading prompts.jsonl ([0-9]* bytes) to s3://$BUCKET/||p" run1.err)
[ -n "$key" ] || fail "no staged key in the log" run1.err
puts1=$(moto_requests PUT "/$BUCKET/smfw/datasets/[^ ]*")
[ "$puts1" -eq 1 ] || fail "run 1 PUT the dataset $puts1 times" "$work/moto.log"
boto '
bucket, key, local = sys.argv[1:4]
objs = s3.list_objects_v2(Bucket=bucket, Prefix="smfw/datasets/")["Contents"]
assert [o["Key"] for o in objs] == [key], objs
body = s3.get_object(Bucket=bucket, Key=key)["Body"].read()
assert body == open(local, "rb").read(), "staged bytes differ from the run folder copy"
sha = hashlib.sha256(body).hexdigest()
assert key == f"smfw/datasets/{sha}/prompts.jsonl", (key, sha)
assert body.count(b"\n") == 10
h = s3.head_object(Bucket=bucket, Key=key)
json.dump({"etag": h["ETag"], "modified": h["LastModified"].isoformat()}, open("head1.json", "w"))
' "$BUCKET" "$key" run1/prompts.jsonl
sleep 1 # LastModified has second resolution: a re-upload would show
stage run2
grep -q "dataset already staged at s3://$BUCKET/$key" run2.err || fail "restaged" run2.err
grep -q "creating the default bucket" run2.err && fail "bucket created twice" run2.err
puts2=$(moto_requests PUT "/$BUCKET/smfw/datasets/[^ ]*")
[ "$puts2" -eq 1 ] || fail "run 2 PUT the dataset again ($puts2 PUTs)" "$work/moto.log"
boto '
bucket, key = sys.argv[1:3]
h = s3.head_object(Bucket=bucket, Key=key)
before = json.load(open("head1.json"))
assert h["ETag"] == before["etag"] and h["LastModified"].isoformat() == before["modified"], (h, before)
assert s3.list_objects_v2(Bucket=bucket, Prefix="smfw/datasets/")["KeyCount"] == 1
' "$BUCKET" "$key"
lap section
echo "staging: one PUT of $key over two runs"

# ---- 2. smfw results --s3 of a bundle boto3 uploaded --------------------------------
FIX="$SMFW_TESTDATA_DIR/aiperf/v0.10.0-qwen3.6-agent-c16"
boto '
import io, tarfile
fix = sys.argv[1]
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz") as t:   # the managed layout: output/...
    for name in ("profile_export_aiperf.json", "profile_export_aiperf.csv"):
        t.add(os.path.join(fix, name), arcname="output/" + name)
s3.create_bucket(Bucket="smfw-moto-results")
s3.put_object(Bucket="smfw-moto-results", Key="runs/job one+two=3 ü/output/output.tar.gz", Body=buf.getvalue())
s3.put_object(Bucket="smfw-moto-results", Key="runs/job one+two=3 ü/output/other.txt", Body=b"x")
open("output.tar.gz", "wb").write(buf.getvalue())
' "$FIX"
AWS_ENDPOINT_URL_S3="$MOTO_URL" "$SMFW" results --s3 "s3://smfw-moto-results/runs/job one+two=3 ü/" \
    -o fetched >results.out 2>results.err || fail "smfw results --s3" results.out results.err
# The same bundle from smfw-mock's S3: the same report.
MOTO_URL=$MOCK_URL BOTO_KEY=$MOCK_KEY BOTO_SECRET=$MOCK_SECRET boto '
s3.create_bucket(Bucket="smfw-moto-results")
s3.put_object(Bucket="smfw-moto-results", Key="runs/job one+two=3 ü/output/output.tar.gz",
              Body=open("output.tar.gz", "rb").read())
'
AWS_ENDPOINT_URL_S3="$MOCK_URL" AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET" \
    "$SMFW" results --s3 "s3://smfw-moto-results/runs/job one+two=3 ü/" -o fetched-mock \
    >results-mock.out 2>results-mock.err || fail "smfw results --s3 (smfw-mock)" results-mock.out results-mock.err
diff <(sed 's/fetched-mock/fetched/g' results-mock.out) results.out ||
    fail "results --s3: moto and smfw-mock bundles reported differently" results.out results-mock.out
"$SMFW_PYTHON" - "$FIX/profile_export_aiperf.json" results.out <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read()
def line(label):
    return next(l for l in out.splitlines() if l.strip().startswith(label))
def values(label):  # "  <Header> (<unit>)   avg [p50 p90 p99]"
    return [float(v) for v in re.findall(r"-?[0-9]+\.[0-9]+", line(label).split(")", 1)[1])]
got = values("Output Token Throughput (")
assert len(got) == 1 and abs(got[0] - m["output_token_throughput"]["avg"]) <= 0.005, (got, m["output_token_throughput"])
ttft = values("Time to First Token (")
assert len(ttft) == 4, line("Time to First Token (")
for stat, v in zip(("avg", "p50", "p90", "p99"), ttft):
    assert abs(v - m["time_to_first_token"][stat]) <= 0.005, (stat, v, m["time_to_first_token"])
print("results --s3: numbers equal to the bundle JSON")
PY
lap section
cmp fetched/bundle/output/profile_export_aiperf.json "$FIX/profile_export_aiperf.json"

# ---- 3. keys with spaces, '+', '=', '%', '~' and UTF-8 ------------------------------
KEYS=("a b/c+d=e.txt" "100% ~tilde/x&y;z,w@!'(1)*" "ünï/cødé 日本語.json" "plus+only" "sp ace")
printf 'payload %s\n' 1 2 3 >payload.txt
keys_check() { # keys_check URL KEY_ID SECRET : smfw writes, boto3 reads; boto3 writes, smfw reads
    local url=$1 id=$2 secret=$3 k
    export AWS_ENDPOINT_URL_S3="$url" AWS_ACCESS_KEY_ID="$id" AWS_SECRET_ACCESS_KEY="$secret"
    MOTO_URL=$url BOTO_KEY=$id BOTO_SECRET=$secret boto 's3.create_bucket(Bucket="smfw-keys")'
    for k in "${KEYS[@]}"; do
        "$AWS_CALL" put smfw-keys "smfw/$k" payload.txt || fail "put $k at $url"
    done
    "$SMFW_PYTHON" - "$url" "$id" "$secret" "${KEYS[@]}" <<'PY'
import sys, boto3, botocore.config
url, kid, secret, *keys = sys.argv[1:]
s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id=kid,
                  aws_secret_access_key=secret,
                  config=botocore.config.Config(s3={"addressing_style": "path"}))
listed = [o["Key"] for o in s3.list_objects_v2(Bucket="smfw-keys", Prefix="smfw/")["Contents"]]
assert sorted(listed) == sorted("smfw/" + k for k in keys), listed
for k in keys:
    assert s3.get_object(Bucket="smfw-keys", Key="smfw/" + k)["Body"].read() == open("payload.txt", "rb").read(), k
    s3.put_object(Bucket="smfw-keys", Key="boto/" + k, Body=("boto " + k).encode())
PY
    "$AWS_CALL" list smfw-keys boto/ >"keys.list" || fail "list at $url"
    "$SMFW_PYTHON" - keys.list "${KEYS[@]}" <<'PY'
import sys
got = sorted(l.split("\t")[0] for l in open(sys.argv[1], encoding="utf-8").read().splitlines())
assert got == sorted("boto/" + k for k in sys.argv[2:]), got
PY
    for k in "${KEYS[@]}"; do
        rm -f got.txt # downloads never replace a file
        "$AWS_CALL" get smfw-keys "boto/$k" got.txt || fail "get $k at $url"
        [ "$(cat got.txt)" = "boto $k" ] || fail "boto/$k read back as $(cat got.txt)"
        "$AWS_CALL" head smfw-keys "boto/$k" | grep -qx "size $(wc -c <got.txt)" ||
            fail "HeadObject size of boto/$k at $url"
    done
    unset AWS_ENDPOINT_URL_S3
    export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing
}
keys_check "$MOTO_URL" testing testing
keys_check "$MOCK_URL" "$MOCK_KEY" "$MOCK_SECRET"
lap section
echo "keys: ${#KEYS[@]} awkward keys round-trip with moto and smfw-mock"
# Where smfw-mock once differed from moto and moto matched S3 (docs/mock.md, "Differences
# from moto"): the same answers from both now.
"$SMFW_PYTHON" - "$MOTO_URL" "$MOCK_URL" "$MOCK_KEY" "$MOCK_SECRET" "$MOCK" <<'PY'
import subprocess, sys, boto3, botocore.config
moto, mock, kid, secret, mock_bin = sys.argv[1:]
def client(url, k, s):
    return boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id=k,
                        aws_secret_access_key=s, config=botocore.config.Config(s3={"addressing_style": "path"}))
def answers(s3):
    s3.put_object(Bucket="smfw-keys", Key="untyped", Body=b"x")          # no Content-Type
    untyped = s3.head_object(Bucket="smfw-keys", Key="untyped")["ContentType"]
    zero = s3.list_objects_v2(Bucket="smfw-keys", MaxKeys=0)
    # EncodingType given explicitly: botocore leaves the names as sent.
    enc = s3.list_objects_v2(Bucket="smfw-keys", Prefix="smfw/", Delimiter=" ", EncodingType="url")
    return (untyped, zero["IsTruncated"], zero["KeyCount"], "NextContinuationToken" in zero,
            sorted(p["Prefix"] for p in enc.get("CommonPrefixes", [])),
            sorted(o["Key"] for o in enc.get("Contents", [])))
def buckets(url, k, s, region):
    """CreateBucket's LocationConstraint rules at REGION's endpoint (smfw-mock is one
    region's endpoint: it redirects other signing regions, as S3 does; moto has none)."""
    got = []
    c = boto3.client("s3", endpoint_url=url, region_name=region, aws_access_key_id=k,
                     aws_secret_access_key=s, config=botocore.config.Config(s3={"addressing_style": "path"}))
    for n, lc in enumerate((None, "us-east-1", "eu-west-1", "ap-south-1")):
        kw = {"CreateBucketConfiguration": {"LocationConstraint": lc}} if lc else {}
        try:
            c.create_bucket(Bucket=f"lc-{region}-{n}", **kw)
            got.append((region, lc, "ok"))
        except botocore.exceptions.ClientError as e:
            got.append((region, lc, e.response["Error"]["Code"]))
    return got
a, b = answers(client(moto, "testing", "testing")), answers(client(mock, kid, secret))
ba, bb = buckets(moto, "testing", "testing", "us-east-1"), buckets(mock, kid, secret, "us-east-1")
assert ba == bb, f"CreateBucket: moto {ba}\nmock {bb}"
eu = subprocess.Popen([mock_bin, "--listen", "127.0.0.1:0", "--region", "eu-west-1"],
                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    eu_url = eu.stdout.readline().split()[-1]
    ea, eb = buckets(moto, "testing", "testing", "eu-west-1"), buckets(eu_url, kid, secret, "eu-west-1")
finally:
    eu.terminate()
    eu.wait(timeout=10)
assert ea == eb, f"CreateBucket in eu-west-1: moto {ea}\nmock {eb}"
assert ("eu-west-1", "us-east-1", "IllegalLocationConstraintException") in ea, ea
assert a == b, f"moto {a}\nmock {b}"
assert a[0] == "binary/octet-stream" and a[1:4] == (False, 0, False), a
assert "smfw/a%20" in a[4] and "smfw/plus%2Bonly" in a[5], a
assert ("us-east-1", "us-east-1", "InvalidLocationConstraint") in ba and ("us-east-1", "eu-west-1", "ok") in ba, ba
print("moto and smfw-mock agree on default Content-Type, max-keys=0, encoding-type=url and LocationConstraint")
PY

# ---- 4. ListObjectsV2 past 1,000 keys -----------------------------------------------
N=1010
pagination_check() { # pagination_check URL KEY_ID SECRET
    "$SMFW_PYTHON" - "$1" "$2" "$3" "$N" <<'PY'
import sys, concurrent.futures, boto3, botocore.config
url, kid, secret, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id=kid,
                  aws_secret_access_key=secret,
                  config=botocore.config.Config(s3={"addressing_style": "path"}, max_pool_connections=8))
s3.create_bucket(Bucket="smfw-many")
with concurrent.futures.ThreadPoolExecutor(8) as ex:
    list(ex.map(lambda i: s3.put_object(Bucket="smfw-many", Key=f"p/k{i:05d}", Body=b""), range(n)))
s3.put_object(Bucket="smfw-many", Key="q/outside", Body=b"")
PY
    AWS_ENDPOINT_URL_S3="$1" AWS_ACCESS_KEY_ID="$2" AWS_SECRET_ACCESS_KEY="$3" \
        "$AWS_CALL" list smfw-many p/ >many.list || fail "list smfw-many at $1"
    "$SMFW_PYTHON" - many.list "$N" <<'PY'
import sys
keys = [l.split("\t")[0] for l in open(sys.argv[1]).read().splitlines()]
n = int(sys.argv[2])
assert keys == [f"p/k{i:05d}" for i in range(n)], (len(keys), keys[:3], keys[-3:])
PY
}
pagination_check "$MOTO_URL" testing testing
pages=$(moto_requests GET '/smfw-many\?list-type=2[^ ]*')
[ "$pages" -eq 2 ] || fail "ListObjectsV2 of $N keys took $pages pages at moto, want 2" "$work/moto.log"
grep -qE '"GET /smfw-many\?list-type=2&encoding-type=url&continuation-token=[^ &]+&prefix=p(%2F|/) HTTP' "$work/moto.log" ||
    fail "second page not asked with the continuation token" "$work/moto.log"
pagination_check "$MOCK_URL" "$MOCK_KEY" "$MOCK_SECRET"
lap section
echo "pagination: $N keys over $pages pages (moto), same listing from smfw-mock"
echo "test_moto_s3 OK against moto $MOTO_VERSION in $((($(date +%s%N) - t_start) / 1000000)) ms"
