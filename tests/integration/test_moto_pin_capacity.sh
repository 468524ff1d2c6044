#!/usr/bin/env bash
# test_moto_pin_capacity.sh - `smfw run --pin-capacity` and `smfw sweep --pin-capacity`:
# the load goes to smfw-mock (SageMaker Runtime), DescribeEndpoint and Application Auto
# Scaling to moto_server, boto3 reads the scalable target back:
#  1. a run pins MinCapacity = MaxCapacity = the variant's desired count (2) during the load
#     (seen by boto3 while it runs) and restores 1-4 after it; the journal is gone.
#     With ScheduledScalingSuspended set (a non-default original), --suspend-scaling also
#     suspends dynamic scaling in and out during the load, scheduled scaling left as it was,
#     and puts the original SuspendedState back with the capacities; both printed.
#  2. kill -9 of a --suspend-scaling run mid-load leaves the pin, the suspension and its
#     journal; the next --pin-capacity run restores both, says so, then pins and restores
#     its own (without suspending).
#  3. kill -9 of a plain pinned run (its journal has no SuspendedState, as every pin journaled
#     before --suspend-scaling), then `smfw autoscaling restore` puts the capacities back,
#     says so and leaves the SuspendedState (changed meanwhile) alone; a second restore has
#     nothing to do. A second --pin-capacity run while one holds the pin is refused (exit 1).
#     Ctrl-C (SIGINT) mid-load: exit 130, capacity restored.
#  4. a sweep pins (and suspends) once around all its levels; --suspend-scaling without
#     --pin-capacity is a usage error (exit 1), on run, sweep and `autoscaling restore`.
#  5. an endpoint without a scalable target is refused (exit 2) before any load; a managed
#     dry run (no load) pins nothing.
#  6. every request smfw sent (moto's request recorder) validates against botocore's
#     Application Auto Scaling and SageMaker models; each SuspendedState sent has all three
#     members, and only --suspend-scaling's pins and their restores send one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_moto_lib.bash"
t_start=$(date +%s%N)
export MOTO_ENABLE_RECORDING=True MOTO_RECORDER_FILEPATH="$work/recording.jsonl"
start_moto
start_mock --endpoint bench-ep --endpoint bare-ep --ttft-ms 150 --itl-ms 5
export XDG_STATE_HOME="$work/state"
export AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME="$MOCK_URL" AWS_ENDPOINT_URL_SAGEMAKER="$MOTO_URL" \
    AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING="$MOTO_URL"
# smfw-mock checks signatures with its own key; moto takes any.
export AWS_ACCESS_KEY_ID="$MOCK_KEY" AWS_SECRET_ACCESS_KEY="$MOCK_SECRET"
boto '
for ep in ("bench-ep", "bare-ep"):
    sm.create_model(ModelName=ep + "-model", ExecutionRoleArn="arn:aws:iam::123456789012:role/SmfwTrusted",
                    PrimaryContainer={"Image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/llm:1"})
    sm.create_endpoint_config(EndpointConfigName=ep + "-config", ProductionVariants=[{
        "VariantName": "AllTraffic", "ModelName": ep + "-model", "InitialInstanceCount": 2,
        "InstanceType": "ml.g4dn.xlarge"}])
    sm.create_endpoint(EndpointName=ep, EndpointConfigName=ep + "-config")
aas.register_scalable_target(ServiceNamespace="sagemaker", ResourceId="endpoint/bench-ep/variant/AllTraffic",
                             ScalableDimension="sagemaker:variant:DesiredInstanceCount", MinCapacity=1, MaxCapacity=4)
