#!/usr/bin/env bash
# test_launch_slurm.sh - `smfw launch slurm` on a real Slurm: the test starts munged, slurmctld
# and slurmd (Debian's slurm-wlm 22.05) in a scratch folder with their own slurm.conf (one node,
# this machine, declared with 8 CPUs and OverSubscribe=FORCE so the 3 array tasks run together;
# proctrack/linuxproc, no cgroups, no accounting), submits the generated job array script with
# sbatch against smfw-mock, its results going to smfw-mock's S3 (-o s3://bench-results/slurm/),
# and checks: each array task ran shard I/3 into s3://bench-results/slurm/shard-I (record chunks
# and final files, read back with boto3); `smfw merge s3://bench-results/slurm/` holds the same
# global requests (session_num) and prompts (conversation_id) as an unsharded run of the same
# options and the same count; the merged window spans the shards' (first request to last
# response of any shard); the start spread is reported and under 50 ms.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
for t in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$t" >/dev/null || { echo "$t not installed (tools/deps.sh --test installs slurm-wlm and munge)"; exit 1; }
done

slurm="$work/slurm"
mkdir -p "$slurm/state" "$slurm/spool" "$work/jobs"
stop_slurm() {
    # The daemons are gone only when their processes are: a pid file goes before its process
    # stops writing logs and state, and a folder removed under a live writer is not empty.
    local pids="" f p
    for f in slurmctld slurmd munged; do
        [ -f "$slurm/$f.pid" ] && pids="$pids $(cat "$slurm/$f.pid")"
    done
    if [ -f "$slurm/slurm.conf" ]; then
        SLURM_CONF="$slurm/slurm.conf" scontrol shutdown >/dev/null 2>&1 || true
    fi
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    for _ in $(seq 50); do
        local alive=""
        for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ -z "$alive" ] && break
        sleep 0.1
    done
    for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
    # slurmstepd is not in a pid file; anything left of this test's jobs runs from $work.
    pkill -9 -f "slurmstepd.*$slurm" 2>/dev/null || true
}
trap 'stop_slurm; cleanup' EXIT

# munge: a fresh key and socket of our own, nothing system-wide.
dd if=/dev/urandom of="$slurm/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$slurm/munge.key"
chmod 700 "$slurm"
munged --socket="$slurm/munge.sock" --key-file="$slurm/munge.key" --pid-file="$slurm/munged.pid" \
    --log-file="$slurm/munged.log" --seed-file="$slurm/munged.seed" --force
read -r p1 p2 < <("$SMFW_PYTHON" -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
node=$(hostname -s)
cat > "$slurm/slurm.conf" <<CONF
ClusterName=smfwtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$p1
SlurmdPort=$p2
AuthType=auth/munge
AuthInfo=socket=$slurm/munge.sock
CredType=cred/munge
StateSaveLocation=$slurm/state
SlurmdSpoolDir=$slurm/spool
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/slurmctld.log
SlurmdLogFile=$slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=8 RealMemory=16384 State=UNKNOWN
PartitionName=smfw Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
cat > "$work/s3.py" <<'PY'
import sys, boto3, botocore.config
s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
                  config=botocore.config.Config(s3={"addressing_style": "path"}))
PY
# Shards of about a second: merge accepts a start spread of 2 % of the merged window (some
# 25 ms here), above the scheduling jitter of three array tasks starting at once on a busy
# 2-core machine (a 0.27 s window refused a 7.1 ms spread once, under ASan).
start_mock --ttft-ms 5:2 --itl-ms 2 --output-tokens 40
# the bucket, created by boto3 while Slurm starts
"$SMFW_PYTHON" -c "exec(open('$work/s3.py').read()); s3.create_bucket(Bucket='bench-results')" \
    "$MOCK_URL" > "$work/bucket.log" 2>&1 &
