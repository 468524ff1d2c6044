#!/usr/bin/env python3
"""direct_groundtruth.py - smfw's direct backend against smfw-mock's ground truth.

Used by test_direct_groundtruth.sh (and by hand, to measure). One attempt:
start smfw-mock with --ground-truth, run `smfw run --backend direct` against
it, stop the mock, then join every record with its ground-truth line on the
SageMaker inference id (X-Amzn-SageMaker-Inference-Id = x_request_id).

Both processes stamp CLOCK_MONOTONIC on this machine, so events are compared,
never differences taken from different origins:
  send    smfw's send start (request_start_ns)   must precede the mock's recv_ns
  first   smfw's first content arrival           vs the mock's first_token_ns
          (request_start_ns + TTFT)                 (first token's bytes handed to the socket)
  last    smfw's last response arrival            vs the mock's last_byte_ns
          (request_end_ns)
The receive delays (arrival - handed to the socket) are smfw's measurement
error: TTFT error = first delay, request latency error = last delay, ITL error
= (last delay - first delay) / (tokens - 1). The check: |error| <= 1 ms at p99
for each, and no arrival earlier than the mock's stamp by more than the
mock's own stamping slack.

Records hold wall-clock times; smfw writes the CLOCK_REALTIME - CLOCK_MONOTONIC
offset it used (smfw.client.wall_minus_monotonic_ns in profile_export_aiperf.json),
so they convert back to monotonic exactly.

A timing check on a shared machine is only meaningful when nothing else ran:
each attempt measures the CPU time other processes used meanwhile
(/proc/stat busy time minus the mock's and smfw's own). Up to --attempts
attempts run until one passes (on this 2-core VM about one quiet attempt in
six misses the 1 ms p99, see docs/performance.md). The script fails when no
attempt passed and at least one of them ran on a quiet machine; when every
attempt was disturbed (others used more than --busy-limit cores) it exits 77
(not measured) with the numbers, unless SMFW_STRICT_TIMING=1, which counts
disturbed attempts as failures.
"""
import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")