'
capacity() { # "MIN MAX" of bench-ep's target, as moto holds it
    boto '
t = aas.describe_scalable_targets(ServiceNamespace="sagemaker", ResourceIds=["endpoint/bench-ep/variant/AllTraffic"])
print("%d %d" % (t["ScalableTargets"][0]["MinCapacity"], t["ScalableTargets"][0]["MaxCapacity"]))
'
}
suspended() { # "IN OUT SCHEDULED" of bench-ep's SuspendedState (a member absent: false)
    boto '
s = aas.describe_scalable_targets(ServiceNamespace="sagemaker", ResourceIds=["endpoint/bench-ep/variant/AllTraffic"])["ScalableTargets"][0].get("SuspendedState") or {}
print(" ".join(str(bool(s.get(k))).lower() for k in ("DynamicScalingInSuspended", "DynamicScalingOutSuspended", "ScheduledScalingSuspended")))
'
}
set_suspended() { # set_suspended IN OUT SCHEDULED (Python booleans): as an owner would, capacity untouched
    boto "
aas.register_scalable_target(ServiceNamespace='sagemaker', ResourceId='endpoint/bench-ep/variant/AllTraffic',
                             ScalableDimension='sagemaker:variant:DesiredInstanceCount',
                             SuspendedState={'DynamicScalingInSuspended': $1, 'DynamicScalingOutSuspended': $2,
                                             'ScheduledScalingSuspended': $3})
"
}
journal="$work/state/smfw/autoscaling/us-east-1_endpoint_bench-ep_variant_AllTraffic.pin.json"
run_opts=(--endpoint bench-ep --dataset synthetic --progress none)

# ---- 1. pin around a run, seen from outside during the load --------------------------------
"$SMFW" run "${run_opts[@]}" --pin-capacity --request-count 40 --concurrency 2 -o run1 \
    >run1.out 2>run1.err &
pid=$!
seen=
for _ in $(seq 100); do
    [ "$(capacity)" = "2 2" ] && { seen=1; break; }
    sleep 0.1
done
wait "$pid" || fail "run with --pin-capacity" run1.out run1.err
[ -n "$seen" ] || fail "the target was never 2-2 during the run" run1.out run1.err
[ "$(capacity)" = "1 4" ] || fail "after the run the target is $(capacity), not 1 4" run1.out
grep -q "pinned endpoint/bench-ep/variant/AllTraffic (sagemaker:variant:DesiredInstanceCount): MinCapacity 1 -> 2, MaxCapacity 4 -> 2" run1.out ||
    fail "the pin was not printed" run1.out
grep -q "restored endpoint/bench-ep/variant/AllTraffic (sagemaker:variant:DesiredInstanceCount): MinCapacity 2 -> 1, MaxCapacity 2 -> 4" run1.out ||
    fail "the restore was not printed" run1.out
[ ! -e "$journal" ] || fail "the journal stayed after a clean run" run1.out
grep -q "Request Count" run1.out || fail "no results" run1.out
echo "run: pinned 1-4 -> 2-2 during the load (boto3 saw it), restored 1-4"

# ---- 1b. --suspend-scaling: SuspendedState suspended with the pin, the original put back -----
set_suspended False False True # a non-default original: scheduled scaling suspended by the owner
[ "$(suspended)" = "false false true" ] || fail "moto did not take the SuspendedState: $(suspended)"
"$SMFW" run "${run_opts[@]}" --pin-capacity --suspend-scaling --request-count 40 --concurrency 2 \
    -o runs >runs.out 2>runs.err &
pid=$!
seen=
for _ in $(seq 100); do
    [ "$(capacity) $(suspended)" = "2 2 true true true" ] && { seen=1; break; }
    sleep 0.1
done
wait "$pid" || fail "run with --pin-capacity --suspend-scaling" runs.out runs.err
[ -n "$seen" ] || fail "the target was never 2-2 with dynamic scaling suspended during the run" runs.out runs.err
[ "$(capacity) $(suspended)" = "1 4 false false true" ] ||
    fail "after the run the target is $(capacity) $(suspended), not 1 4 false false true" runs.out
grep -q "^pinned endpoint/bench-ep/variant/AllTraffic (sagemaker:variant:DesiredInstanceCount): MinCapacity 1 -> 2, MaxCapacity 4 -> 2, DynamicScalingInSuspended false -> true, DynamicScalingOutSuspended false -> true, ScheduledScalingSuspended true -> true$" runs.out ||
    fail "the pin and suspension were not printed" runs.out
grep -q "^restored endpoint/bench-ep/variant/AllTraffic (sagemaker:variant:DesiredInstanceCount): MinCapacity 2 -> 1, MaxCapacity 2 -> 4, DynamicScalingInSuspended true -> false, DynamicScalingOutSuspended true -> false, ScheduledScalingSuspended true -> true$" runs.out ||
    fail "the restore of the SuspendedState was not printed" runs.out
