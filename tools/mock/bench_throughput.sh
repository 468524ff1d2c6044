#!/usr/bin/env bash
# bench_throughput.sh BUILD_DIR [SECONDS] - smfw-mock's non-streaming request rate on one
# core (docs/performance.md). The mock runs pinned to core 0 with the latency model off and
# no SigV4; wrk runs pinned to core 1 with keep-alive connections. Each route is measured
# against the mock's cheapest route (GET /ping) in the same invocation, and the load
# average is printed next to every number, since the machine may be shared.
set -euo pipefail
BUILD=${1:?usage: bench_throughput.sh BUILD_DIR [SECONDS]}
SECS=${2:-5}
CONNS=${CONNS:-32}
MOCK="$BUILD/tools/mock/smfw-mock"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-mock-bench.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
taskset -c 0 "$MOCK" --listen 127.0.0.1:0 --no-auth --ttft-ms 0 --itl-ms 0 ${MOCK_ARGS:-} \
    >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do [ -s "$work/out" ] && break; sleep 0.05; done
URL=$(sed -n 's/^listening on //p' "$work/out")
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"model":"m","messages":[{"role":"user","content":"Hello"}],"max_tokens":4}'
wrk.headers["Content-Type"] = "application/json"
LUA
rate() { # route, extra wrk args
    taskset -c 1 wrk -t1 -c"$CONNS" -d"${SECS}s" "$@" | awk '/Requests\/sec/ {print $2}'
}
load() { cut -d' ' -f1 /proc/loadavg; }
ROUNDS=${ROUNDS:-3}
declare -A all
printf '%-6s %-44s %10s %6s\n' round route "req/s" load
for r in $(seq "$ROUNDS"); do
    for route in ping chat inv; do
        case $route in
        ping) v=$(rate "$URL/ping") ;;
        chat) v=$(rate -s "$work/post.lua" "$URL/v1/chat/completions") ;;
        inv) v=$(rate -s "$work/post.lua" "$URL/endpoints/mock-endpoint/invocations") ;;
        esac
        all[$route]="${all[$route]:-} $v"
        printf '%-6s %-44s %10.0f %6s\n' "$r" "$route" "$v" "$(load)"
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mp=$(echo "${all[ping]}" | median)
mc=$(echo "${all[chat]}" | median)
mi=$(echo "${all[inv]}" | median)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "medians over $ROUNDS rounds of ${SECS}s (wrk -t1 -c$CONNS, mock on core 0, wrk on core 1):"
printf '  %-46s %10.0f  1.00\n' "GET /ping (reference)" "$mp"
printf '  %-46s %10.0f  %s\n' "POST /v1/chat/completions" "$mc" "$(ratio "$mc" "$mp")"
printf '  %-46s %10.0f  %s\n' "POST /endpoints/mock-endpoint/invocations" "$mi" "$(ratio "$mi" "$mp")"