def machine_busy_s():
    """Busy CPU seconds of the whole machine (all cores) so far."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (v + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / HZ


def children_cpu_s():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def pct(values, q):
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q / 100.0
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def attempt(a, work, n):
    gt_path = os.path.join(work, f"gt{n}.jsonl")
    out = os.path.join(work, f"run{n}")
    env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDGROUNDTRUTH", AWS_SECRET_ACCESS_KEY="gt-secret",
               AWS_EC2_METADATA_DISABLED="true", AWS_CONFIG_FILE="/dev/null",
               AWS_SHARED_CREDENTIALS_FILE="/dev/null")
    for k in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL"):
        env.pop(k, None)
    taskset_mock = ["taskset", "-c", a.pin_mock] if a.pin_mock else []
    taskset_smfw = ["taskset", "-c", a.pin_smfw] if a.pin_smfw else []
    busy0, own0, t0 = machine_busy_s(), children_cpu_s(), time.monotonic()
    mock = subprocess.Popen(
        taskset_mock + [a.mock, "--listen", "127.0.0.1:0", "--endpoint", "bench",
                        "--access-key-id", env["AWS_ACCESS_KEY_ID"],
                        "--secret-access-key", env["AWS_SECRET_ACCESS_KEY"],
                        "--seed", "7", "--ground-truth", gt_path] + a.mock_args.split(),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        line = mock.stdout.readline()
        url = line.strip().split("listening on ")[-1]
        if not url.startswith("http://"):
            sys.exit(f"smfw-mock did not start: {line!r}")
        cmd = taskset_smfw + [a.smfw, "run", "--backend", "direct", "--endpoint", "bench",
                              "--endpoint-url", url, "--region", "us-east-1", "-o", out, "-q",
                              "--concurrency", str(a.concurrency), "--request-count",
                              str(a.requests), "--warmup-request-count", str(a.warmup),
                              "--report", "json"] + a.smfw_args.split()
        with open(out + ".log", "w") as log:
            rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env).returncode
    finally:
        mock.send_signal(signal.SIGTERM)
        mock.wait()
    wall = time.monotonic() - t0
    others = (machine_busy_s() - busy0) - (children_cpu_s() - own0)
    if rc != 0:
        sys.stdout.write(open(out + ".log").read())
        sys.exit(f"smfw exited {rc}")
    return analyse(a, out, gt_path, max(others, 0.0) / wall, wall)


def analyse(a, out, gt_path, others_cores, wall):
    summary = json.load(open(os.path.join(out, "profile_export_aiperf.json")))
    extras = summary["smfw"]["client"]  # the direct backend's extras object
    off = extras["wall_minus_monotonic_ns"]
    client = extras.get("client", {})
    gt = {}
    for line in open(gt_path):
        g = json.loads(line)
        gt[g["inference_id"]] = g
    recs = [json.loads(l) for l in open(os.path.join(out, "profile_export.jsonl"))]
    problems = []
    if len(recs) != a.requests:
        problems.append(f"{len(recs)} records, want {a.requests} (warm-up excluded)")
    if len(gt) != a.requests + a.warmup:
        problems.append(f"the mock saw {len(gt)} requests, want {a.requests + a.warmup}")
    d_first, d_last, e_itl, send_to_recv, tokens = [], [], [], [], a.tokens
    for r in recs:
        if "error" in r:
            problems.append(f"error record: {r['error']}")
            break
        md, m = r["metadata"], r["metrics"]
        g = gt.get(md["x_request_id"])
        if g is None:
            problems.append(f"record {md['x_request_id']} has no ground-truth line")
            break
        if g["tokens"] != tokens or g["status"] != 200:
            problems.append(f"mock sent {g['tokens']} tokens, status {g['status']}")
            break
        if m["output_sequence_length"]["value"] != tokens:
            problems.append(f"smfw counted {m['output_sequence_length']['value']} tokens")
            break
        start = md["request_start_ns"] - off
        first = start + m["time_to_first_token"]["value"] * 1e6
        last = md["request_end_ns"] - off
        lat_last = start + m["request_latency"]["value"] * 1e6
        if abs(lat_last - last) > 1000:
            problems.append("request_latency disagrees with request_end_ns")
            break
        send_to_recv.append((g["recv_ns"] - start) / 1e6)
        df, dl = (first - g["first_token_ns"]) / 1e6, (last - g["last_byte_ns"]) / 1e6
        d_first.append(df)
        d_last.append(dl)
        itl = m["inter_token_latency"]["value"]
        truth_itl = (g["last_byte_ns"] - g["first_token_ns"]) / 1e6 / (tokens - 1)
        e_itl.append(itl - truth_itl)
    res = {"records": len(recs), "others_cores": others_cores, "wall_s": wall,
           "client_cpu_s_per_1000": client.get("cpu_seconds_per_1000_requests"),
           "loop_pass_p99_ms": client.get("event_loop_pass", {}).get("p99_ms"),
           "problems": problems}
    if d_first:
        ab = lambda v: [abs(x) for x in v]
        res.update({
            "send_before_recv_min_ms": min(send_to_recv),
            "send_to_recv_p50_ms": pct(send_to_recv, 50),
            "send_to_recv_p99_ms": pct(send_to_recv, 99),
            "ttft_err_p50_ms": pct(ab(d_first), 50), "ttft_err_p99_ms": pct(ab(d_first), 99),
            "ttft_err_max_ms": max(ab(d_first)),
            "latency_err_p50_ms": pct(ab(d_last), 50), "latency_err_p99_ms": pct(ab(d_last), 99),
            "latency_err_max_ms": max(ab(d_last)),
            "itl_err_p50_ms": pct(ab(e_itl), 50), "itl_err_p99_ms": pct(ab(e_itl), 99),
            "itl_err_max_ms": max(ab(e_itl)),
            "earliest_arrival_ms": min(min(d_first), min(d_last)),
        })
        if min(send_to_recv) < 0:
            problems.append(f"a send started {-min(send_to_recv):.3f} ms after the mock "
                            "had received the request")
        worst = max(res["ttft_err_p99_ms"], res["latency_err_p99_ms"], res["itl_err_p99_ms"])
        if worst > a.limit_ms:
            problems.append(f"p99 error {worst:.3f} ms > {a.limit_ms} ms")
        # The mock stamps after send() returns: a reader on the other core may see the bytes
        # first, by the length of one send call (plus a preemption of the mock in between).
        if res["earliest_arrival_ms"] < -a.early_slack_ms:
            problems.append(f"a byte was stamped {-res['earliest_arrival_ms']:.3f} ms before "
                            "the mock handed it to the socket")
    return res


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--concurrency", type=int, default=512)
    p.add_argument("--requests", type=int, default=2048)
    p.add_argument("--warmup", type=int, default=512)
    p.add_argument("--tokens", type=int, default=8)
    p.add_argument("--mock-args", default="")
    p.add_argument("--smfw-args", default="")
    p.add_argument("--limit-ms", type=float, default=1.0)
    p.add_argument("--early-slack-ms", type=float, default=1.0)
    p.add_argument("--busy-limit", type=float, default=0.15,
                   help="cores other processes may use before an attempt counts as disturbed")
    p.add_argument("--attempts", type=int, default=3)
    p.add_argument("--time-budget", type=float, default=45)
    p.add_argument("--pin-mock", default="")
    p.add_argument("--pin-smfw", default="")
    a = p.parse_args()
    a.smfw = os.path.join(a.build, "smfw")
    a.mock = os.path.join(a.build, "tools/mock/smfw-mock")
    a.mock_args = f"--output-tokens {a.tokens} " + a.mock_args
    strict = os.environ.get("SMFW_STRICT_TIMING") == "1"
    t_start = time.monotonic()
    failed, disturbed = [], []
    for n in range(1, a.attempts + 1):
        res = attempt(a, a.work, n)
        print(json.dumps(res, sort_keys=True))
        if not res["problems"]:
            print(f"attempt {n}: ok (others used {res['others_cores']:.2f} cores)")
            return 0
        quiet = res["others_cores"] <= a.busy_limit
        (failed if quiet or strict else disturbed).append(res)
        print(f"attempt {n}: {'failed' if quiet else 'disturbed'} (others used "
              f"{res['others_cores']:.2f} cores): " + "; ".join(res["problems"]))
        if time.monotonic() - t_start > a.time_budget:
            break
        if not quiet:
            time.sleep(2)
    if failed:
        print(f"FAILED: {len(failed)} attempt(s) on a quiet machine, none passed")
        return 1
    used = ", ".join("%.2f" % r["others_cores"] for r in disturbed)
    print(f"not measured: every attempt shared the machine with other work ({used} cores); "
          "set SMFW_STRICT_TIMING=1 to assert anyway")
    return 77


if __name__ == "__main__":
    sys.exit(main())