bucket_pid=$!
export SLURM_CONF="$slurm/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do sinfo -h -o %t 2>/dev/null | grep -q idle && break; sleep 0.1; done
sinfo -h -o %t | grep -q idle || { echo "slurmd did not register:"; tail -20 "$slurm"/*.log; exit 1; }

wait "$bucket_pid" || { echo "cannot create the bucket:"; cat "$work/bucket.log"; exit 1; }
common=(--backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 -q
        --concurrency 6 --request-count 90 --random-seed 11)
# The run options go through the shell quoting of the script: one with a quote and a $.
# -o with a trailing '/': each shard still writes s3://bench-results/slurm/shard-I.
"$SMFW" launch slurm "${common[@]}" --extra-inputs "note:it's \$HOME" --shards 3 --start-at +6s \
    --program "$SMFW" --name smfw-launch-test -o s3://bench-results/slurm/ --memory 512 > "$work/job.sh"
grep -q -- '--array=1-3' "$work/job.sh"
grep -qF "'s3://bench-results/slurm'/shard-\"\$shard\"" "$work/job.sh" || { cat "$work/job.sh"; exit 1; }
(cd "$work/jobs" && sbatch -Q "$work/job.sh")
for _ in $(seq 600); do
    [ -z "$(squeue -h)" ] && break
    sleep 0.2
done
[ -z "$(squeue -h)" ] || { echo "the array did not finish:"; squeue; exit 1; }

rc=$(run_direct "$work/whole" --concurrency 6 --request-count 90 --random-seed 11 --extra-inputs "note:it's \$HOME")
[ "$rc" = 0 ] || { echo "unsharded run exited $rc"; cat "$work/whole.log"; exit 1; }
"$SMFW" merge --endpoint-url "$MOCK_URL" --region us-east-1 s3://bench-results/slurm/ -o "$work/merged" \
    > "$work/merge.log" 2>&1 || {
    echo "smfw merge s3://bench-results/slurm/ failed:"; cat "$work/merge.log" "$work"/jobs/*.out
    tail -20 "$slurm"/slurmd.log; exit 1; }
cat "$work/merge.log"
grep -q "start spread" "$work/merge.log"
for i in 1 2 3; do
    grep -q "^s3://bench-results/slurm/shard-$i: 30 records (complete)" "$work/merge.log"
done

"$SMFW_PYTHON" - "$MOCK_URL" "$work" <<'PY'
import json, sys
exec(open(f"{sys.argv[2]}/s3.py").read())
w = sys.argv[2]
def get(key):
    return s3.get_object(Bucket="bench-results", Key=key)["Body"].read().decode()
def records(d):
    text = get(f"{d}/profile_export.jsonl") if d.startswith("slurm/") else open(f"{w}/{d}/profile_export.jsonl").read()
    return [json.loads(l) for l in text.splitlines()]
def seq(recs):
    return {r["metadata"]["session_num"]: r["metadata"]["conversation_id"] for r in recs}
whole, merged = records("whole"), records("merged")
assert len(whole) == 90 and len(merged) == 90, (len(whole), len(merged))
assert not any("error" in r for r in merged)
assert seq(merged) == seq(whole), "the merged shards' requests or prompts differ from the unsharded run's"
keys = [o["Key"] for p in s3.get_paginator("list_objects_v2").paginate(Bucket="bench-results", Prefix="slurm/")
        for o in p.get("Contents", [])]
starts, ends = [], []
for i in (1, 2, 3):
    names = {k.split("/", 2)[2] for k in keys if k.startswith(f"slurm/shard-{i}/")}
    for n in ("shard.txt", "records-000001.jsonl", "profile_export.jsonl", "profile_export_aiperf.json", "inputs.json"):
        assert n in names, (i, n, sorted(names))
    assert get(f"slurm/shard-{i}/shard.txt") == f"{i}/3\n"
    info = json.loads(get(f"slurm/shard-{i}/profile_export_aiperf.json"))["smfw"]
    assert info["shard"] == f"{i}/3", info["shard"]
    st = info["client"]["start"]
    assert "at" in st and "clock" in st and "host" in st, st
    recs = records(f"slurm/shard-{i}")
    assert len(recs) == 30, (i, len(recs))
    starts.append(min(r["metadata"]["request_start_ns"] for r in recs))
    ends.append(max(r["metadata"]["request_end_ns"] for r in recs))
assert {k.split("/")[1] for k in keys} == {"shard-1", "shard-2", "shard-3"}, sorted(keys)
m = json.load(open(f"{w}/merged/profile_export_aiperf.json"))
# (ns as JSON doubles: 256 ns resolution at today's epoch)
assert abs(m["min_request_timestamp"]["avg"] - min(starts)) <= 1000, (m["min_request_timestamp"], starts)
assert abs(m["max_response_timestamp"]["avg"] - max(ends)) <= 1000, (m["max_response_timestamp"], ends)
# the shell quoting kept the option's value byte for byte
assert "it's $HOME" in get("slurm/shard-1/inputs.json")
# the shards overlapped: each began before any other ended
assert max(starts) < min(ends), (starts, ends)
ms = m["smfw"]["client"]["merge"]["start"]
assert ms["barrier"] is True and ms["hosts"] == 1, ms
# Timing under a loaded machine: a bound for this host, not a benchmark claim.
assert ms["spread_ms"] < 50, f"start spread {ms['spread_ms']:.1f} ms (bound 50 ms)"
print(f"slurm array: 3 shards to S3, merged from S3: 90 requests = the unsharded run's; start spread {ms['spread_ms']:.2f} ms, "
      f"latest {ms['latest_lateness_ms']:.2f} ms after --start-at; first requests "
      f"{(max(starts) - min(starts)) / 1e6:.2f} ms apart")
PY
echo "ok"
