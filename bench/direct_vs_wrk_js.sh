#!/usr/bin/env bash
# direct_vs_wrk_js.sh - smfw's direct backend against two reference clients,
# all in one invocation against one smfw-mock, so the numbers are ratios on
# the same machine at the same moment (testing.md: never a bare absolute):
#   non-streaming: smfw direct (--url, OpenAI route, stream false) vs wrk,
#                  both for DURATION seconds
#   streaming:     smfw direct (SageMaker InvokeEndpointWithResponseStream,
#                  SigV4 + event stream) vs the AWS SDK for JavaScript v3 and boto3
#                  (threads, as users run it; BOTO_REQUESTS of them, the GIL is slow)
# For each: requests/s, client CPU-seconds per 1000 requests, peak memory (RSS) per
# request in flight, and the smfw/reference ratios.
# usage: bench/direct_vs_wrk_js.sh [BUILD_DIR]
#        (env: CONC=64 REQUESTS=4000 DURATION=10 BOTO_REQUESTS=1000)
# Prints the load average before and after: other work on the machine changes the numbers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${SMFW_BUILD_DIR:-$here/../build}}
CONC=${CONC:-64} REQUESTS=${REQUESTS:-4000} DURATION=${DURATION:-10}
BOTO_REQUESTS=${BOTO_REQUESTS:-1000}
SMFW="$build/smfw" MOCK="$build/tools/mock/smfw-mock"
for x in "$SMFW" "$MOCK"; do [ -x "$x" ] || { echo "missing $x (build first)"; exit 1; }; done
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)"; exit 1; }
export AWS_ACCESS_KEY_ID=AKIDBENCH AWS_SECRET_ACCESS_KEY=bench-secret-key-0123456789
export AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-bench.XXXXXX")
mock_pid=
trap '[ -n "$mock_pid" ] && kill $mock_pid 2>/dev/null; rm -rf "$work"' EXIT

"$MOCK" --listen 127.0.0.1:0 --endpoint bench --ttft-ms 1 --itl-ms 1 --output-tokens 8 \
    --split line --access-key-id "$AWS_ACCESS_KEY_ID" --secret-access-key "$AWS_SECRET_ACCESS_KEY" \
    > "$work/mock.out" 2> "$work/mock.err" &
mock_pid=$!
for _ in $(seq 100); do grep -q listening "$work/mock.out" && break; sleep 0.05; done
URL=$(head -1 "$work/mock.out" | sed 's/.*listening on //')
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# cpu_of CMD... : run, print "<cpu seconds of the command and its children> <wall seconds>
# <peak RSS in KiB of the largest of them>"
cpu_of() {
    "${SMFW_PYTHON:-python3}" - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], check=True, stdout=open(sys.argv[0] and "/dev/stderr", "w"))
w = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{r.ru_utime + r.ru_stime:.3f} {w:.3f} {r.ru_maxrss}")
PY
}

# ---- non-streaming: smfw vs wrk on the OpenAI route --------------------------------
body='{"messages":[{"role":"user","content":"Say something about benchmarks."}],"model":"m","stream":false,"max_completion_tokens":8}'
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
LUA
read -r wcpu wwall wrss < <(cpu_of wrk -t1 -c"$CONC" -d"${DURATION}s" -s "$work/post.lua" "$URL/v1/chat/completions" 2>"$work/wrk.out")
wreq=$(awk '/requests in/ {print $1}' "$work/wrk.out")
[ -n "$wreq" ] || { wrk -t1 -c"$CONC" -d"${DURATION}s" -s "$work/post.lua" "$URL/v1/chat/completions" > "$work/wrk.out"; wreq=$(awk '/requests in/ {print $1}' "$work/wrk.out"); }
# Same duration as wrk, so smfw's start-up (dataset, inputs.json) and reports weigh as little.
read -r scpu swall srss < <(cpu_of "$SMFW" run --backend direct --url "$URL" --model m --no-streaming \
    --concurrency "$CONC" --duration "${DURATION}s" --workers 1 -o "$work/nostream" -q --report json)
sreq=$(wc -l < "$work/nostream/profile_export.jsonl")

# ---- streaming: smfw vs the JS SDK on InvokeEndpointWithResponseStream -------------
read -r jcpu jwall jrss < <(cpu_of node "$here/js_stream_client.mjs" "$URL" bench "$CONC" "$REQUESTS")
read -r bcpu bwall brss < <(cpu_of "${SMFW_PYTHON:-python3}" "$here/boto3_stream_client.py" "$URL" bench "$CONC" "$BOTO_REQUESTS")
read -r dcpu dwall drss < <(cpu_of "$SMFW" run --backend direct --endpoint bench --endpoint-url "$URL" \
    --region us-east-1 --concurrency "$CONC" --request-count "$REQUESTS" --workers 1 \
    -o "$work/stream" -q --report json)

"${SMFW_PYTHON:-python3}" - "$wreq" "$wcpu" "$wwall" "$sreq" "$scpu" "$swall" "$REQUESTS" "$jcpu" "$jwall" \
    "$dcpu" "$dwall" "$CONC" "$work" "$BOTO_REQUESTS" "$bcpu" "$bwall" "$wrss" "$srss" "$jrss" "$brss" \
    "$drss" <<'PY'
import json, sys
a = sys.argv[1:]
wreq, wcpu, wwall, sreq, scpu, swall, n, jcpu, jwall, dcpu, dwall = map(float, a[:11])
conc, work = a[11], a[12]
nb, bcpu, bwall = map(float, a[13:16])
wrss, srss, jrss, brss, drss = (int(x) / 1024 for x in a[16:21])  # MiB
def rps(d):  # request throughput smfw measured itself, cross-checked by wall time
    return json.load(open(f"{work}/{d}/profile_export_aiperf.json"))["request_throughput"]["avg"]
c = int(conc)
rows = [  # (path, ref, its req/s, CPU-s/1000, MiB per stream, smfw's req/s, CPU-s/1000, MiB)
    ("non-streaming", "wrk", wreq / wwall, 1000 * wcpu / wreq, wrss / c,
     sreq / swall, 1000 * scpu / sreq, srss / c),
    ("streaming", "JS SDK v3", n / jwall, 1000 * jcpu / n, jrss / c, n / dwall, 1000 * dcpu / n, drss / c),
    ("streaming", "boto3 1.43", nb / bwall, 1000 * bcpu / nb, brss / c, n / dwall, 1000 * dcpu / n, drss / c),
]
print(f"concurrency {conc}, one smfw-mock (TTFT 1 ms, ITL 1 ms, 8 tokens), wall-clock rates incl. start-up")
print("memory: the client's peak RSS over the requests in flight (whole process / concurrency)")
print(f"{'path':14s} {'client':12s} {'req/s':>9s} {'CPU-s/1000 req':>15s} {'MiB/stream':>11s}")
for path, ref, rr, rc, rm, mr, mc, mm in rows:
    print(f"{path:14s} {ref:12s} {rr:9.1f} {rc:15.3f} {rm:11.3f}")
    print(f"{'':14s} {'smfw direct':12s} {mr:9.1f} {mc:15.3f} {mm:11.3f}   ratio smfw/{ref}: req/s "
          f"x{mr / rr:.2f}, CPU per request x{mc / rc:.2f}, memory per stream x{mm / rm:.2f}")
print(f"(smfw's own request_throughput: non-streaming {rps('nostream'):.1f}/s, streaming {rps('stream'):.1f}/s)")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
