#!/usr/bin/env bash
# test_results_local.sh - `smfw results --local` on every AIPerf bundle of the
# shared fixtures: each headline number printed must equal the value in the
# bundle's profile_export_aiperf.json (read here with Python's json module,
# an independent reader; the legacy file nests metrics under "records" with
# the pre-release tags), one block per level of the concurrency sweep, the
# validity verdict and exit code (3 for the legacy run's 11% errors), the
# file tree with notes, a bundle nested as output/concurrency_<N>/ and
# --report writing reporter files for each level.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_TESTDATA_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-results.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

check() { # check OUTPUT_FILE DIR... : compare every block with its JSON
    "$SMFW_PYTHON" - "$@" <<'EOF'
import json, re, sys
out = open(sys.argv[1]).read()
dirs = sys.argv[2:]
blocks = re.split(r"\n(?=Results)", out)[1:]
assert len(blocks) == len(dirs), f"{len(blocks)} result blocks for {len(dirs)} runs:\n{out}"
alias = {"ttft": "time_to_first_token", "ttst": "time_to_second_token"}
def metrics(d):
    j = json.load(open(d + "/profile_export_aiperf.json"))
    src = j.get("records", j) if isinstance(j.get("records"), dict) else j
    return {alias.get(k, k): v for k, v in src.items() if isinstance(v, dict)}
def num(s):
    return float(s)
checked = 0
for block, d in zip(blocks, dirs):
    assert d in block.splitlines()[0], f"block for {d} is out of order:\n{block}"
    m = metrics(d)
    def line(label):
        for l in block.splitlines():
            if l.strip().startswith(label):
                return l
        raise AssertionError(f"no line {label!r} in:\n{block}")
    def same(printed, want, what):
        global checked
        assert abs(num(printed) - want) <= 0.005 + 1e-9 * abs(want), f"{d} {what}: printed {printed}, JSON {want}"
        checked += 1
    def values(label):
        # "  <Header> (<unit>)   avg [p50 p90 p99]" (smfw_run_summary_print)
        return re.findall(r"-?[0-9]+\.[0-9]+", line(label).split(")", 1)[1])
    singles = {"Output Token Throughput (": "output_token_throughput",
               "Request Throughput (": "request_throughput",
               "Benchmark Duration (": "benchmark_duration"}
    for label, tag in singles.items():
        got = values(label)
        assert len(got) == 1, f"{d}: {label!r} is not one value: {line(label)!r}"
        same(got[0], m[tag]["avg"], tag)
    dists = {"Output Token Throughput Per User (": "output_token_throughput_per_user",
             "Time to First Token (": "time_to_first_token",
             "Inter Token Latency (": "inter_token_latency",
             "Request Latency (": "request_latency"}
    for label, tag in dists.items():
        got = values(label)
        assert len(got) == 4, f"{d}: avg p50 p90 p99 missing in {line(label)!r}"
        for stat, v in zip(("avg", "p50", "p90", "p99"), got):
            same(v, m[tag][stat], f"{tag}.{stat}")
    valid = int(m["request_count"]["avg"])
    invalid = int(m["error_request_count"]["avg"]) if m.get("error_request_count") else 0
    assert float(values("Request Count (")[0]) == valid, line("Request Count (")
    if m.get("error_request_count"):
        assert float(values("Error Request Count (")[0]) == invalid, line("Error Request Count (")
    rate = invalid / (valid + invalid)
    verdict = line("validity:")
    import os
    tripped = rate > 0.01 or os.path.exists(d + "/failure_reason.txt")
    assert ("FAILED" in verdict) == tripped, verdict
print(f"{len(blocks)} blocks, {checked} numbers equal to the JSON values")
EOF
}

T="$SMFW_TESTDATA_DIR/aiperf"

# 1. The 0.10 export (count/sum fields, new input_config): passes the gate.
"$SMFW" results --local "$T/v0.10.0-qwen3.6-agent-c16" >v10.txt
check v10.txt "$T/v0.10.0-qwen3.6-agent-c16"
grep -q "profile_export_aiperf.json .*aggregated metrics" v10.txt

# 2. The legacy nested export with 11 cancelled requests: gate fails, exit 3, metrics shown.
set +e
"$SMFW" results --local "$T/legacy-2025-10-example-run1" >legacy.txt
rc=$?
set -e
[ "$rc" -eq 3 ] || { echo "legacy run: exit $rc, want 3"; cat legacy.txt; exit 1; }
check legacy.txt "$T/legacy-2025-10-example-run1"
grep -q "error rate 11.00% is above the gate" legacy.txt

# 3. The 0.3-era concurrency sweep (explicit nulls): one block per level, in order.
S="$T/2025-11-qwen3-0.6b-concurrency-sweep"
"$SMFW" results --local "$S" >sweep.txt
check sweep.txt "$S/qwen_concurrency1" "$S/qwen_concurrency2" "$S/qwen_concurrency4"
grep -q "Results at concurrency 4" sweep.txt

# 4. A managed concurrency-list bundle: output/concurrency_<N>/ with a gate failure file.
mkdir -p bundle/output/plots
for n in 2 1; do
    mkdir -p "bundle/output/concurrency_$n"
    cp "$S/qwen_concurrency$n/profile_export_aiperf.json" "bundle/output/concurrency_$n/"
done
echo "Benchmark failed: 4.2% of requests were invalid (threshold 1%)" >bundle/output/concurrency_2/failure_reason.txt
echo "ttft_timeline.png" >bundle/output/plots/summary.txt
set +e
"$SMFW" results --local bundle >nested.txt
rc=$?
set -e
[ "$rc" -eq 3 ] || { echo "nested bundle: exit $rc, want 3"; cat nested.txt; exit 1; }
check nested.txt "bundle/output/concurrency_1" "bundle/output/concurrency_2"
grep -q "validity: FAILED - Benchmark failed: 4.2% of requests were invalid" nested.txt
grep -q "summary.txt .*list of generated plots" nested.txt

# 5. --report runs the reporters, one folder per level.
"$SMFW" results --local "$S" --report=json,csv -o reports >report.txt
for n in 1 2 4; do
    [ -s "reports/concurrency_$n/profile_export_aiperf.json" ] || { echo "no json report for level $n"; ls -R reports; exit 1; }
    [ -s "reports/concurrency_$n/profile_export_aiperf.csv" ] || { echo "no csv report for level $n"; exit 1; }
done

# 6. Not a bundle: a clear sentence and a non-zero exit.
mkdir empty
if "$SMFW" results --local empty 2>err.txt; then echo "an empty folder was accepted"; exit 1; fi
grep -q "holds no AIPerf results" err.txt
echo "results --local: all checks passed"
