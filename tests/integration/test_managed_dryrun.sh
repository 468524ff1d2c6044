#!/usr/bin/env bash
# test_managed_dryrun.sh - `smfw --backend managed` without --run prints the
# plan and touches nothing billable.
#  1. No credentials, no region: exit 0; region, endpoint, inference
#     component, dataset (prompt count, size, SHA-256 = the key's), the
#     output location, the names (pattern, UTC time, shared suffix), the
#     exact WorkloadSpec and the exact bodies of CreateAIWorkloadConfig and
#     CreateAIBenchmarkJob (compared whole, placeholders where unresolved),
#     and a "Not resolved" list naming region, account, bucket and role.
#  2. A region but no credentials: the account's reason is the credential
#     error; with --bucket and --role-arn the bodies are complete.
#  3. The public feed: public_dataset sharegpt, no dataset channel; a
#     custom dataset: its own file name and SHA-256 (of the exact bytes when
#     the file is already in the staged form and read in order).
#  4. Unknown or mistyped WorkloadSpec parameters are refused (exit 1).
#  5. With credentials against smfw-mock: account, default bucket and role
#     resolved, nothing unresolved, and the mock holds no bucket, object,
#     workload config or job afterwards.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_managed_lib.bash"

# A custom dataset already in the staged {"text","output_length"} form.
"$SMFW_PYTHON" - <<'PY'
import json
with open("mine.jsonl", "w") as f:
    for i in range(12):
        f.write(json.dumps({"text": f"prompt number {i} " + "word " * (i + 3), "output_length": 40 + i},
                           separators=(",", ":")) + "\n")
PY

"$SMFW_PYTHON" - "$SMFW" <<'PY'
import datetime, hashlib, json, os, re, subprocess, sys
smfw = sys.argv[1]
base_env = {k: v for k, v in os.environ.items()
            if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION",
                         "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL")}
# Nothing listens here: a dry run that tried the network would fail or hang.
base_env["AWS_ENDPOINT_URL"] = "http://127.0.0.1:9"