[ ! -e "$journal" ] || fail "the journal stayed after a clean --suspend-scaling run" runs.out
echo "run --suspend-scaling: dynamic scaling suspended during the load (boto3 saw it), scheduled left suspended; original SuspendedState back"

# ---- 2. kill -9 mid-load; the next --pin-capacity run restores the stale pin ----------------
kill_mid_run() { # kill_mid_run NAME [FLAG...] : start a long pinned run, kill -9 it once pinned and loading
    local name=$1
    shift
    "$SMFW" run "${run_opts[@]}" --pin-capacity "$@" --request-count 400 --concurrency 2 -o "$name" \
        >"$name.out" 2>"$name.err" &
    local p=$!
    for _ in $(seq 100); do [ "$(capacity)" = "2 2" ] && break; sleep 0.1; done
    sleep 1
    kill -9 "$p"
    wait "$p" 2>/dev/null || true
    [ "$(capacity)" = "2 2" ] || fail "$name: not pinned when killed ($(capacity))" "$name.out" "$name.err"
    [ -f "$journal" ] || fail "$name: no journal after kill -9" "$name.out" "$name.err"
    grep -q '"original_max_capacity": 4' "$journal" || fail "$name: journal lacks the originals" "$journal"
    killed_pid=$p
}
kill_mid_run killed1 --suspend-scaling
[ "$(suspended)" = "true true true" ] || fail "killed1: not suspended when killed ($(suspended))" killed1.out
grep -q '"original_suspended_state"' "$journal" || fail "killed1: journal lacks the SuspendedState" "$journal"
"$SMFW_PYTHON" - "$journal" <<'PY' || fail "killed1: the journal's SuspendedState is not the original" "$journal"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["original_suspended_state"] == {"DynamicScalingInSuspended": False, "DynamicScalingOutSuspended": False,
                                         "ScheduledScalingSuspended": True}, j
assert j["pinned_suspended_state"]["DynamicScalingInSuspended"] is True, j
PY
"$SMFW" run "${run_opts[@]}" --pin-capacity --request-count 4 --concurrency 1 -o run2 \
    >run2.out 2>run2.err || fail "the run after kill -9" run2.out run2.err
grep -q "endpoint/bench-ep/variant/AllTraffic was still pinned by an earlier smfw (pid $killed_pid) that did not restore it; restored: MinCapacity 2 -> 1, MaxCapacity 2 -> 4, DynamicScalingInSuspended true -> false, DynamicScalingOutSuspended true -> false, ScheduledScalingSuspended true -> true$" run2.err ||
    fail "the stale pin and suspension were not reported" run2.err
grep -q "MinCapacity 1 -> 2, MaxCapacity 4 -> 2$" run2.out || fail "run 2 did not pin from the restored values (or suspended)" run2.out
[ "$(capacity) $(suspended)" = "1 4 false false true" ] || fail "after run 2: $(capacity) $(suspended)" run2.out run2.err
[ ! -e "$journal" ] || fail "journal left after run 2" run2.out
echo "kill -9 mid-load left 2-2 and dynamic scaling suspended; the next --pin-capacity run restored 1-4 and the original SuspendedState first and said so"

# ---- 3. kill -9, then smfw autoscaling restore; Ctrl-C ----------------------------------------
kill_mid_run killed2
# A journal without a SuspendedState (a plain pin; so were all before --suspend-scaling): its
# restore puts back the capacities only, whatever the SuspendedState is by then.
grep -q '"original_suspended_state"' "$journal" && fail "a plain pin journaled a SuspendedState" "$journal"
set_suspended True False True
"$SMFW" autoscaling restore --endpoint bench-ep >restore.out 2>restore.err || fail "restore" restore.out restore.err
grep -q "was still pinned by an earlier smfw (pid $killed_pid) that did not restore it; restored: MinCapacity 2 -> 1, MaxCapacity 2 -> 4$" restore.err ||
    fail "restore did not say so" restore.err
