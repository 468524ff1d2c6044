#!/usr/bin/env bash
# test_managed_run.sh - `smfw --backend managed --run` from nothing to a
# report against smfw-mock, whose benchmark jobs really run (through the
# direct backend) and upload AIPerf's output.tar.gz.
#  1. The default endpoint: exit 0; pre-flight warns that autoscaling
#     (MinCapacity 1 != MaxCapacity 4) can change the capacity; the default
#     bucket is created, the curated dataset staged, the job Completed; the
#     run folder holds the tarball, AIPerf's files (bundle/output/...) and
#     smfw's reports; every headline number printed equals the bundle's
#     JSON, and `smfw results --local` on the folder prints the same.
#  2. The same dataset again: not uploaded twice.
#  3. A custom dataset: staged at <prefix>/<sha256>/<name>.jsonl whose
#     bytes (read back with botocore) hash to the key's SHA-256; the job
#     sent its prompts; a second run skips the upload.
#  4. An inference-component target (the mock refuses invocations of that
#     endpoint without one): the job request names it, every request
#     succeeds, no autoscaling warning (MinCapacity = MaxCapacity); the same
#     endpoint without the component trips the gate (exit 3).
#  5. The public feed (--dataset public; the mock reads a small ShareGPT
#     sample written here): nothing uploaded, the job sent its questions.
#  6. Pre-flight refusals, one sentence each, before anything billable (no
#     upload, no workload config, no job): a role that does not trust
#     sagemaker.amazonaws.com (no statement; another service), a missing
#     role, endpoint, bucket, and a region without the capability.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_managed_lib.bash"

"$SMFW_PYTHON" - <<'PY'
import json
with open("mine.jsonl", "w") as f:
    for i in range(12):
        f.write(json.dumps({"text": f"custom prompt {i} " + "lorem " * (i + 3), "output_length": 40 + i},
                           separators=(",", ":")) + "\n")
conv = [{"id": f"s{i}", "conversations": [
    {"from": "human", "value": f"sharegpt sample question {i}: " + "why " * (i + 4)},
    {"from": "gpt", "value": "because " * (20 + i)}]} for i in range(10)]
json.dump(conv, open("sharegpt.json", "w"))
PY

start_mock --endpoint mock-endpoint --endpoint ic-endpoint --inference-component ic-1 \
    --role SageMakerExecutionRole --role NoTrust:none --role Ec2Only:ec2.amazonaws.com \
    --autoscaling mock-endpoint:1:4 --autoscaling ic-1:2:2 --sharegpt-file "$work/sharegpt.json"

# 1. The default endpoint, from nothing to a report.
managed run1 --endpoint mock-endpoint --run
expect_rc 0 run1
grep -q "autoscaling on endpoint/mock-endpoint/variant/AllTraffic can change the capacity between 1 and 4" run1.err ||
    fail "no autoscaling warning" run1.err
grep -q "creating the default bucket $BUCKET" run1.err || fail "default bucket" run1.err
grep -q "uploading curated.jsonl" run1.err || fail "no upload" run1.err
for f in output.tar.gz profile_export_aiperf.json profile_export_aiperf.csv summary.md \
    profile_export.jsonl bundle/output/profile_export_aiperf.json \
    bundle/output/profile_export_aiperf.csv bundle/output/profile_export.jsonl \
    bundle/output/inputs.json bundle/output/outputs.json bundle/output/benchmark_summary.txt \
    bundle/output/logs/aiperf.log; do
    [ -s "run1/$f" ] || fail "run1/$f missing" run1.err
