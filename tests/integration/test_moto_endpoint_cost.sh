#!/usr/bin/env bash
# test_moto_endpoint_cost.sh - what an endpoint left running costs: `smfw endpoint-cost`
# and the block every `smfw run` / `smfw sweep` of a SageMaker endpoint ends with. The
# endpoint, its config (three variants: 2 x ml.g4dn.xlarge, 1 x ml.c5.2xlarge, 1 x
# ml.p3.2xlarge, which conf/prices.conf leaves out; moto 5.2.1's instance-type enum predates
# G5 and P5) and its models are moto's, made by boto3; the load goes to smfw-mock (SageMaker
# Runtime).
#  1. `smfw endpoint-cost`: one line per variant, count x type x the price conf/prices.conf
#     gives (read here from the file, not from smfw), the priced total per hour and per day,
#     the p3 variant named without a price; the delete commands for the endpoint, its config
#     and each model, with the region; exit 0.
#  2. `smfw run --endpoint bench-ep` ends with the same block; `-q` prints none and asks
#     nothing (no DescribeEndpointConfig reached moto); `--endpoint mock` neither.
#  3. A sweep ends with it once.
#  4. An endpoint moto does not know: `smfw endpoint-cost` exits 2 naming the operation; a
#     run of it (smfw-mock serves it) keeps its results and exit 0, with a warning.
#  5. Every SageMaker request smfw sent (moto's recorder) validates against botocore's model.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
export MOTO_ENABLE_RECORDING=True MOTO_RECORDER_FILEPATH="$work/recording.jsonl"
start_moto
start_mock --endpoint bench-ep --endpoint ghost-ep
export AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME="$MOCK_URL" AWS_ENDPOINT_URL_SAGEMAKER="$MOTO_URL"
export AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET"
boto '
variants = [("AllTraffic", "ml.g4dn.xlarge", 2), ("Canary", "ml.c5.2xlarge", 1), ("Big", "ml.p3.2xlarge", 1)]
for v, t, n in variants:
    sm.create_model(ModelName="bench-" + v.lower(), ExecutionRoleArn="arn:aws:iam::123456789012:role/SmfwTrusted",
                    PrimaryContainer={"Image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/llm:1"})
sm.create_endpoint_config(EndpointConfigName="bench-config", ProductionVariants=[
    {"VariantName": v, "ModelName": "bench-" + v.lower(), "InitialInstanceCount": n, "InstanceType": t}
    for v, t, n in variants])
sm.create_endpoint(EndpointName="bench-ep", EndpointConfigName="bench-config")
'
# The expected block, from conf/prices.conf as this script reads it.
"$SMFW_PYTHON" - "$here/../../conf/prices.conf" >"$work/want.txt" <<'PY'
import sys
price, section = {}, None
for line in open(sys.argv[1]):
    line = line.split(" #", 1)[0].strip()
    if line.startswith("[") and line.endswith("]"):
        section = line[1:-1]
    elif section == "us-east-1" and "=" in line and not line.startswith("#"):
        k, v = (x.strip() for x in line.split("=", 1))
        price[k] = float(v)
rows = [("AllTraffic", "ml.g4dn.xlarge", 2), ("Canary", "ml.c5.2xlarge", 1)]
for v, t, n in rows:
    print(f"  {v}: {n} x {t} at ${price[t]:.4g}/hour = ${price[t] * n:.4g}/hour")
total = sum(price[t] * n for _, t, n in rows)
print(f"  total of the priced ${total:.4g}/hour, ${total * 24:.4g}/day")
assert "ml.p3.2xlarge" not in price, "the table now prices p3: pick another unpriced type"
PY
cat >>"$work/want.txt" <<'EOF'
Delete it when the benchmarks are done:
  aws sagemaker delete-endpoint --endpoint-name bench-ep --region us-east-1
  aws sagemaker delete-endpoint-config --endpoint-config-name bench-config --region us-east-1
  aws sagemaker delete-model --model-name bench-alltraffic --region us-east-1
  aws sagemaker delete-model --model-name bench-canary --region us-east-1
  aws sagemaker delete-model --model-name bench-big --region us-east-1
EOF
# check_block OUT : OUT.out holds the block: every wanted line, the p3 variant unpriced.
check_block() {
    grep -q "^Endpoint bench-ep (InService) is billed for as long as it runs:$" "$1.out" ||
        fail "$1: no cost block" "$1.out" "$1.err"
    while IFS= read -r line; do
        case $line in
        "  total of the priced"*) grep -qF -- "$line (/" "$1.out" || fail "$1: not \"$line (<the price table>, ...)\"" "$1.out" ;;
        *) grep -qxF -- "$line" "$1.out" || fail "$1: missing \"$line\"" "$1.out" "$work/want.txt" ;;
        esac
    done <"$work/want.txt"
    grep -qx "  Big: 1 x ml.p3.2xlarge (not in the price table)" "$1.out" ||
        fail "$1: the unpriced variant is not named" "$1.out"
}
smfw_to() { # OUT ARGS... : smfw ARGS into OUT.out / OUT.err; sets rc
    local out=$1
    shift
    set +e
    "$SMFW" "$@" >"$out.out" 2>"$out.err"
    rc=$?
    set -e
}
described() { grep -c '"DescribeEndpointConfig"' "$MOTO_RECORDER_FILEPATH" 2>/dev/null || true; }

