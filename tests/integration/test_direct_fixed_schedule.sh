#!/usr/bin/env bash
# test_direct_fixed_schedule.sh - --fixed-schedule replays a mooncake_trace's millisecond
# timestamps: the mock's receive times reproduce the trace's offsets with p99 error <= 1 ms
# (<= 2 ms at --schedule-speedup 4). The trace: ~40 requests/s on average, bursts 1 ms apart,
# idle gaps.
#
# A request's receive time is its arrival_ns in the mock's ground truth: the kernel's receive
# timestamp of its bytes, not the moment the mock got round to reading them (on a virtual
# machine an idle mock can be woken a millisecond or more late; that is the mock's delay, not
# the schedule's). smfw's sends are what is measured: they include every wake-up and
# connection setup of smfw's own.
# The error of request k is its receive offset minus the trace's, less the median of that
# difference over all requests (the one latency every request pays from smfw's send to the
# mock's read); the same against the first request alone is printed too. This test needs
# the CPU: the CPU time other processes took during each replay is measured and printed. A
# replay that misses the bound is tried again (3 tries); the test fails when no try met it and
# one missed it on a quiet machine: other processes held under half a core and the client's
# self-check saw its timer wake no later than its send polling lead plus the bound (a host that
# wakes a timer later than that, as a loaded VM under a sanitizer can, is not the schedule's
# fault). When
# every try was disturbed, the test says so and is skipped (77), never passed with a looser bound.
set -euo pipefail
. "$(dirname "$0")/test_direct_lib.bash"

"$SMFW_PYTHON" - "$work/trace.jsonl" <<'PY'
import json, random, sys
rng = random.Random(18)
t, lines = 0, []
while len(lines) < 400:
    for k in range(rng.randint(2, 6)):  # a burst, 1 ms apart
        lines.append({"timestamp": t + k, "input_length": rng.randint(20, 80), "output_length": 4})
    t += rng.randint(20, 110)
    if len(lines) in range(120, 127) or len(lines) in range(260, 267):
        t += 1500  # an idle gap
with open(sys.argv[1], "w") as f:
    for l in lines:
        f.write(json.dumps(l) + "\n")
span = lines[-1]["timestamp"] / 1000
print(f"trace: {len(lines)} requests over {span:.2f} s ({len(lines) / span:.1f}/s on average)")
PY

busy_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
# replay NAME SPEEDUP BOUND_MS: prints the verdict; returns 0 pass, 1 fail, 2 busy machine.
replay() {
    local name=$1 speedup=$2 bound=$3
    start_mock --ground-truth "$work/$name.gt" --output-tokens 4 --ttft-ms 5 --itl-ms 1
    local before t0 rc t1 after smfw_ticks mock_ticks
    before=$(busy_ticks); t0=$(date +%s%N)
    # smfw under a parent that reports its CPU time (user + system, clock ticks)
    "$SMFW_PYTHON" - "$SMFW" run --backend direct --endpoint bench --endpoint-url "$MOCK_URL" \
        --region us-east-1 -o "$work/$name" -q --dataset custom --dataset-file "$work/trace.jsonl" \
        --fixed-schedule --schedule-speedup "$speedup" --no-streaming > "$work/$name.log" 2>&1 \
        3> "$work/$name.cpu" <<'PY' || true
import os, resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
r = resource.getrusage(resource.RUSAGE_CHILDREN)
os.write(3, f"{rc} {round((r.ru_utime + r.ru_stime) * os.sysconf('SC_CLK_TCK'))}\n".encode())
PY
    t1=$(date +%s%N); after=$(busy_ticks)
    mock_ticks=$(awk '{print $14+$15}' "/proc/$mock_pid/stat")
    stop_mock
    read -r rc smfw_ticks < "$work/$name.cpu"
    [ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/$name.log"; exit 1; }
    grep -E "load: +fixed schedule \(the dataset's send times, speedup $speedup\), 40[0-9] requests" \
        "$work/$name/benchmark_summary.txt" > /dev/null &&
        grep -E "fixed schedule: [0-9.]+ % of requests sent within 1.0 ms of their recorded offset" \
            "$work/$name/benchmark_summary.txt" ||
        { echo "FAIL: the summary does not state the schedule"; cat "$work/$name/benchmark_summary.txt"; exit 1; }
    "$SMFW_PYTHON" - "$work/trace.jsonl" "$work/$name.gt" "$speedup" "$bound" \
        "$((after - before))" "$((smfw_ticks + mock_ticks))" "$(getconf CLK_TCK)" \
        "$(( (t1 - t0) / 1000000 ))" "$name" "$work/$name/profile_export_aiperf.json" <<'PY'
import json, sys
trace, gt, speedup, bound = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
busy, ours, hz, wall_ms, name = (int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]),
                                 int(sys.argv[8]), sys.argv[9])