done
grep -q "validity: passed (error rate 0.00%" run1.out || fail "validity" run1.out
check_numbers run1 run1/bundle/output/profile_export_aiperf.json
JOB1=$(job_of run1)
aws_py '
job = sm.describe_ai_benchmark_job(AIBenchmarkJobName=sys.argv[1])
assert job["AIBenchmarkJobStatus"] == "Completed", job
assert job["BenchmarkTarget"]["Endpoint"]["Identifier"] == "mock-endpoint", job["BenchmarkTarget"]
assert job["OutputConfig"]["S3OutputLocation"] == f"s3://'"$BUCKET"'/benchmark-output/{sys.argv[1]}/"
cfg = sm.describe_ai_workload_config(AIWorkloadConfigName=job["AIWorkloadConfigIdentifier"].split("/")[-1])
spec = json.loads(cfg["AIWorkloadConfigs"]["WorkloadSpec"]["Inline"])
p = spec["parameters"]
assert p["request_count"] == 24 and p["concurrency"] == 4 and p["custom_dataset_type"] == "single_turn", p
agg = json.load(open("run1/bundle/output/profile_export_aiperf.json"))
assert agg["request_count"]["avg"] == 24 and "error_request_count" not in agg, agg.get("error_request_count")
print("1. job Completed with the planned spec; 24 requests, no errors")
' "$JOB1"
set +e
"$SMFW" results --local run1 >res1.out 2>res1.err
rrc=$?
set -e
[ "$rrc" -eq 0 ] || fail "results --local run1: exit $rrc" res1.out res1.err
check_numbers res1 run1/bundle/output/profile_export_aiperf.json

# 2. The same dataset: content-addressed, not uploaded again.
managed run2 --endpoint mock-endpoint --run
expect_rc 0 run2
grep -q "dataset already staged at s3://$BUCKET/smfw/datasets/" run2.err || fail "restaged" run2.err
if grep -q "uploading" run2.err; then fail "uploaded twice" run2.err; fi

# 3. A custom dataset: content-addressed key, the job sent its prompts; then skipped.
managed run3 --endpoint mock-endpoint --dataset custom --dataset-file mine.jsonl \
    --dataset-sampling sequential --run
expect_rc 0 run3
SHA=$(sha256sum mine.jsonl | cut -d' ' -f1)
grep -q "uploading mine.jsonl ($(stat -c %s mine.jsonl) bytes) to s3://$BUCKET/smfw/datasets/$SHA/mine.jsonl" run3.err ||
    fail "custom dataset upload" run3.err
check_numbers run3 run3/bundle/output/profile_export_aiperf.json
aws_py '
key = f"smfw/datasets/{sys.argv[1]}/mine.jsonl"
data = s3.get_object(Bucket="'"$BUCKET"'", Key=key)["Body"].read()
assert hashlib.sha256(data).hexdigest() == sys.argv[1], "staged object does not hash to its key"
assert data == open("mine.jsonl", "rb").read()
sent = open("run3/bundle/output/inputs.json").read()
texts = [json.loads(l)["text"] for l in open("mine.jsonl")]
assert all(t in sent for t in texts), "the job did not send the custom prompts"
assert "sharegpt sample" not in sent
print("3. custom dataset staged content-addressed and sent")
' "$SHA"
managed run3b --endpoint mock-endpoint --dataset custom --dataset-file mine.jsonl \
    --dataset-sampling sequential --run
expect_rc 0 run3b
grep -q "dataset already staged at s3://$BUCKET/smfw/datasets/$SHA/mine.jsonl" run3b.err ||
    fail "custom dataset restaged" run3b.err
if grep -q "uploading" run3b.err; then fail "custom dataset uploaded twice" run3b.err; fi

# 4. An inference-component target.
managed run4 --endpoint ic-endpoint --inference-component ic-1 --run
expect_rc 0 run4
if grep -q "autoscaling" run4.err; then fail "autoscaling warning with Min = Max" run4.err; fi
check_numbers run4 run4/bundle/output/profile_export_aiperf.json
grep -q "validity: passed (error rate 0.00%" run4.out || fail "IC validity" run4.out
aws_py '
job = sm.describe_ai_benchmark_job(AIBenchmarkJobName=sys.argv[1])
assert job["AIBenchmarkJobStatus"] == "Completed", job
assert job["BenchmarkTarget"]["Endpoint"] == {"Identifier": "ic-endpoint",
    "InferenceComponents": [{"Identifier": "ic-1"}]}, job["BenchmarkTarget"]
