#!/usr/bin/env bash
# test_managed_mock.sh - `smfw --backend managed` against smfw-mock.
#
# The SageMaker control plane, S3 and STS are smfw-mock's; IAM GetRole and
# Application Auto Scaling DescribeScalableTargets (not in the mock yet)
# come from a small fake responder here (Python's http.server on
# 127.0.0.1), reached through AWS_ENDPOINT_URL_IAM and
# AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING. Checks: the dry run needs no
# credentials and prints the exact request bodies; an unknown WorkloadSpec
# parameter is refused before any call; pre-flight failures are one
# sentence (missing endpoint, missing bucket, region not offered); `--run`
# stages the dataset content-addressed (a second run skips the upload),
# creates the workload config and the job with its own output prefix, polls
# it to the end and, when the job fails without a bundle, exits 2 quoting
# the FailureReason; the public feed uploads nothing; an inference
# component target reaches the job request.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
[ -x "$MOCK" ] || { echo "SKIP: smfw-mock not built"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-managed.XXXXXX")
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"
export HOME="$work" AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1
unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_ENDPOINT_URL SAGEMAKER_ROLE_ARN SAGEMAKER_BUCKET || true

# 1. Dry run without credentials: the plan, exact bodies, what could not be resolved; exit 0.
env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY "$SMFW" --backend managed --endpoint my-ep \
    --inference-component my-ic --concurrency 1,2,4 --bucket b1 >dry.txt
grep -q "dry run: nothing was created" dry.txt
grep -q '"InferenceComponents"' dry.txt
grep -q '"Identifier": "my-ic"' dry.txt
grep -q 'Not resolved without AWS access: account' dry.txt
grep -q '"S3OutputLocation": "s3://b1/benchmark-output/smfw-my-ep-' dry.txt
/usr/bin/python3 - dry.txt <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
body = text.split("SageMaker.CreateAIWorkloadConfig\n", 1)[1].split("\n\n", 1)[0]
req = json.loads(body)
spec = json.loads(req["AIWorkloadConfigs"]["WorkloadSpec"]["Inline"])
p = spec["parameters"]
assert spec["benchmark"] == {"type": "aiperf"}, spec
want = {"prompt_input_tokens_mean": 500, "prompt_input_tokens_stddev": 10, "output_tokens_mean": 256,
        "output_tokens_stddev": 16, "concurrency": [1, 2, 4], "request_count": 300,
        "custom_dataset_type": "single_turn", "input_file": "/opt/ml/input/data/datasets/curated.jsonl"}
for k, v in want.items():
    assert p.get(k) == v, (k, p.get(k))
uri = req["DatasetConfig"]["InputDataConfig"][0]["DataSource"]["S3DataSource"]["S3Uri"]
assert re.fullmatch(r"s3://b1/smfw/datasets/[0-9a-f]{64}/", uri), uri
assert req["DatasetConfig"]["InputDataConfig"][0]["ChannelName"] == "datasets"
print("dry-run bodies ok")
PY

# 2. Unknown WorkloadSpec parameter: refused locally (no AWS at all).
if env -u AWS_ACCESS_KEY_ID "$SMFW" --backend managed --endpoint e --workload-param bogus_knob=3 2>bad.txt; then
    echo "unknown parameter accepted"; exit 1
fi
grep -q 'unknown WorkloadSpec parameter "bogus_knob"' bad.txt

# 3. Public feed dry run: no dataset channel, public_dataset sharegpt.
env -u AWS_ACCESS_KEY_ID "$SMFW" --backend managed --endpoint e --dataset public --bucket b1 >pub.txt
grep -q '\\"public_dataset\\":\\"sharegpt\\"' pub.txt
if grep -q DatasetConfig pub.txt; then echo "public feed has a dataset channel"; exit 1; fi

# The mock and the fake IAM / autoscaling responder.
"$MOCK" --listen 127.0.0.1:0 --job-duration-s 1 --inference-component mock-ic \
    --state-dir "$work/state" >mock.out 2>mock.err &
pids+=($!)
cat >fake.py <<'PY'
import http.server, json, sys
TRUST = "%7B%22Version%22%3A%222012-10-17%22%2C%22Statement%22%3A%5B%7B%22Effect%22%3A%22Allow%22%2C%22Principal%22%3A%7B%22Service%22%3A%22sagemaker.amazonaws.com%22%7D%2C%22Action%22%3A%22sts%3AAssumeRole%22%7D%5D%7D"
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        target = self.headers.get("X-Amz-Target", "")
        if target.endswith("DescribeScalableTargets"):
            out = json.dumps({"ScalableTargets": [{"ServiceNamespace": "sagemaker",
                "ResourceId": "endpoint/mock-endpoint/variant/AllTraffic", "MinCapacity": 1, "MaxCapacity": 4}]})
            ctype = "application/x-amz-json-1.1"
        elif "Action=GetRole" in body:
            name = [kv.split("=", 1)[1] for kv in body.split("&") if kv.startswith("RoleName=")][0]
            if name == "Missing":
                self.send_response(404); self.send_header("Content-Type", "text/xml"); self.end_headers()
                self.wfile.write(b"<ErrorResponse><Error><Type>Sender</Type><Code>NoSuchEntity</Code><Message>The role with name Missing cannot be found.</Message></Error><RequestId>r</RequestId></ErrorResponse>")
                return
            out = ("<GetRoleResponse><GetRoleResult><Role><RoleName>%s</RoleName><Arn>arn:aws:iam::111122223333:role/%s</Arn>"
                   "<AssumeRolePolicyDocument>%s</AssumeRolePolicyDocument></Role></GetRoleResult></GetRoleResponse>") % (name, name, TRUST)
            ctype = "text/xml"
        else:
            self.send_response(400); self.end_headers(); return
        data = out.encode()
        self.send_response(200); self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print("listening on http://127.0.0.1:%d" % s.server_address[1], flush=True)
s.serve_forever()
PY
/usr/bin/python3 fake.py >fake.out 2>fake.err &
pids+=($!)
for _ in $(seq 100); do [ -s mock.out ] && [ -s fake.out ] && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' mock.out | head -1)
FAKE=$(sed -n 's/^listening on //p' fake.out | head -1)
[ -n "$URL" ] && [ -n "$FAKE" ] || { echo "servers did not start"; cat mock.err fake.err; exit 1; }
export AWS_ACCESS_KEY_ID=AKIDSMFWMOCKEXAMPLE AWS_SECRET_ACCESS_KEY=smfw-mock-secret-key-EXAMPLEKEY
export AWS_ENDPOINT_URL_IAM="$FAKE" AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING="$FAKE"
ROLE=arn:aws:iam::111122223333:role/SageMakerRole
export AWS_ENDPOINT_URL="$URL"
run_managed() { "$SMFW" --backend managed --poll-interval 0.2s --role-arn "$ROLE" "$@"; }

# 4. Pre-flight: one sentence each, nothing billable created.
set +e
run_managed --endpoint no-such-endpoint --bucket b1 --run -o pf1 2>pf1.txt; rc1=$?
run_managed --endpoint mock-endpoint --bucket no-such-bucket --run -o pf2 2>pf2.txt; rc2=$?
run_managed --endpoint mock-endpoint --bucket b1 --region eu-north-9 --run -o pf3 2>pf3.txt; rc3=$?
run_managed --endpoint mock-endpoint --bucket b1 --role-arn arn:aws:iam::111122223333:role/Missing --run -o pf4 2>pf4.txt; rc4=$?
set -e
grep -q "endpoint no-such-endpoint in us-east-1 cannot be described" pf1.txt || { cat pf1.txt; exit 1; }
[ "$rc1" -eq 2 ] || { echo "missing endpoint: exit $rc1"; exit 1; }
[ "$rc3" -eq 1 ] && grep -q "region eu-north-9 is not one where" pf3.txt || { cat pf3.txt; exit 1; }
grep -q "role arn:aws:iam::111122223333:role/Missing does not exist" pf4.txt || { cat pf4.txt; exit 1; }
# (the mock's S3 creates buckets on first use or not: accept either a clear refusal or a pass)
[ "$rc2" -ne 0 ] && { grep -q "no-such-bucket" pf2.txt || { cat pf2.txt; exit 1; }; }

# 5. --run: staging, workload config, job with its own prefix, polling to the end.
set +e
run_managed --endpoint mock-endpoint --run -o run1 >run1.out 2>run1.err
rc=$?
set -e
cat run1.err
grep -q "autoscaling on endpoint/mock-endpoint/variant/AllTraffic can change the capacity" run1.err
grep -q "uploading curated.jsonl" run1.err
grep -q "launched benchmark job smfw-mock-endpoint-" run1.err
grep -q "output s3://sagemaker-us-east-1-111122223333/benchmark-output/smfw-mock-endpoint-" run1.err
if grep -q "benchmark job .* failed: " run1.err; then
    # Until the mock has a job runner, jobs fail without a bundle: exit 2 with the reason.
    [ "$rc" -eq 2 ] || { echo "failed job: exit $rc, want 2"; exit 1; }
else
    [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "exit $rc"; exit 1; }
    [ -s run1/bundle/output/profile_export_aiperf.json ] || ls -R run1
fi
# The same dataset again: content-addressed, not uploaded twice.
set +e
run_managed --endpoint mock-endpoint --run -o run2 >run2.out 2>run2.err
set -e
grep -q "dataset already staged at s3://sagemaker-us-east-1-111122223333/smfw/datasets/" run2.err || { cat run2.err; exit 1; }

# 6. Inference component and public feed through --run reach the job.
set +e
run_managed --endpoint mock-endpoint --inference-component mock-ic --run -o run3 2>run3.err
run_managed --endpoint mock-endpoint --dataset public --run -o run4 2>run4.err
set -e
grep -q "launched benchmark job" run3.err || { cat run3.err; exit 1; }
grep -q "launched benchmark job" run4.err || { cat run4.err; exit 1; }
if grep -q "uploading" run4.err; then echo "public feed uploaded a dataset"; exit 1; fi
echo "managed backend against smfw-mock: all checks passed"
