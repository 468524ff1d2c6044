#!/usr/bin/env bash
# bench_throughput.sh BUILD_DIR [SECONDS] [OTHER_BUILD_DIR] - smfw-mock's non-streaming
# request rate on one core (docs/performance.md).
#
# The mock runs pinned to core 0 with the latency model off and no SigV4; wrk runs pinned
# to core 1 with keep-alive connections (-t1 -c$CONNS, default 32) and a small chat body.
# Each route is measured against the mock's cheapest route (GET /ping) in the same
# invocation, ROUNDS times (default 3) interleaved, and the medians are reported; the load
# average is printed next to every number, since the machine may be shared. Besides wrk's
# rate, the mock's own CPU time (utime+stime from /proc) gives requests per CPU-second: the
# rate one otherwise idle core would sustain, much less sensitive to other processes.
# With OTHER_BUILD_DIR (e.g. an older build), its mock is measured the same way in the same
# rounds, for a before/after comparison.
set -euo pipefail
BUILD=${1:?usage: bench_throughput.sh BUILD_DIR [SECONDS] [OTHER_BUILD_DIR]}
SECS=${2:-5}
OTHER=${3:-}
CONNS=${CONNS:-32}
ROUNDS=${ROUNDS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-mock-bench.XXXXXX")
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
declare -A url pid
start_mock() { # name build
    taskset -c 0 "$2/tools/mock/smfw-mock" --listen 127.0.0.1:0 --no-auth --ttft-ms 0 \
        --itl-ms 0 ${MOCK_ARGS:-} >"$work/$1.out" 2>"$work/$1.err" &
    pid[$1]=$!
    pids+=($!)
    for _ in $(seq 100); do [ -s "$work/$1.out" ] && break; sleep 0.05; done
    url[$1]=$(sed -n 's/^listening on //p' "$work/$1.out")
    [ -n "${url[$1]}" ] || { cat "$work/$1.err"; exit 1; }
}
mocks=(new)
start_mock new "$BUILD"
if [ -n "$OTHER" ]; then
    mocks+=(other)
    start_mock other "$OTHER"
fi
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"model":"m","messages":[{"role":"user","content":"Hello"}],"max_tokens":4}'
wrk.headers["Content-Type"] = "application/json"
LUA
TICK=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
rate() { # mock route -> "req/s req-per-cpu-second"
    local m=$1 route=$2 t0 t1 out
    local args=("${url[$m]}/ping")
    case $route in
    chat) args=(-s "$work/post.lua" "${url[$m]}/v1/chat/completions") ;;
    inv) args=(-s "$work/post.lua" "${url[$m]}/endpoints/mock-endpoint/invocations") ;;
    esac
    t0=$(cpu_ticks "${pid[$m]}")
    out=$(taskset -c 1 wrk -t1 -c"$CONNS" -d"${SECS}s" "${args[@]}")
    t1=$(cpu_ticks "${pid[$m]}")
    echo "$out" | awk -v dt=$((t1 - t0)) -v hz="$TICK" '
        / requests in / { n = $1 } /Requests\/sec/ { r = $2 }
        END { printf "%s %.0f\n", r, (dt > 0 ? n / (dt / hz) : 0) }'
}
load() { cut -d' ' -f1 /proc/loadavg; }
declare -A rates cpus
printf '%-6s %-6s %-6s %10s %12s %6s\n' round mock route "req/s" "req/CPU-s" load
for r in $(seq "$ROUNDS"); do
    for m in "${mocks[@]}"; do
        for route in ping chat inv; do
            out=$(rate "$m" "$route")
            rates[$m.$route]="${rates[$m.$route]:-} ${out% *}"
            cpus[$m.$route]="${cpus[$m.$route]:-} ${out#* }"
            printf '%-6s %-6s %-6s %10.0f %12.0f %6s\n' "$r" "$m" "$route" "${out% *}" "${out#* }" "$(load)"
        done
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "medians over $ROUNDS rounds of ${SECS}s (wrk -t1 -c$CONNS on core 1, mock on core 0):"
printf '  %-6s %-44s %10s %6s %12s %6s\n' mock route "req/s" "/ping" "req/CPU-s" "/ping"
for m in "${mocks[@]}"; do
    rp=$(echo "${rates[$m.ping]}" | median)
    cp=$(echo "${cpus[$m.ping]}" | median)
    for route in ping chat inv; do
        v=$(echo "${rates[$m.$route]}" | median)
        c=$(echo "${cpus[$m.$route]}" | median)
        case $route in
        ping) label="GET /ping (reference)" ;;
        chat) label="POST /v1/chat/completions" ;;
        inv) label="POST /endpoints/mock-endpoint/invocations" ;;
        esac
        printf '  %-6s %-44s %10.0f %6s %12.0f %6s\n' "$m" "$label" "$v" "$(ratio "$v" "$rp")" "$c" \
            "$(ratio "$c" "$cp")"
    done
done
