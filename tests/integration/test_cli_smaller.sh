#!/usr/bin/env bash
# test_cli_smaller.sh - the smaller points of the command-line contract: a
# --plugin-path that is not a folder is refused; a --url run without --model
# warns; --concurrency with --request-rate caps requests in flight (AIPerf's
# reading) and with --max-concurrency too is refused; inputs.json holds what
# was sent; --endpoint mock on the managed backend is refused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }
# rc_of NAME ARGS...: smfw ARGS, output in NAME.log; echo the exit code
rc_of() {
    local name=$1; shift
    set +e; timeout 120 "$SMFW" "$@" > "$work/$name.log" 2>&1; local rc=$?; set -e
    echo "$rc"
}
[ "$(rc_of pp config --plugin-path "$work/nonexistent")" = 1 ] || fail "--plugin-path to nothing accepted"
grep -q "option --plugin-path: $work/nonexistent is not a folder" "$work/pp.log" || fail "$(cat "$work/pp.log")"

start_mock --ttft-ms=2 --output-tokens=3
[ "$(rc_of nomodel run --url "$MOCK_URL" -n 3 -o "$work/nomodel")" = 0 ] || fail "$(cat "$work/nomodel.log")"
grep -q 'no --model: the requests carry no "model" field' "$work/nomodel.log" || fail "no --model warning"
[ "$(rc_of model run --url "$MOCK_URL" -n 3 --model m -o "$work/model")" = 0 ] || fail "$(cat "$work/model.log")"
! grep -q "no --model" "$work/model.log" || fail "--model given, still warned"

sm=(--endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1)
[ "$(rc_of cap run "${sm[@]}" --request-rate 50 --concurrency 2 -n 10 -o "$work/cap")" = 0 ] ||
    fail "$(cat "$work/cap.log")"
grep -q "at most 2 requests in flight" "$work/cap.log" || fail "the cap was not said: $(cat "$work/cap.log")"
"$SMFW_PYTHON" -c 'import json,sys
lg = json.load(open(sys.argv[1]))["input_config"]["loadgen"]
assert lg.get("concurrency") == 2 and lg.get("request_rate") == 50, lg' "$work/cap/profile_export_aiperf.json" ||
    fail "the cap is not in the AIPerf input_config"
[ "$(rc_of both run "${sm[@]}" --request-rate 50 --concurrency 2 --max-concurrency 3 -n 10 -o "$work/both")" = 1 ] ||
    fail "--concurrency and --max-concurrency with a rate accepted"
grep -q "give one of them" "$work/both.log" || fail "$(cat "$work/both.log")"

[ "$(rc_of five run "${sm[@]}" -n 5 --warmup-request-count 2 -o "$work/five")" = 0 ] || fail "$(cat "$work/five.log")"
n=$("$SMFW_PYTHON" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["data"]))' "$work/five/inputs.json")
[ "$n" = 7 ] || fail "inputs.json holds $n prompts for 2 warm-up + 5 requests"

[ "$(rc_of managedmock run --backend managed --endpoint mock --region us-east-1)" = 1 ] ||
    fail "managed --endpoint mock: $(cat "$work/managedmock.log")"
grep -q "endpoint mock" "$work/managedmock.log" || fail "$(cat "$work/managedmock.log")"

# A setting of another backend is accepted but ignored: said, not silent.
[ "$(rc_of other run "${sm[@]}" -n 2 --job-name my-job -o "$work/other")" = 0 ] || fail "$(cat "$work/other.log")"
grep -q "option --job-name is a setting of the managed backend; the direct backend ignores it" \
    "$work/other.log" || fail "another backend's setting ignored silently: $(cat "$work/other.log")"

# -q still prints the result folder, one line on stdout, for scripts.
set +e
out=$("$SMFW" run "${sm[@]}" -n 3 -q -o "$work/quiet" 2>/dev/null)
set -e
[ "$out" = "$work/quiet" ] || fail "-q printed '$out' on stdout, want the result folder"

# Progress lines: commas between the fields, the last line once, with the phase's own rate.
[ "$(rc_of progress run "${sm[@]}" -n 12 --concurrency 2 --progress lines -o "$work/progress")" = 0 ] ||
    fail "$(cat "$work/progress.log")"
final=$(grep -c "profiling: 12/12 requests" "$work/progress.log")
[ "$final" = 1 ] || fail "the last progress line is printed $final times: $(cat "$work/progress.log")"
line=$(grep "profiling: 12/12 requests" "$work/progress.log")
grep -qE "ms, [0-9]+ errors" <<< "$line" || fail "no comma after the TTFT: $line"
"$SMFW_PYTHON" -c 'import re,sys
m = re.search(r"in ([0-9.]+)s, ([0-9.]+) req/s", sys.argv[1])
secs, rate = float(m.group(1)), float(m.group(2))
assert abs(rate - 12 / secs) <= 0.1 + 0.1 * rate, (rate, 12 / secs)' "$line" ||
    fail "the last line's rate is not the phase's: $line"
echo ok