want = [json.loads(l)["timestamp"] for l in open(trace)]
got = sorted(json.loads(l)["arrival_ns"] for l in open(gt))
assert len(got) == len(want), f"the mock received {len(got)} requests, the trace has {len(want)}"
diff = [(g - got[0]) / 1e6 - (w - want[0]) / speedup for g, w in zip(got, want)]
shift = sorted(diff)[len(diff) // 2]
def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]
err = [abs(d - shift) for d in diff]
first = [abs(d) for d in diff]
others = max(0.0, (busy - ours) / hz) / (wall_ms / 1000)
print(f"{name}: speedup {speedup:g}: error p50 {pct(err, .5):.3f} ms, p99 {pct(err, .99):.3f} ms, "
      f"max {max(err):.3f} ms (bound p99 <= {bound:g} ms; common latency {shift:.3f} ms); "
      f"against the first request alone p99 {pct(first, .99):.3f} ms")
print(f"{name}: other processes used {others:.2f} cores during the {wall_ms} ms replay "
      f"(machine busy {busy / hz:.2f} s, smfw and the mock {ours / hz:.2f} s)")
# The client's own self-check: how late its timer woke up at worst, against the lead it polls
# for sends with: a wake-up later than the lead plus the bound is the host's scheduling (the
# client cannot send before it runs), not the schedule's.
client = json.load(open(sys.argv[10]))["smfw"]["client"]["client"]
wake_late, lead = client.get("timer_wake_late_max_ms", 0), client.get("send_lead_ms", 0)
print(f"{name}: the client's timer woke up to {wake_late:.3f} ms late (send polling lead {lead:.3f} ms)")
if pct(err, .99) <= bound:
    sys.exit(0)
sys.exit(2 if others >= 0.5 or wake_late > lead + bound else 1)
PY
    return $?
}

# A miss is tried again (a burst of other work can fall inside one replay even when the
# average is low); the test fails when no try met the bound and at least one missed it on a
# quiet machine, and is skipped only when every try was disturbed.
for case in "speed1 1 1" "speed4 4 2"; do
    set -- $case
    passed=0 quiet_miss=0
    for try in 1 2 3; do
        set +e; replay "$1-$try" "$2" "$3"; result=$?; set -e
        [ "$result" = 0 ] && { passed=1; break; }
        [ "$result" = 1 ] && quiet_miss=$((quiet_miss + 1))
        echo "$1: missed the bound ($([ "$result" = 2 ] && echo "other processes were busy or the host woke the client later than its polling lead plus the bound" || echo "quiet machine")): trying again"
    done
    [ "$passed" = 1 ] && continue
    [ "$quiet_miss" -gt 0 ] && { echo "FAIL: $1 misses the bound in every try, $quiet_miss of them on a quiet machine"; exit 1; }
    echo "SKIP: $1: in all 3 tries other processes were busy or the host woke the client's timer later than its polling lead plus the bound; the bound was not checked"
    exit 77
done
echo "PASS: fixed schedule reproduces the trace's offsets"
