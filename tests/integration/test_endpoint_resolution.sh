#!/usr/bin/env bash
# test_endpoint_resolution.sh - smfw's endpoint resolution equals botocore's.
# Every service smfw calls, in eight regions of five partitions, each plain,
# FIPS, dual-stack and both, with the setting in the environment, in the
# profile, and in both (the environment must win); plus an endpoint override
# (with FIPS and dual-stack asked for, which an override turns off), and STS
# and S3 with AWS_STS_REGIONAL_ENDPOINTS=legacy and
# AWS_S3_US_EAST_1_REGIONAL_ENDPOINT=regional. botocore 1.43.11 resolves the
# same cases with its own resolver over the same data files
# (AWS_DATA_PATH=data/aws); URL, signing region and signing name must be
# equal, and where botocore refuses (raises), smfw must refuse with the rule
# set's message. No request is sent.
# Then the interpreter itself against botocore's EndpointProvider over many
# more parameter sets: every region of partitions.json and odd ones, S3
# buckets of each kind (virtual-hostable, dotted, ARNs of access points,
# Multi-Region Access Points, Outposts, Object Lambda, S3 Express) with
# FIPS, dual-stack, Accelerate, path style and custom endpoints; URL and the
# whole resolved properties (authSchemes) must be equal.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
here=$(cd "$(dirname "$0")" && pwd)
TOOL="$SMFW_BUILD_DIR/tests/integration/endpoint_resolve"
[ -x "$TOOL" ] || { echo "endpoint_resolve not built" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-endpoints.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work" AWS_SHARED_CREDENTIALS_FILE=/dev/null TMPDIR="$work"
unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_REGION AWS_DEFAULT_REGION AWS_ENDPOINT_URL \
    AWS_USE_FIPS_ENDPOINT AWS_USE_DUALSTACK_ENDPOINT AWS_STS_REGIONAL_ENDPOINTS \
    AWS_S3_US_EAST_1_REGIONAL_ENDPOINT AWS_IGNORE_CONFIGURED_ENDPOINT_URLS SMFW_DATA_DIR
for v in $(env | sed -n 's/^\(AWS_ENDPOINT_URL_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

services="sagemaker sagemaker-runtime s3 sts iam cloudwatch application-autoscaling sso sso-oidc batch"
regions="us-east-1 us-west-2 eu-central-1 ap-southeast-3 cn-north-1 cn-northwest-1 us-gov-west-1 us-iso-east-1"
: >"$work/cases"
for s in $services; do
    for r in $regions; do
        for f in 0 1; do for d in 0 1; do echo "$s $r $f $d" >>"$work/cases"; done; done
    done
    for r in us-east-1 cn-north-1 us-gov-west-1 us-iso-east-1; do
        echo "$s $r 1 1 http://127.0.0.1:4566" >>"$work/cases"
    done
done

# The legacy global STS and S3 us-east-1 settings, read by both.
for s in sts s3; do
    for r in us-east-1 eu-west-1 ap-southeast-3 cn-north-1; do
        for f in 0 1; do for d in 0 1; do echo "$s $r $f $d" >>"$work/cases.legacy"; done; done
    done
done

export AWS_DATA_PATH="$SMFW_SOURCE_DIR/data/aws"
AWS_CONFIG_FILE=/dev/null "$SMFW_PYTHON" "$here/botocore_endpoints.py" "$work/cases" >"$work/botocore"
for via in env profile both; do
    "$TOOL" --via "$via" <"$work/cases" >"$work/smfw.$via"
done
legacy=(env AWS_STS_REGIONAL_ENDPOINTS=legacy AWS_S3_US_EAST_1_REGIONAL_ENDPOINT=regional)
"${legacy[@]}" AWS_CONFIG_FILE=/dev/null "$SMFW_PYTHON" "$here/botocore_endpoints.py" "$work/cases.legacy" \
    >"$work/botocore.legacy"
"${legacy[@]}" "$TOOL" <"$work/cases.legacy" >"$work/smfw.legacy"
sed 's/^/legacy /' "$work/botocore.legacy" >>"$work/botocore"
for via in env profile both; do sed 's/^/legacy /' "$work/smfw.legacy" >>"$work/smfw.$via"; done

"$SMFW_PYTHON" - "$work/botocore" "$work"/smfw.env "$work"/smfw.profile "$work"/smfw.both <<'PY'
import sys

def answers(path):
    out = {}
    for line in open(path):
        key, _, value = line.rstrip("\n").partition(" = ")
        out[key] = value
    return out

truth = answers(sys.argv[1])
passed = failed = refused = 0
for path in sys.argv[2:]:
    mine = answers(path)
    via = path.rsplit(".", 1)[1]
    for key, want in truth.items():
        got = mine.get(key)
        if want.startswith("error: "):
            ok = got is not None and got.startswith("error: ") and got.endswith(want[7:])
            refused += ok
        else:
            # An override may end in '/' on either side (botocore keeps it, smfw drops it).
            w, g = want.split(" "), (got or "").split(" ")
            ok = len(g) == 3 and [w[0].rstrip("/")] + w[1:] == [g[0].rstrip("/")] + g[1:]
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"MISMATCH ({via}) {key}\n  botocore: {want}\n  smfw:     {got}")
print(f"endpoints: {passed} passed, {failed} failed ({refused} refused by both)")
sys.exit(1 if failed or passed == 0 else 0)
PY

# ---- the interpreter against botocore's EndpointProvider ----
"$SMFW_PYTHON" - "$SMFW_SOURCE_DIR/data/aws" "$work" <<'PY'
import itertools, json, os, sys
data, work = sys.argv[1], sys.argv[2]
regions = [r for p in json.load(open(os.path.join(data, "partitions.json")))["partitions"]
           for r in p["regions"]]
regions += ["mars-west-1", "us-gov-east-9", "eusc-de-east-1", "us-isob-west-9", "local",
            "UPPER", "us-east-1.evil.com"]
endpoints = [None, "https://example.com:8443/base/", "http://127.0.0.1:9000", "ftp://x"]
for svc in os.listdir(data):
    if not os.path.isdir(os.path.join(data, svc)):
        continue
    with open(os.path.join(work, "rules." + svc), "w") as f:
        if svc != "s3":
            for r, fips, ds, ep, glob in itertools.product(
                    regions, (False, True), (False, True), endpoints, (False, True)):
                if glob and svc != "sts":
                    continue
                p = {"Region": r, "UseFIPS": fips, "UseDualStack": ds}
                if ep:
                    p["Endpoint"] = ep
                if svc == "sts":
                    p["UseGlobalEndpoint"] = glob
                f.write(json.dumps(p) + "\n")
            continue
        buckets = [None, "smfw-bucket", "my.dotted.bucket", "UpperCase", "192.168.0.1", "ab",
                   "a" * 64, "bucket_underscore", "mybucket--usw2-az1--x-s3",
                   "arn:aws:s3:us-west-2:123456789012:accesspoint:myap",
                   "arn:aws:s3:us-east-1:123456789012:accesspoint/myap",
                   "arn:aws:s3::123456789012:accesspoint:mfzwi23gnjvgw.mrap",
                   "arn:aws:s3-outposts:us-west-2:123456789012:outpost:op-01234567890123456:"
                   "accesspoint:myaccesspoint",
                   "arn:aws:s3-object-lambda:us-west-2:123456789012:accesspoint/mybanner",
                   "arn:aws-cn:s3:cn-north-1:123456789012:accesspoint:myap",
                   "arn:aws:sqs:us-west-2:123456789012:someresource", "arn:aws:s3:::bad"]
        for r, b, fips, ds, acc, path, ep, arnreg in itertools.product(
                ["us-east-1", "us-west-2", "cn-north-1", "us-gov-west-1", "us-iso-east-1",
                 "aws-global"], buckets, (False, True), (False, True), (False, True),
                (False, True), endpoints[:3], (False, True)):
            p = {"Region": r, "UseFIPS": fips, "UseDualStack": ds, "Accelerate": acc,
                 "ForcePathStyle": path, "UseArnRegion": arnreg,
                 "UseGlobalEndpoint": r == "us-east-1"}
            if b is not None:
                p["Bucket"] = b
            if ep:
                p["Endpoint"] = ep
            f.write(json.dumps(p) + "\n")
PY
for f in "$work"/rules.*; do
    svc=${f##*/rules.}
    "$TOOL" --rules "$svc" <"$f" >"$work/smfw-rules.$svc"
done
"$SMFW_PYTHON" - "$SMFW_SOURCE_DIR/data/aws" "$work" <<'PY'
import glob, json, os, sys
from botocore.endpoint_provider import EndpointProvider
data, work = sys.argv[1], sys.argv[2]
partitions = json.load(open(os.path.join(data, "partitions.json")))
passed = failed = refused = 0
for path in sorted(glob.glob(os.path.join(work, "rules.*"))):
    svc = path.rsplit(".", 1)[1]
    [version] = os.listdir(os.path.join(data, svc))
    rules = json.load(open(os.path.join(data, svc, version, "endpoint-rule-set-1.json")))
    provider = EndpointProvider(rules, partitions)
    mine = open(os.path.join(work, "smfw-rules." + svc)).read().splitlines()
    cases = open(path).read().splitlines()
    assert len(mine) == len(cases), (svc, len(mine), len(cases))
    for case, got in zip(cases, mine):
        got = json.loads(got)
        try:
            ep = provider.resolve_endpoint(**json.loads(case))
            want = {"url": ep.url, "properties": ep.properties}
        except Exception as e:
            want = {"error": str(e)}
        if "error" in want:
            # botocore's "no endpoint" message lists the parameters; smfw says it shorter.
            ok = "error" in got and (got["error"] == want["error"] or
                                     want["error"].startswith("No endpoint found"))
            refused += ok
        else:
            ok = got == want
        if ok:
            passed += 1
        else:
            failed += 1
            if failed <= 20:
                print(f"MISMATCH {svc} {case}\n  botocore: {want}\n  smfw:     {got}")
print(f"endpoint rules: {passed} passed, {failed} failed ({refused} refused by both)")
sys.exit(1 if failed or passed == 0 else 0)
PY