# 1. The command.
smfw_to cost endpoint-cost --endpoint bench-ep
[ "$rc" -eq 0 ] || fail "endpoint-cost: exit $rc" cost.out cost.err
check_block cost
echo "1. endpoint-cost: per variant, total, the unpriced one named, delete commands"

# 2. A run ends with it; -q and --endpoint mock do not.
smfw_to run run --endpoint bench-ep -n 8 -c 2 -o "$work/run"
[ "$rc" -eq 0 ] || fail "run: exit $rc" run.out run.err
check_block run
tail -n 1 run.out | grep -q "delete-model --model-name bench-big" || fail "the block is not the run's last words" run.out
before=$(described)
smfw_to quiet run --endpoint bench-ep -n 8 -c 2 -q -o "$work/quiet"
[ "$rc" -eq 0 ] || fail "run -q: exit $rc" quiet.out quiet.err
grep -q "billed" quiet.out && fail "-q printed the cost block" quiet.out
smfw_to mockrun run --endpoint mock -n 8 -c 2 -o "$work/mockrun"
[ "$rc" -eq 0 ] || fail "run --endpoint mock: exit $rc" mockrun.out mockrun.err
grep -q "billed" mockrun.out && fail "--endpoint mock printed a cost block" mockrun.out
[ "$(described)" -eq "$before" ] || fail "-q or --endpoint mock asked DescribeEndpointConfig" "$MOTO_RECORDER_FILEPATH"
echo "2. run: ends with the block; -q and --endpoint mock: none, nothing asked"

# 3. A sweep ends with it once.
smfw_to sweep sweep --endpoint bench-ep --concurrency 1,2 -n 6 -o "$work/sweep"
[ "$rc" -eq 0 ] || fail "sweep: exit $rc" sweep.out sweep.err
check_block sweep
[ "$(grep -c "is billed for as long as it runs" sweep.out)" -eq 1 ] || fail "the sweep printed the block more than once" sweep.out
echo "3. sweep: the block once, at the end"

# 4. An endpoint moto does not know.
smfw_to ghost endpoint-cost --endpoint ghost-ep
[ "$rc" -eq 2 ] || fail "endpoint-cost of an unknown endpoint: exit $rc, want 2" ghost.out ghost.err
grep -q "DescribeEndpoint ghost-ep" ghost.err || fail "the failing call is not named" ghost.err
smfw_to ghostrun run --endpoint ghost-ep -n 8 -c 2 -o "$work/ghostrun"
[ "$rc" -eq 0 ] || fail "a run whose cost cannot be read: exit $rc, want 0" ghostrun.out ghostrun.err
grep -q "costs per hour could not be read" ghostrun.err || fail "no warning" ghostrun.err
[ -s "$work/ghostrun/profile_export_aiperf.json" ] || fail "the run's results are gone" ghostrun.out
echo "4. unknown endpoint: the command exits 2; a run keeps its results (exit 0, a warning)"

# 5. Every SageMaker body smfw sent is one botocore's model accepts.
PYTHONPATH="$here" "$SMFW_PYTHON" - "$SMFW_TESTDATA_DIR/awsmodels/sagemaker/2017-07-24/service-2.json" \
    "$MOTO_RECORDER_FILEPATH" <<'PY' || fail "a request body does not match botocore's model" "$MOTO_RECORDER_FILEPATH"
import base64, collections, json, sys
from botocore_check import load_model, check_body
model = load_model(sys.argv[1], "sagemaker")
seen = collections.Counter()
for line in open(sys.argv[2]):
    r = json.loads(line)
    h = {k.lower(): v for k, v in r["headers"].items()}
    if "smfw" not in h.get("user-agent", "") or not h.get("x-amz-target", "").startswith("SageMaker."):
        continue
    body = base64.b64decode(r["body"]) if r.get("body_encoded") else (r["body"] or "").encode()
    op = h["x-amz-target"].split(".", 1)[1]
    check_body(model, op, json.loads(body))
    seen[op] += 1
assert {"DescribeEndpoint", "DescribeEndpointConfig"} <= set(seen), seen
print("5. botocore's SageMaker model accepts every request smfw sent:",
      ", ".join(f"{k} x{v}" for k, v in sorted(seen.items())))
PY
echo "PASS: the hourly cost of the endpoint left running, after runs and sweeps, checked against moto and conf/prices.conf"