[ "$(capacity) $(suspended)" = "1 4 true false true" ] || fail "after restore: $(capacity) $(suspended)" restore.err
set_suspended False False True
"$SMFW" autoscaling restore --endpoint bench-ep >restore2.out 2>restore2.err || fail "second restore" restore2.err
grep -q "nothing to restore" restore2.out || fail "second restore: not said" restore2.out
"$SMFW" run "${run_opts[@]}" --pin-capacity --request-count 400 --concurrency 2 -o intr \
    >intr.out 2>intr.err &
pid=$!
for _ in $(seq 100); do [ "$(capacity)" = "2 2" ] && break; sleep 0.1; done
sleep 1
# A second benchmark while the first holds the pin: refused, the pin left alone.
set +e
"$SMFW" run "${run_opts[@]}" --pin-capacity --request-count 4 -o second >second.out 2>second.err
rc2=$?
set -e
[ "$rc2" -eq 1 ] || fail "a second pinned run during one: exit $rc2, not 1" second.out second.err
grep -q "is pinned by a running smfw (pid $pid" second.err || fail "the second run did not say why" second.err
[ "$(capacity)" = "2 2" ] || fail "the refused second run changed the pin: $(capacity)" second.err
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
[ "$rc" -eq 130 ] || fail "Ctrl-C: exit $rc, not 130" intr.out intr.err
[ "$(capacity)" = "1 4" ] || fail "after Ctrl-C: $(capacity)" intr.out intr.err
grep -q "MinCapacity 2 -> 1, MaxCapacity 2 -> 4" intr.out || fail "Ctrl-C: restore not printed" intr.out
echo "kill -9 then smfw autoscaling restore: 1-4 again; a second pin refused; Ctrl-C: exit 130, restored"

# ---- 4. a sweep pins once around its levels ---------------------------------------------------
"$SMFW" sweep "${run_opts[@]}" --pin-capacity --concurrency 1,2 --request-count 4 -o sweep \
    >sweep.out 2>sweep.err || fail "sweep --pin-capacity" sweep.out sweep.err
[ "$(grep -c '^pinned endpoint/bench-ep' sweep.out)" -eq 1 ] || fail "sweep: not one pin" sweep.out
[ "$(grep -c '^restored endpoint/bench-ep' sweep.out)" -eq 1 ] || fail "sweep: not one restore" sweep.out
[ "$(capacity)" = "1 4" ] || fail "after the sweep: $(capacity)" sweep.out
echo "sweep: one pin around both levels, restored"
"$SMFW" sweep "${run_opts[@]}" --pin-capacity --suspend-scaling --concurrency 1,2 --request-count 4 \
    -o sweeps >sweeps.out 2>sweeps.err || fail "sweep --pin-capacity --suspend-scaling" sweeps.out sweeps.err
[ "$(grep -c '^pinned endpoint/bench-ep.*DynamicScalingInSuspended false -> true' sweeps.out)" -eq 1 ] ||
    fail "sweep --suspend-scaling: not one pin with the suspension" sweeps.out
[ "$(grep -c '^restored endpoint/bench-ep.*DynamicScalingInSuspended true -> false' sweeps.out)" -eq 1 ] ||
    fail "sweep --suspend-scaling: not one restore of it" sweeps.out
[ "$(capacity) $(suspended)" = "1 4 false false true" ] || fail "after the sweep: $(capacity) $(suspended)" sweeps.out
echo "sweep --suspend-scaling: one pin and suspension around both levels, restored"
# --suspend-scaling rides on the pin: alone it is a usage error, before anything is sent.
for cmd in run sweep; do
    set +e
    "$SMFW" $cmd "${run_opts[@]}" --suspend-scaling --concurrency 1 --request-count 4 -o "alone-$cmd" \
        >"alone-$cmd.out" 2>"alone-$cmd.err"
    rc=$?
    set -e
    [ "$rc" -eq 1 ] || fail "$cmd --suspend-scaling alone: exit $rc, not 1" "alone-$cmd.out" "alone-$cmd.err"
    grep -q -- "--suspend-scaling suspends the scaling policies of the target --pin-capacity holds: pass --pin-capacity too" "alone-$cmd.err" ||
        fail "$cmd --suspend-scaling alone: not said" "alone-$cmd.err"
    [ ! -e "alone-$cmd" ] || fail "$cmd --suspend-scaling alone still ran" "alone-$cmd.out"