print("4. inference component named in the job, every request succeeded")
' "$(job_of run4)"
managed run4b --endpoint ic-endpoint --run
expect_rc 3 run4b
grep -q "failed its validity gate" run4b.err || fail "no gate without the component" run4b.err

# 5. The public feed: SageMaker (here the mock) fetches it; nothing staged.
managed run5 --endpoint mock-endpoint --dataset public --run
expect_rc 0 run5
if grep -q "uploading\|already staged" run5.err; then fail "public feed staged a dataset" run5.err; fi
check_numbers run5 run5/bundle/output/profile_export_aiperf.json
aws_py '
sent = open("run5/bundle/output/inputs.json").read()
assert "sharegpt sample question" in sent and "custom prompt" not in sent, "not the public feed"
job = sm.describe_ai_benchmark_job(AIBenchmarkJobName=sys.argv[1])
cfg = sm.describe_ai_workload_config(AIWorkloadConfigName=job["AIWorkloadConfigIdentifier"].split("/")[-1])
assert "DatasetConfig" not in cfg, cfg.get("DatasetConfig")
assert json.loads(cfg["AIWorkloadConfigs"]["WorkloadSpec"]["Inline"])["parameters"]["public_dataset"] == "sharegpt"
print("5. public feed: no channel, the job sent the ShareGPT questions")
' "$(job_of run5)"

# 6. Pre-flight refusals before anything billable.
count_jobs() { aws_py 'print(len(sm.list_ai_benchmark_jobs()["AIBenchmarkJobs"]), len(sm.list_ai_workload_configs()["AIWorkloadConfigs"]))'; }
before=$(count_jobs)
refuse() { # refuse NAME WANT_RC SENTENCE ARGS...
    local name=$1 want=$2 sentence=$3
    shift 3
    managed "$name" --dataset-prefix "fresh/$name" --run "$@"
    expect_rc "$want" "$name"
    grep -qF "$sentence" "$name.err" || fail "$name: no sentence \"$sentence\"" "$name.err"
    if grep -q "uploading\|launched\|created workload" "$name.err"; then fail "$name: billable step" "$name.err"; fi
}
refuse pf-notrust 1 "role arn:aws:iam::111122223333:role/NoTrust does not trust sagemaker.amazonaws.com" \
    --endpoint mock-endpoint --role-arn arn:aws:iam::111122223333:role/NoTrust
refuse pf-ec2 1 "role arn:aws:iam::111122223333:role/Ec2Only does not trust sagemaker.amazonaws.com" \
    --endpoint mock-endpoint --role-arn arn:aws:iam::111122223333:role/Ec2Only
refuse pf-norole 1 "role arn:aws:iam::111122223333:role/Missing does not exist" \
    --endpoint mock-endpoint --role-arn arn:aws:iam::111122223333:role/Missing
refuse pf-noep 2 "endpoint no-such-endpoint in us-east-1 cannot be described" --endpoint no-such-endpoint
refuse pf-nobucket 1 "output bucket no-such-bucket does not exist" --endpoint mock-endpoint \
    --bucket no-such-bucket
refuse pf-noic 2 "inference component no-such-ic cannot be described" --endpoint ic-endpoint \
    --inference-component no-such-ic
refuse pf-region 1 "region eu-north-9 is not one where SageMaker's benchmark capability is offered" \
    --endpoint mock-endpoint --region eu-north-9
after=$(count_jobs)
[ "$before" = "$after" ] || fail "pre-flight refusals created jobs or configs ($before -> $after)"
aws_py '
r = s3.list_objects_v2(Bucket="'"$BUCKET"'", Prefix="fresh/")
assert r.get("KeyCount", 0) == 0, [o["Key"] for o in r.get("Contents", [])]
print("6. pre-flight refusals: nothing uploaded, no workload config, no job")
'
echo "managed --run against smfw-mock: all checks passed"
