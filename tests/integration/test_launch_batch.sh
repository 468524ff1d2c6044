#!/usr/bin/env bash
# test_launch_batch.sh - `smfw launch batch`: the RegisterJobDefinition and SubmitJob requests
# validate against botocore's Batch model (tests/data/awsmodels/batch/2016-08-10, with
# botocore.validate like the SDK before it sends); the array size is N, the shard comes from
# AWS_BATCH_JOB_ARRAY_INDEX + 1 (run for real: children 0 and 1 of 2 run shards 1/2 and 2/2);
# N = 1 and secrets are refused with a sentence; with -o s3://b/P every child writes its own
# s3://b/P/shard-I (run as Batch would against smfw-mock's S3, then merged). Also the --submit plumbing of the other two
# engines: the definition reaches sbatch / `kubectl apply -f -` on stdin, and a missing tool
# is named; batch --submit without --job-queue is refused (the submit itself:
# test_moto_batch.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

run_opts=(--endpoint mock --request-count 4 --concurrency 1 -q --random-seed 3)
"$SMFW" launch batch "${run_opts[@]}" --shards 2 --start-at +1s --name smfw-batch-test \
    --image 123456789012.dkr.ecr.us-east-1.amazonaws.com/smfw:0.1.0 --job-queue bench-queue \
    --job-role-arn arn:aws:iam::123456789012:role/smfw-job \
    --execution-role-arn arn:aws:iam::123456789012:role/smfw-exec \
    --api-key-secret arn:aws:secretsmanager:us-east-1:123456789012:secret:openai \
    --cpus 2 --memory 2Gi -o "$work/out" > "$work/batch.json"

"$SMFW_PYTHON" - "$SMFW_TESTDATA_DIR/awsmodels/batch/2016-08-10/service-2.json" "$work/batch.json" <<'PY'
import json, sys
from botocore.model import ServiceModel
from botocore.validate import validate_parameters
model = ServiceModel(json.load(open(sys.argv[1])), service_name="batch")
doc = json.load(open(sys.argv[2]))
for op, key in (("RegisterJobDefinition", "registerJobDefinition"), ("SubmitJob", "submitJob")):
    validate_parameters(doc[key], model.operation_model(op).input_shape)  # raises when invalid
    print(f"{op}: valid against botocore's Batch model")
# botocore's validator has teeth: a misspelt member and a wrong type are refused
from botocore.exceptions import ParamValidationError
for bad in ({**doc["submitJob"], "arrayProperty": {"size": 2}},
            {**doc["submitJob"], "arrayProperties": {"size": "2"}}):
    try:
        validate_parameters(bad, model.operation_model("SubmitJob").input_shape)
    except ParamValidationError:
        continue
    raise SystemExit(f"botocore accepted {bad}")
d, s = doc["registerJobDefinition"], doc["submitJob"]
assert s["arrayProperties"]["size"] == 2 and s["jobDefinition"] == d["jobDefinitionName"]
assert s["jobQueue"] == "bench-queue"
cp = d["containerProperties"]
assert d["retryStrategy"]["attempts"] == 1, "a retried shard would start after --start-at"
assert {r["type"]: r["value"] for r in cp["resourceRequirements"]} == {"VCPU": "2", "MEMORY": "2048"}
assert cp["secrets"] == [{"name": "OPENAI_API_KEY",
                          "valueFrom": "arn:aws:secretsmanager:us-east-1:123456789012:secret:openai"}]
assert "sk-" not in json.dumps(doc)
c = cp["command"]
assert c[0] == "run" and c[c.index("--shard") + 1] == "$AWS_BATCH_JOB_ARRAY_INDEX+1/2", c
json.dump(c, open(sys.argv[2] + ".command", "w"))
PY

