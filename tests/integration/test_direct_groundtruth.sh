#!/usr/bin/env bash
# test_direct_groundtruth.sh - smfw's direct backend measured against
# smfw-mock's ground truth (the mock's own CLOCK_MONOTONIC stamps of when it
# received each request and wrote each byte; the join key is the
# X-Amzn-SageMaker-Inference-Id smfw sends and records as x_request_id).
#  1. concurrency 512 over SageMaker streaming (SigV4, event stream): every
#     record joins its ground-truth line; no arrival is stamped before the
#     mock wrote it; TTFT, ITL and request latency match the ground truth
#     within 1 ms at p99 (checked strictly when the machine is not overloaded,
#     reported otherwise: on a shared 2-core box other jobs' load is not ours).
#  2. concurrency 8: aggregate throughput matches the latency model
#     (TTFT 20 ms + 15 x ITL 5 ms per 16-token answer).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

start_mock --ground-truth "$work/gt.jsonl" --ttft-ms 20 --itl-ms 5 --output-tokens 16 --split line
off1=$(clock_offset)
quiet1=$(machine_quiet)
rc=$(run_direct "$work/c512" --concurrency 512 --request-count 2048 --warmup-request-count 512)
quiet2=$(machine_quiet)
off2=$(clock_offset)
stop_mock
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/c512.log"; exit 1; }
strict=$([ "$quiet1$quiet2" = 11 ] && echo 1 || echo 0)

/usr/bin/python3 - "$work/c512" "$work/gt.jsonl" "$off1" "$off2" "$strict" <<'PY'
import json, sys
out, gtf, o1, o2, strict = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
off = (o1 + o2) / 2
slack_ms = abs(o1 - o2) / 1e6 + 0.05   # wall/mono offset drift while the run lasted
gt = {}
for line in open(gtf):
    g = json.loads(line)
    gt[g["inference_id"]] = g
recs = [json.loads(l) for l in open(out + "/profile_export.jsonl")]
assert len(recs) == 2048, f"{len(recs)} records, want 2048 (warm-up excluded)"
assert len(gt) == 2048 + 512, f"mock saw {len(gt)} requests"
err = {"ttft": [], "itl": [], "latency": []}
early = []
for r in recs:
    assert "error" not in r, r.get("error")
    md, m = r["metadata"], r["metrics"]
    g = gt[md["x_request_id"]]           # the SageMaker inference id is the join key
    assert g["tokens"] == 16 and g["status"] == 200
    assert m["output_sequence_length"]["value"] == 16
    start = md["request_start_ns"] - off
    ttft, lat = m["time_to_first_token"]["value"], m["request_latency"]["value"]
    first_seen = start + ttft * 1e6
    last_seen = start + lat * 1e6
    # Causality: smfw cannot see a byte before the mock wrote it.
    early.append(min(first_seen - g["first_token_ns"], last_seen - g["last_byte_ns"]) / 1e6)
    err["ttft"].append(ttft - (g["first_token_ns"] - g["recv_ns"]) / 1e6)
    err["latency"].append(lat - (g["last_byte_ns"] - g["recv_ns"]) / 1e6)
    err["itl"].append(m["inter_token_latency"]["value"] - (g["last_byte_ns"] - g["first_token_ns"]) / 1e6 / 15)
def p(v, q):
    v = sorted(abs(x) for x in v)
    return v[min(len(v) - 1, int(round((len(v) - 1) * q / 100)))]
print(f"earliest stamp relative to the mock's own send stamp: {min(early):+.3f} ms")
if strict:
    # The mock stamps a write when libevent reports it flushed, so a busy mock stamps late.
    assert min(early) >= -slack_ms, f"a byte was stamped {-min(early):.3f} ms before the mock sent it"
for k, v in err.items():
    print(f"{k:8s} |smfw - ground truth|  p50 {p(v, 50):7.3f} ms  p99 {p(v, 99):7.3f} ms  max {p(v, 100):7.3f} ms")
worst = max(p(v, 99) for v in err.values())
if strict:
    assert worst <= 1.0, f"p99 error {worst:.3f} ms > 1 ms"
else:
    print(f"machine overloaded (load average >= cores): p99 {worst:.3f} ms reported, not asserted")
PY

# Throughput against the latency model, at a load the mock serves on schedule.
start_mock --ttft-ms 20 --itl-ms 5 --output-tokens 16 --split line
rc=$(run_direct "$work/c8" --concurrency 8 --request-count 400 --warmup-request-count 8)
stop_mock
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/c8.log"; exit 1; }
/usr/bin/python3 - "$work/c8/profile_export_aiperf.json" "$(machine_quiet)" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rt, ot = j["request_throughput"]["avg"], j["output_token_throughput"]["avg"]
model_latency_s = (20 + 15 * 5) / 1000
want = 8 / model_latency_s
print(f"request throughput {rt:.1f}/s (model {want:.1f}), output tokens {ot:.0f}/s (model {16 * want:.0f})")
assert abs(ot / rt - 16) < 1e-6
tol = 0.10 if sys.argv[2] == "1" else 0.35
assert abs(rt - want) / want < tol, f"request throughput {rt:.1f} vs model {want:.1f}"
itl = j["inter_token_latency"]["avg"]
assert abs(itl - 5.0) < (0.25 if sys.argv[2] == "1" else 1.5), f"ITL {itl}"
PY
echo "ok"
