#!/usr/bin/env bash
# test_managed_levels.sh - concurrency lists with the managed backend against
# smfw-mock (2 decoding slots, so higher levels queue).
#  1. `--concurrency 1,2,4 --run`: one job; exit 0; one headline block per
#     level, each equal to that level's JSON in the bundle; the run folder
#     holds concurrency_<N>/ with the level's records and every configured
#     reporter's files (no top-level report mixing the levels); `smfw
#     results --local` on the folder shows the three levels with the same
#     numbers and `smfw sweep --from` reads it.
#  2. `smfw sweep --backend managed --concurrency 1,2 --run`: one job, the
#     sweep table and sweep.{md,csv,json,html}, each level's throughput
#     equal to the bundle's.
#  3. `--sla time_to_first_token:70 --sla-concurrency 1,2,4`: goodput SLOs
#     in the spec; levels 1 and 2 meet them, 4 (queueing) does not; the
#     highest level meeting the SLA is named.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_managed_lib.bash"

# TTFT 20 ms and ~90 ms answers: a 45 ms SLO sits far from both the unqueued and the
# queued TTFT, so a loaded machine cannot move a level across it.
start_mock --ttft-ms 20 --itl-ms 10 --max-concurrency 2

# 1. A concurrency list through `smfw --backend managed --run`.
managed list --endpoint mock-endpoint --concurrency 1,2,4 --request-count 16 \
    --report json,csv,markdown,html --run
expect_rc 0 list
B=list/bundle/output
check_numbers list $B/concurrency_1/profile_export_aiperf.json $B/concurrency_2/profile_export_aiperf.json \
    $B/concurrency_4/profile_export_aiperf.json
for n in 1 2 4; do
    for f in profile_export_aiperf.json profile_export_aiperf.csv summary.md report.html profile_export.jsonl; do
        [ -s "list/concurrency_$n/$f" ] || fail "list/concurrency_$n/$f missing" list.err
    done
    cmp -s "list/concurrency_$n/profile_export.jsonl" "$B/concurrency_$n/profile_export.jsonl" ||
        fail "level $n records differ from the bundle's"
    grep -q "managed benchmark job $(job_of list), concurrency $n" "list/concurrency_$n/summary.md" ||
        fail "level $n report does not name the job and level" "list/concurrency_$n/summary.md"
done
[ ! -e list/profile_export_aiperf.json ] || fail "a top-level report mixes the levels"
# Reports were written beside the bundle, never into it: its files are the tarball's bytes.
"$SMFW_PYTHON" - <<'PY'
import tarfile
with tarfile.open("list/output.tar.gz") as t:
    n = 0
    for m in t.getmembers():
        if m.isfile():
            assert t.extractfile(m).read() == open("list/bundle/" + m.name, "rb").read(), m.name
            n += 1
print(f"bundle: {n} files identical to the downloaded tarball")
PY
[ "$(grep -c '^Results at concurrency' list.out)" -eq 3 ] || fail "not one block per level" list.out
"$SMFW" results --local list >res.out 2>res.err || fail "results --local list" res.out res.err
check_numbers res $B/concurrency_1/profile_export_aiperf.json $B/concurrency_2/profile_export_aiperf.json \
    $B/concurrency_4/profile_export_aiperf.json
"$SMFW" sweep --from list >from.out 2>from.err || fail "sweep --from list" from.out from.err
grep -q "^| 4 |" from.out || fail "sweep --from: no level 4" from.out

# 2. smfw sweep with the managed backend: one job with the list.
set +e
"$SMFW" sweep --backend managed --endpoint mock-endpoint --poll-interval 0.1s --role-arn "$ROLE" \
    --concurrency 1,2 --request-count 16 --run -o sw >sw.out 2>sw.err
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "sweep: exit $rc" sw.out sw.err
[ "$(grep -c "launched benchmark job" sw.err)" -eq 1 ] || fail "sweep launched more than one job" sw.err
for f in sweep.md sweep.csv sweep.json sweep.html concurrency_1/profile_export_aiperf.json \
    concurrency_2/profile_export_aiperf.json; do
    [ -s "sw/$f" ] || fail "sw/$f missing" sw.err
done
"$SMFW_PYTHON" - <<'PY'
import json, re
out = open("sw.out").read()
rows = {int(m.group(1)): float(m.group(2)) for m in
        re.finditer(r"^\| (\d+) \|(?:[^|]*\|){4} ([0-9.]+) \|", out, re.M)}
assert sorted(rows) == [1, 2], rows
for n, tps in rows.items():
    j = json.load(open(f"sw/bundle/output/concurrency_{n}/profile_export_aiperf.json"))
    assert abs(tps - j["output_token_throughput"]["avg"]) <= 0.05 + 1e-9, (n, tps, j["output_token_throughput"])
print("2. sweep table levels 1, 2 equal to the bundle's throughput")
PY

# 3. Max concurrency under an SLA.
managed sla --endpoint mock-endpoint --sla time_to_first_token:70 --sla-concurrency 1,2,4 \
    --request-count 20 --run
expect_rc 0 sla
grep -q "Highest concurrency meeting the SLA (90% of requests within every SLO): 2$" sla.out ||
    fail "SLA verdict" sla.out sla.err
aws_py '
job = sm.describe_ai_benchmark_job(AIBenchmarkJobName=sys.argv[1])
cfg = sm.describe_ai_workload_config(AIWorkloadConfigName=job["AIWorkloadConfigIdentifier"].split("/")[-1])
p = json.loads(cfg["AIWorkloadConfigs"]["WorkloadSpec"]["Inline"])["parameters"]
assert p["concurrency"] == [1, 2, 4] and p["goodput"] == "time_to_first_token:70", p
for n, meets in ((1, True), (2, True), (4, False)):
    j = json.load(open(f"sla/bundle/output/concurrency_{n}/profile_export_aiperf.json"))
    frac = j["good_request_count"]["avg"] / j["request_count"]["avg"]
    assert (frac >= 0.9) == meets, (n, frac)
print("3. SLA: goodput in the spec, levels 1 and 2 meet it, 4 does not")
' "$(job_of sla)"
echo "managed concurrency lists against smfw-mock: all checks passed"