# The image's entrypoint is smfw: run the command as Batch would, child index 0 and 1.
mapfile -t cmd < <("$SMFW_PYTHON" -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))))' "$work/batch.json.command")
for index in 0 1; do
    AWS_BATCH_JOB_ARRAY_INDEX=$index "$SMFW" "${cmd[@]}" > "$work/child$index.log" 2>&1 \
        || { echo "child $index failed"; cat "$work/child$index.log"; exit 1; }
    mv "$work/out" "$work/child$index"
    shard=$("$SMFW_PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["smfw"]["shard"])' \
        "$work/child$index/profile_export_aiperf.json")
    [ "$shard" = "$((index + 1))/2" ] || { echo "child $index ran shard $shard"; exit 1; }
done
echo "AWS_BATCH_JOB_ARRAY_INDEX 0, 1 ran shards 1/2, 2/2"

expect_refusal() { # WHAT PATTERN ARGS...
    local what=$1 pattern=$2; shift 2
    set +e
    "$SMFW" launch "$@" > "$work/refused.out" 2> "$work/refused.err"
    local rc=$?
    set -e
    [ "$rc" != 0 ] && grep -q -- "$pattern" "$work/refused.err" \
        || { echo "$what: expected a refusal naming $pattern (exit $rc):"; cat "$work/refused.err"; exit 1; }
}
expect_refusal "Batch N=1" "--shards 1" batch "${run_opts[@]}" --shards 1
expect_refusal "inline key" "--api-key" batch --url http://127.0.0.1:1 --api-key sk-live --shards 2
expect_refusal "secret key" "--aws-secret-access-key" kubernetes --aws-secret-access-key x --shards 2
expect_refusal "own --shard" "--shards N" slurm --shard 1/2 --shards 2
expect_refusal "bad engine" "slurm, kubernetes or batch" nomad --shards 2
expect_refusal "bad start" "--start-at" slurm --shards 2 --start-at tomorrow
expect_refusal "bad name" "--name" kubernetes --shards 2 --name Bench_1
# A real Batch submit is test_moto_batch's; what cannot work is refused before any call.
expect_refusal "batch submit without a queue" "--submit: name the AWS Batch job queue with --job-queue" \
    batch "${run_opts[@]}" --shards 2 --submit
# One -o for every pod or child: an S3 output becomes a folder (s3://b/run/) in which each shard
# writes its own shard-I. Run as Batch would, children 0 and 1, against smfw-mock's S3, and
# merged from there (the children run one after the other here: the start spread is allowed).
start_mock --ttft-ms 1 --itl-ms 0.2 --output-tokens 4
"$SMFW_PYTHON" -c 'import sys, boto3, botocore.config
boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
             config=botocore.config.Config(s3={"addressing_style": "path"})).create_bucket(Bucket="bench-results")' "$MOCK_URL"
s3_opts=(--endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 --request-count 4
         --concurrency 1 -q --random-seed 3)
"$SMFW" launch batch "${s3_opts[@]}" --shards 2 --start-at +1s --name smfw-batch-s3 \
    -o s3://bench-results/batch > "$work/batch-s3.json"
"$SMFW" launch kubernetes "${s3_opts[@]}" --shards 2 --start-at +1s --name smfw-k8s-s3 \
    -o s3://bench-results/k8s/ > "$work/k8s-s3.json"
mapfile -t cmd < <("$SMFW_PYTHON" - "$work/batch-s3.json" "$work/k8s-s3.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["registerJobDefinition"]["containerProperties"]["command"]
assert c[c.index("-o") + 1] == "s3://bench-results/batch/", c
k = json.load(open(sys.argv[2]))["spec"]["template"]["spec"]["containers"][0]["args"]
assert k[k.index("-o") + 1] == "s3://bench-results/k8s/", k
print("\n".join(c))
PY
)
for index in 0 1; do
    AWS_BATCH_JOB_ARRAY_INDEX=$index "$SMFW" "${cmd[@]}" > "$work/s3child$index.out" 2>&1 ||
        { echo "child $index failed"; cat "$work/s3child$index.out"; exit 1; }
    grep -qx "s3://bench-results/batch/shard-$((index + 1))" "$work/s3child$index.out" ||
        { echo "child $index did not say where it wrote"; cat "$work/s3child$index.out"; exit 1; }
done
AWS_REGION=us-east-1 "$SMFW" merge --endpoint-url "$MOCK_URL" s3://bench-results/batch/ -o "$work/batch-merged" --allow-start-spread \
    > "$work/batch-merge.out" 2>&1 || { cat "$work/batch-merge.out"; exit 1; }
for i in 1 2; do
    grep -q "shard-$i: 2 records (complete)" "$work/batch-merge.out" ||
        { echo "merge did not find shard $i"; cat "$work/batch-merge.out"; exit 1; }
done
stop_mock
echo "Batch children 0, 1 with -o s3://bench-results/batch wrote shard-1, shard-2 there; merged"

# --submit: the definition goes to the engine's tool on stdin; a missing tool is named.
mkdir "$work/bin"
for tool in sbatch kubectl; do
    printf '#!/bin/sh\necho "$0 $*" > "%s/%s.argv"\ncat > "%s/%s.stdin"\n' \
        "$work" "$tool" "$work" "$tool" > "$work/bin/$tool"
    chmod +x "$work/bin/$tool"
done
PATH="$work/bin:$PATH" "$SMFW" launch slurm "${run_opts[@]}" --shards 2 --submit --name s1
grep -q -- '--array=1-2' "$work/sbatch.stdin"
PATH="$work/bin:$PATH" "$SMFW" launch kubernetes "${run_opts[@]}" --shards 2 --submit --name k1
grep -q 'apply -f -' "$work/kubectl.argv"
"$SMFW_PYTHON" -c 'import json,sys; assert json.load(open(sys.argv[1]))["spec"]["completions"] == 2' "$work/kubectl.stdin"
mkdir "$work/empty"
set +e
PATH="$work/empty" "$SMFW" launch kubernetes --shards 2 --submit > /dev/null 2> "$work/nokubectl.err"
rc=$?
set -e
[ "$rc" != 0 ] && grep -q "kubectl is not on PATH" "$work/nokubectl.err" \
    || { echo "a missing kubectl must be named (exit $rc):"; cat "$work/nokubectl.err"; exit 1; }
echo "ok"
