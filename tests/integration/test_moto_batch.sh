#!/usr/bin/env bash
# test_moto_batch.sh - `smfw launch batch --submit` against moto_server's AWS Batch (restJson),
# boto3 as the independent reader:
#  1. boto3 makes what Batch needs first (an unmanaged compute environment, an enabled job
#     queue); smfw launch batch --submit -v registers the definition and submits the array job.
#  2. The two request bodies smfw sent (its -v log) validate against botocore's Batch model
#     (botocore.validate, as the SDK checks before sending) and equal the document `smfw launch
#     batch` prints, with SubmitJob naming the new revision's ARN.
#  3. boto3's describe_job_definitions / describe_jobs show what moto stored: the definition
#     (image, command with the shard from AWS_BATCH_JOB_ARRAY_INDEX, resources, attempts 1,
#     tags), the array job of size 3 on the queue; a second submit is revision 2 and its job
#     names :2; `smfw batch-submit --requests -` submits a saved document.
#  4. Refusals: a queue that does not exist or is disabled is named before anything is
#     registered (no new revision); a document without submitJob names the key; one with a
#     secret-looking environment variable is refused without printing it.
# moto has no docker here: its background run of the children fails; only what the submission
# returned and stored is checked. moto does not check signatures (unit.test_aws_rest_json does).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
unset AWS_ENDPOINT_URL_BATCH
start_moto