done
set +e
"$SMFW" autoscaling restore --endpoint bench-ep --suspend-scaling >alone-r.out 2>alone-r.err
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "autoscaling restore --suspend-scaling: exit $rc, not 1" alone-r.out alone-r.err
grep -q -- "--suspend-scaling goes with pin" alone-r.err || fail "restore --suspend-scaling: not said" alone-r.err
[ "$(capacity) $(suspended)" = "1 4 false false true" ] || fail "after the usage errors: $(capacity) $(suspended)"
echo "--suspend-scaling without --pin-capacity: exit 1 on run and sweep, and with restore; nothing changed"

# ---- 5. no scalable target: refused before any load ----------------------------------------
set +e
"$SMFW" run --endpoint bare-ep --dataset synthetic --progress none --pin-capacity --request-count 4 \
    -o bare >bare.out 2>bare.err
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "no scalable target: exit $rc, not 2" bare.out bare.err
grep -q "endpoint/bare-ep/variant/AllTraffic (sagemaker:variant:DesiredInstanceCount) is not a scalable target in us-east-1" bare.err ||
    fail "no scalable target: not said" bare.err
[ ! -e bare ] || fail "a refused run still ran" bare.out
echo "no scalable target: refused (exit 2) before any load"
# A managed dry run sends no load: nothing pinned, nothing changed.
AWS_ENDPOINT_URL="$MOTO_URL" "$SMFW" run --backend managed --endpoint bench-ep --pin-capacity \
    --request-count 2 --role-arn "arn:aws:iam::$ACCOUNT:role/SmfwTrusted" --bucket smfw-pin \
    >dry.out 2>dry.err || fail "managed dry run with --pin-capacity" dry.out dry.err
grep -q "a managed dry run sends no load: not pinned" dry.out || fail "dry run: not said" dry.out
grep -q "^pinned" dry.out && fail "a dry run pinned" dry.out
[ "$(capacity)" = "1 4" ] || fail "after the dry run: $(capacity)" dry.out
echo "managed dry run: not pinned"

# ---- 6. every request smfw sent, against botocore's models --------------------------------
"$SMFW_PYTHON" - "$SMFW_TESTDATA_DIR/awsmodels" "$work/recording.jsonl" <<'PY'
import base64, collections, json, sys
from botocore.model import ServiceModel
from botocore.validate import validate_parameters
root = sys.argv[1]
models = {"AnyScaleFrontendService": ServiceModel(json.load(open(f"{root}/application-autoscaling/2016-02-06/service-2.json")),
                                                 service_name="application-autoscaling"),
          "SageMaker": ServiceModel(json.load(open(f"{root}/sagemaker/2017-07-24/service-2.json")),
                                    service_name="sagemaker")}
seen = collections.Counter()
members = {"DynamicScalingInSuspended", "DynamicScalingOutSuspended", "ScheduledScalingSuspended"}
for line in open(sys.argv[2]):
    r = json.loads(line)
    h = {k.lower(): v for k, v in r["headers"].items()}
    if "smfw" not in h.get("user-agent", "") or "x-amz-target" not in h:
        continue
    prefix, op = h["x-amz-target"].split(".", 1)
    body = base64.b64decode(r["body"]) if r.get("body_encoded") else (r["body"] or "").encode()
    req = json.loads(body)
    validate_parameters(req, models[prefix].operation_model(op).input_shape)
    seen[op] += 1
    if "SuspendedState" in req:
        assert set(req["SuspendedState"]) == members, req
        seen[op + " with SuspendedState"] += 1
want = {"DescribeScalableTargets", "RegisterScalableTarget", "DescribeEndpoint"}
# pin and restore of 1b, of killed1 and of the sweep: six, no other (a plain pin sends none)
assert seen["RegisterScalableTarget with SuspendedState"] == 6, seen
assert want <= set(seen), seen
print("valid against botocore's models: " + ", ".join(f"{k} x{v}" for k, v in sorted(seen.items())))
PY
echo "test_moto_pin_capacity OK against moto $MOTO_VERSION in $((($(date +%s%N) - t_start) / 1000000)) ms"
