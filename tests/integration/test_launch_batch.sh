#!/usr/bin/env bash
# test_launch_batch.sh - `smfw launch batch`: the RegisterJobDefinition and SubmitJob requests
# validate against botocore's Batch model (tests/data/awsmodels/batch/2016-08-10, with
# botocore.validate like the SDK before it sends); the array size is N, the shard comes from
# AWS_BATCH_JOB_ARRAY_INDEX + 1 (run for real: children 0 and 1 of 2 run shards 1/2 and 2/2);
# N = 1 and secrets are refused with a sentence. Also the --submit plumbing of the other two
# engines: the definition reaches sbatch / `kubectl apply -f -` on stdin, and a missing tool
# is named.
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
expect_refusal "batch submit" "aws batch" batch --shards 2 --submit
# one -o for every pod or child: S3 output would have them overwrite each other's objects
expect_refusal "k8s to S3" "same S3 objects" kubernetes --shards 2 -o s3://b/run
expect_refusal "batch to S3" "same S3 objects" batch --shards 2 -o s3://b/run

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