boto '
b = boto3.client("batch", **_kw)
role = iam.create_role(RoleName="smfw-batch-service", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
ce = b.create_compute_environment(computeEnvironmentName="smfw-ce", type="UNMANAGED",
                                  state="ENABLED", serviceRole=role)["computeEnvironmentArn"]
for name, state in (("smfw-bench-queue", "ENABLED"), ("smfw-off-queue", "DISABLED")):
    b.create_job_queue(jobQueueName=name, state=state, priority=1,
                       computeEnvironmentOrder=[{"order": 1, "computeEnvironment": ce}])
'

launch=(launch batch --endpoint mock --request-count 6 --concurrency 1 --random-seed 3
        --shards 3 --start-at 2030-01-01T00:00:00Z --name smfw-moto-batch
        --image 123456789012.dkr.ecr.us-east-1.amazonaws.com/smfw:test --cpus 2 --memory 2Gi
        --job-role-arn arn:aws:iam::123456789012:role/smfw-job -o s3://bench-results/batch)
aws_opts=(--endpoint-url "$MOTO_URL" --region us-east-1)
# The document as printed (the shards' run options include the AWS ones and -v, as given).
"$SMFW" "${launch[@]}" "${aws_opts[@]}" --job-queue smfw-bench-queue -v >doc.json 2>doc.err ||
    fail "smfw launch batch" doc.json doc.err

# ---- 1. submit ------------------------------------------------------------------------------
"$SMFW" "${launch[@]}" "${aws_opts[@]}" --job-queue smfw-bench-queue --submit -v \
    >submit.out 2>submit.err || fail "smfw launch batch --submit" submit.out submit.err
cat submit.out
job_id=$(sed -n 's/^submitted array job smfw-moto-batch to queue smfw-bench-queue: job id \(.*\)$/\1/p' submit.out)
[ -n "$job_id" ] || fail "no job id printed" submit.out submit.err
grep -qx "follow it: aws batch describe-jobs --jobs $job_id" submit.out ||
    fail "no describe-jobs hint" submit.out
grep -q "^registered job definition smfw-moto-batch:1$" submit.out || fail "revision 1" submit.out
[ "$(moto_requests POST /v1/registerjobdefinition)" = 1 ] &&
    [ "$(moto_requests POST /v1/submitjob)" = 1 ] ||
    fail "expected one RegisterJobDefinition and one SubmitJob at moto" "$work/moto.log"

# ---- 2 + 3. what was sent, and what moto stored ----------------------------------------------
boto '
import re
from botocore.model import ServiceModel
from botocore.validate import validate_parameters
model = ServiceModel(json.load(open(os.environ["SMFW_TESTDATA_DIR"] +
                                    "/awsmodels/batch/2016-08-10/service-2.json")), "batch")
sent = {}
for line in open("submit.err"):
    m = re.search(r"\[batch\] (\w+) request: (\{.*\})$", line.rstrip("\n"))
    if m:
        sent[m.group(1)] = json.loads(m.group(2))
assert sorted(sent) == ["DescribeJobQueues", "RegisterJobDefinition", "SubmitJob"], sorted(sent)
for op, body in sent.items():
    validate_parameters(body, model.operation_model(op).input_shape)  # raises when invalid
    print(f"{op} request: valid against botocore 1.43.11 Batch model")
doc = json.load(open("doc.json"))
assert sent["RegisterJobDefinition"] == doc["registerJobDefinition"], "definition changed on the way"
b = boto3.client("batch", **_kw)
[d] = b.describe_job_definitions(jobDefinitionName="smfw-moto-batch", status="ACTIVE")["jobDefinitions"]
want_sub = dict(doc["submitJob"], jobDefinition=d["jobDefinitionArn"])
assert sent["SubmitJob"] == want_sub, (sent["SubmitJob"], want_sub)
assert d["revision"] == 1 and d["type"] == "container", d
cp, want = d["containerProperties"], doc["registerJobDefinition"]["containerProperties"]
assert cp["image"] == want["image"] and cp["command"] == want["command"], cp
c = cp["command"]
assert c[0] == "run" and c[c.index("--shard") + 1] == "$AWS_BATCH_JOB_ARRAY_INDEX+1/3", c
assert c[c.index("--start-at") + 1] == "2030-01-01T00:00:00Z" and c[c.index("-o") + 1] == "s3://bench-results/batch/", c
assert {r["type"]: r["value"] for r in cp["resourceRequirements"]} == {"VCPU": "2", "MEMORY": "2048"}, cp
assert cp["jobRoleArn"] == "arn:aws:iam::123456789012:role/smfw-job", cp
assert d["retryStrategy"]["attempts"] == 1 and d["tags"] == {"smfw:run": "smfw-moto-batch"}, d
assert d["platformCapabilities"] == ["EC2"], d
[j] = b.describe_jobs(jobs=[sys.argv[1]])["jobs"]
assert j["jobName"] == "smfw-moto-batch" and j["jobDefinition"] == d["jobDefinitionArn"], j
assert j["jobQueue"].endswith(":job-queue/smfw-bench-queue"), j["jobQueue"]
assert j["arrayProperties"]["size"] == 3, j["arrayProperties"]
assert j["container"]["command"] == c, j["container"]
listed = [s["jobId"] for s in b.list_jobs(jobQueue="smfw-bench-queue", filters=[{"name": "JOB_NAME", "values": ["smfw-moto-batch"]}])["jobSummaryList"]]
assert sys.argv[1] in listed, listed
arn, jid = d["jobDefinitionArn"], j["jobId"]
print(f"moto stored {arn} and array job {jid} of size 3 on smfw-bench-queue")
' "$job_id"

# A second submit: revision 2, and the job runs :2, not whichever revision is newest later.
"$SMFW" batch-submit --requests - "${aws_opts[@]}" <doc.json >again.out 2>again.err ||
    fail "smfw batch-submit --requests -" again.out again.err
grep -q "^registered job definition smfw-moto-batch:2$" again.out || fail "revision 2" again.out
job2=$(sed -n 's/^submitted array job smfw-moto-batch to queue smfw-bench-queue: job id \(.*\)$/\1/p' again.out)
boto '
[j] = boto3.client("batch", **_kw).describe_jobs(jobs=[sys.argv[1]])["jobs"]
assert j["jobDefinition"].endswith(":job-definition/smfw-moto-batch:2"), j["jobDefinition"]
print("second submit: revision 2, its job names :2")
' "$job2"

# ---- 4. refusals ----------------------------------------------------------------------------
refused() { # WHAT PATTERN RC ARGS...
    local what=$1 pattern=$2 want=$3 rc
    shift 3
    set +e
    "$SMFW" "$@" >refused.out 2>refused.err
    rc=$?
    set -e
    [ "$rc" = "$want" ] && grep -q -- "$pattern" refused.err ||
        fail "$what: expected exit $want naming $pattern, got $rc" refused.out refused.err
}
refused "missing queue" "the job queue smfw-nope-queue (--job-queue) is no AWS Batch job queue in us-east-1" 2 \
    "${launch[@]}" "${aws_opts[@]}" --job-queue smfw-nope-queue --submit
refused "disabled queue" "the job queue smfw-off-queue (--job-queue) is DISABLED" 1 \
    "${launch[@]}" "${aws_opts[@]}" --job-queue smfw-off-queue --submit
[ "$(moto_requests POST /v1/registerjobdefinition)" = 2 ] ||
    fail "a refused queue must register nothing" "$work/moto.log"
"$SMFW_PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["submitJob"]; json.dump(d, open(sys.argv[2], "w"))' \
    doc.json nosubmit.json
refused "no submitJob" "--requests nosubmit.json: no submitJob" 1 batch-submit --requests nosubmit.json "${aws_opts[@]}"
"$SMFW_PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1]))
d["registerJobDefinition"]["containerProperties"]["environment"] = [{"name": "OPENAI_API_KEY", "value": "sk-test-not-shown"}]
json.dump(d, open(sys.argv[2], "w"))' doc.json secret.json
refused "secret in environment" "the environment variable OPENAI_API_KEY would be readable" 1 \
    batch-submit --requests secret.json "${aws_opts[@]}" -v
grep -q "sk-test-not-shown" refused.out refused.err && fail "the secret was printed" refused.out refused.err
refused "no file" "--requests missing.json: cannot read it" 1 batch-submit --requests missing.json "${aws_opts[@]}"
echo "ok"