def plan(*args, env=None, want_rc=0):
    e = dict(base_env)
    e.update(env or {})
    p = subprocess.run([smfw, "--backend", "managed", *args], env=e, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == want_rc, f"{args}: exit {p.returncode}, want {want_rc}\n{p.stdout}\n{p.stderr}"
    return p.stdout, p.stderr

def field(out, name):
    m = re.search(r"^  " + re.escape(name) + r"\s{2,}(.*)$", out, re.M)
    assert m, f"no {name!r} line in the plan:\n{out}"
    return m.group(1)

def body(out, op):
    marker = f"POST / X-Amz-Target: SageMaker.{op}\n"
    assert marker in out, f"no {op} body:\n{out}"
    text = out.split(marker, 1)[1].split("\n\n", 1)[0]
    return json.loads(text)

def spec_printed(out):
    text = out.split("  WorkloadSpec:\n", 1)[1].split("\n\n", 1)[0]
    return json.loads(text)

def unresolved(out):
    if "Not resolved" not in out:
        return {}
    sect = out.split("Not resolved", 1)[1].split("\n\n", 1)[0]
    return dict(re.findall(r"^    - ([a-z ]+): (.*)$", sect, re.M))

def check_names(out, endpoint):
    job, cfg = field(out, "benchmark job name"), field(out, "workload config name")
    m = re.fullmatch(r"smfw-" + re.escape(endpoint) + r"-(\d{8}-\d{6})-([0-9a-f]{4})", job)
    assert m, job
    assert cfg == f"smfw-wl-{endpoint}-{m.group(1)}-{m.group(2)}", (cfg, job)
    assert len(job) <= 63 and len(cfg) <= 63
    t = datetime.datetime.strptime(m.group(1), "%Y%m%d-%H%M%S").replace(tzinfo=datetime.timezone.utc)
    assert abs((datetime.datetime.now(datetime.timezone.utc) - t).total_seconds()) < 120, t
    return job, cfg

def check_bodies(out, spec, job, cfg, bucket, role, endpoint, ic, channel):
    w = body(out, "CreateAIWorkloadConfig")
    inline = json.dumps(spec, separators=(",", ":"))
    want_w = {"AIWorkloadConfigName": cfg, "AIWorkloadConfigs": {"WorkloadSpec": {"Inline": inline}}}
    if channel:
        want_w["DatasetConfig"] = {"InputDataConfig": [{"ChannelName": "datasets", "DataSource": {
            "S3DataSource": {"S3Uri": channel}}}]}
    assert w == want_w, f"CreateAIWorkloadConfig body:\n{json.dumps(w, indent=1)}\nwant\n{json.dumps(want_w, indent=1)}"
    assert list(w) == list(want_w), list(w)
    target = {"Identifier": endpoint}
    if ic:
        target["InferenceComponents"] = [{"Identifier": ic}]
    want_j = {"AIBenchmarkJobName": job, "AIWorkloadConfigIdentifier": cfg,
              "BenchmarkTarget": {"Endpoint": target},
              "OutputConfig": {"S3OutputLocation": f"s3://{bucket}/benchmark-output/{job}/"},
              "RoleArn": role}
    j = body(out, "CreateAIBenchmarkJob")
    assert j == want_j, f"CreateAIBenchmarkJob body:\n{json.dumps(j, indent=1)}\nwant\n{json.dumps(want_j, indent=1)}"
    assert field(out, "output location") == f"s3://{bucket}/benchmark-output/{job}/"

# 1. Nothing configured: placeholders, and each unresolved item with its reason.
out, err = plan("--endpoint", "my-ep", "--inference-component", "my-ic", "--concurrency", "1,2,4",
                "--request-count", "40", "--workload-param", "warmup_request_count=3",
                "--tokenizer", "Qwen/Qwen3-0.6B")
assert "dry run: nothing was created or uploaded" in out, out
assert field(out, "region") == "(unresolved)"
assert field(out, "endpoint") == "my-ep" and field(out, "inference component") == "my-ic"
m = re.fullmatch(r"curated\.jsonl, 500 prompts, (\d+) bytes, sha256 ([0-9a-f]{64})", field(out, "dataset"))
assert m, field(out, "dataset")
sha = m.group(2)
job, cfg = check_names(out, "my-ep")
bucket = "sagemaker-<region>-<account>"
assert field(out, "dataset object").startswith(f"s3://{bucket}/smfw/datasets/{sha}/curated.jsonl "), out
spec = {"benchmark": {"type": "aiperf"}, "parameters": {
    "prompt_input_tokens_mean": 500, "prompt_input_tokens_stddev": 10, "output_tokens_mean": 256,
    "output_tokens_stddev": 16, "concurrency": [1, 2, 4], "request_count": 40, "streaming": True,
    "random_seed": 42, "tokenizer": "Qwen/Qwen3-0.6B", "warmup_request_count": 3,
    "custom_dataset_type": "single_turn", "input_file": "/opt/ml/input/data/datasets/curated.jsonl"}}
got = spec_printed(out)
assert got == spec, f"WorkloadSpec:\n{json.dumps(got)}\nwant\n{json.dumps(spec)}"
check_bodies(out, got, job, cfg, bucket, "<execution role ARN>", "my-ep", "my-ic",
             f"s3://{bucket}/smfw/datasets/{sha}/")
u = unresolved(out)
assert set(u) == {"region", "account", "bucket", "execution role"}, u
assert "AWS_REGION" in u["region"] and "--role-arn" in u["execution role"], u
print("1. no credentials, no region: plan and exact bodies with placeholders")

# 2. A region, no credentials: the account's reason says so; configured bucket and role.
out, _ = plan("--endpoint", "my-ep", "--request-count", "40", env={"AWS_REGION": "eu-west-1"})
assert field(out, "region") == "eu-west-1"
u = unresolved(out)
assert set(u) == {"account", "bucket", "execution role"}, u
assert "credential" in u["account"].lower(), u["account"]
assert field(out, "output location").startswith("s3://sagemaker-eu-west-1-<account>/benchmark-output/smfw-my-ep-")
out, _ = plan("--endpoint", "my-ep", "--request-count", "40", "--bucket", "b1",
              "--role-arn", "arn:aws:iam::123456789012:role/R", "--output-prefix", "runs/x/",
              env={"AWS_REGION": "eu-west-1"})
u = unresolved(out)
assert set(u) == {"account"} and "not looked up" in u["account"], u
job, cfg = check_names(out, "my-ep")
j = body(out, "CreateAIBenchmarkJob")
assert j["RoleArn"] == "arn:aws:iam::123456789012:role/R", j
assert j["OutputConfig"]["S3OutputLocation"] == f"s3://b1/runs/x/{job}/", j
assert "BenchmarkTarget" in j and "InferenceComponents" not in j["BenchmarkTarget"]["Endpoint"]
print("2. region without credentials; configured bucket and role: complete bodies")

# 3. Public feed: nothing to stage; custom dataset: its name and the SHA-256 of its bytes.
out, _ = plan("--endpoint", "e", "--dataset", "public", "--bucket", "b1", "--role-arn",
              "arn:aws:iam::123456789012:role/R", env={"AWS_REGION": "us-east-1"})
p = spec_printed(out)["parameters"]
assert p["public_dataset"] == "sharegpt" and "input_file" not in p and "custom_dataset_type" not in p, p
assert "DatasetConfig" not in body(out, "CreateAIWorkloadConfig")
assert "public ShareGPT feed" in field(out, "dataset") and "dataset object" not in out
out, _ = plan("--endpoint", "e", "--dataset", "custom", "--dataset-file", "mine.jsonl",
              "--dataset-sampling", "sequential", "--bucket", "b1", "--role-arn",
              "arn:aws:iam::123456789012:role/R", env={"AWS_REGION": "us-east-1"})
raw = open("mine.jsonl", "rb").read()
want_sha = hashlib.sha256(raw).hexdigest()
assert field(out, "dataset") == f"mine.jsonl, 12 prompts, {len(raw)} bytes, sha256 {want_sha}", field(out, "dataset")
p = spec_printed(out)["parameters"]
assert p["input_file"] == "/opt/ml/input/data/datasets/mine.jsonl", p
assert body(out, "CreateAIWorkloadConfig")["DatasetConfig"]["InputDataConfig"][0]["DataSource"][
    "S3DataSource"]["S3Uri"] == f"s3://b1/smfw/datasets/{want_sha}/"
print("3. public feed and custom dataset")

# 4. Refused before any call.
for bad, msg in ((["--workload-param", "bogus_knob=3"], 'unknown WorkloadSpec parameter "bogus_knob"'),
                 (["--workload-param", "request_count=-3"], "request_count"),
                 (["--workload-param", "streaming=maybe"], "streaming")):
    _, err = plan("--endpoint", "e", *bad, want_rc=1)
    assert msg in err, err
print("4. unknown and mistyped parameters refused")
PY

# 5. With credentials (the mock): everything resolved, nothing created.
start_mock
"$SMFW" --backend managed --endpoint mock-endpoint --request-count 40 >cred.out 2>cred.err ||
    fail "dry run with credentials" cred.out cred.err
grep -q "^  account                111122223333$" cred.out || fail "account" cred.out
grep -q "^  role                   $ROLE$" cred.out || fail "role" cred.out
grep -q "^  output location        s3://$BUCKET/benchmark-output/smfw-mock-endpoint-" cred.out || fail "bucket" cred.out
if grep -q "Not resolved" cred.out; then fail "unresolved with credentials" cred.out; fi
aws_py '
assert sm.list_ai_benchmark_jobs()["AIBenchmarkJobs"] == [], "a job was created"
assert sm.list_ai_workload_configs()["AIWorkloadConfigs"] == [], "a workload config was created"
import botocore.exceptions
try:
    s3.head_bucket(Bucket="'"$BUCKET"'")
    raise AssertionError("the default bucket was created")
except botocore.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] in ("404", "NoSuchBucket"), e.response
print("5. with credentials: resolved, and the mock holds no job, config or bucket")
'
[ -z "$(ls -A "$work/state/s3" 2>/dev/null)" ] || fail "the mock holds S3 data after a dry run"
echo "managed dry run: all checks passed"
