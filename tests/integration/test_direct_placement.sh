#!/usr/bin/env bash
# test_direct_placement.sh - a direct run against a SageMaker endpoint records where the load
# generator ran, from EC2 instance metadata (imds_fake.py: eu-west-1, eu-west-1b), in
# smfw.client.placement, and warns when that is not the endpoint's region; asked beside the
# run with a 300 ms limit per request, so an address where nothing answers in time costs the
# run nothing (its records are the same requests, the run about as long); with
# AWS_EC2_METADATA_DISABLED=true nothing is sent; --endpoint mock (local) never asks.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $1"; [ -n "${2:-}" ] && cat "$2"; exit 1; }

echo v2 >"$work/mode"
"$SMFW_PYTHON" "$here/imds_fake.py" serve "$work/port" "$work/req.log" "$work/mode" 2>"$work/fake.err" &
fake_pid=$!
trap 'kill $fake_pid 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || fail "the fake did not start" "$work/fake.err"
export AWS_EC2_METADATA_SERVICE_ENDPOINT="http://127.0.0.1:$(cat "$work/port")"
start_mock --ttft-ms 5 --itl-ms 1 --output-tokens 8
common=(--concurrency 2 --request-count 16 -v)
placement() { # DIR: the recorded placement as "region zone source", or "none"
    "$SMFW_PYTHON" -c 'import json,sys; p=json.load(open(sys.argv[1]))["smfw"]["client"].get("placement")
print("none" if p is None else " ".join((p["region"], p["availability_zone"], p["source"])))' \
        "$1/profile_export_aiperf.json"
}

# 1. On "EC2" in eu-west-1, against an endpoint in us-east-1: recorded, and a warning.
: >"$work/req.log"
rc=$(AWS_EC2_METADATA_DISABLED=false run_direct "$work/ec2" "${common[@]}")
[ "$rc" = 0 ] || fail "run on EC2: exit $rc" "$work/ec2.log"
[ "$(placement "$work/ec2")" = "eu-west-1 eu-west-1b EC2 instance metadata" ] ||
    fail "placement: $(placement "$work/ec2")" "$work/ec2.log"
grep -q "warning: .*the load generator ran in eu-west-1 (eu-west-1b, EC2 instance metadata) and the endpoint is in us-east-1.*run the load generator on EC2 in us-east-1" "$work/ec2.log" ||
    fail "no cross-region warning" "$work/ec2.log"
grep -q '"PUT", "path": "/latest/api/token"' "$work/req.log" && grep -q '/latest/meta-data/placement/availability-zone' "$work/req.log" ||
    fail "not asked with IMDSv2" "$work/req.log"

# 3. Metadata that never answers in time: no placement, no delay beyond the run's own.
echo hang >"$work/mode"
t0=$(date +%s%N)
rc=$(AWS_EC2_METADATA_DISABLED=false run_direct "$work/hang" "${common[@]}")
t1=$(date +%s%N)
[ "$rc" = 0 ] || fail "hanging metadata: exit $rc" "$work/hang.log"
[ "$(placement "$work/hang")" = none ] || fail "a placement from a service that did not answer" "$work/hang.log"
[ $(((t1 - t0) / 1000000)) -lt 2400 ] || fail "the run waited for the metadata ($(((t1 - t0) / 1000000)) ms)" "$work/hang.log"
[ "$(wc -l <"$work/hang/profile_export.jsonl")" -eq 16 ] || fail "records lost" "$work/hang.log"

# 4. Disabled: nothing sent. --endpoint mock: never asked.
echo v2 >"$work/mode"
: >"$work/req.log"
rc=$(run_direct "$work/off" "${common[@]}")
[ "$rc" = 0 ] && [ "$(placement "$work/off")" = none ] || fail "disabled metadata" "$work/off.log"
set +e
AWS_EC2_METADATA_DISABLED=false "$SMFW" run --endpoint mock -q -n 8 -o "$work/mock" >"$work/mock.log" 2>&1
r=$?
set -e
[ "$r" = 0 ] && [ "$(placement "$work/mock")" = none ] || fail "--endpoint mock asked" "$work/mock.log"
[ ! -s "$work/req.log" ] || fail "requests reached the metadata service" "$work/req.log"
# 5. The same region (a mock that signs as eu-west-1): recorded, no warning.
start_mock --ttft-ms 5 --itl-ms 1 --output-tokens 8 --region eu-west-1
rc=$(AWS_EC2_METADATA_DISABLED=false run_direct "$work/same" "${common[@]}" --region eu-west-1)
[ "$rc" = 0 ] || fail "same region: exit $rc" "$work/same.log"
[ "$(placement "$work/same")" = "eu-west-1 eu-west-1b EC2 instance metadata" ] || fail "same-region placement" "$work/same.log"
! grep -q "the load generator ran in" "$work/same.log" || fail "a warning in the same region" "$work/same.log"

echo "PASS: the load generator's placement is recorded, compared and never waited for"
