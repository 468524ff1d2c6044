#!/usr/bin/env bash
# test_direct_interrupt.sh - Ctrl-C during a direct run, and its progress display.
#  1. one Ctrl-C: no new request is sent, those in flight finish normally
#     within the grace period, every finished request is written, exit 130,
#     the aggregates say was_cancelled;
#  2. a second Ctrl-C aborts the requests in flight at once: each becomes a
#     499 RequestCancellationError record with was_cancelled: true;
#  3. one Ctrl-C with a short --grace-period: what is still running when the
#     grace ends is recorded the same way;
#  4. on a terminal the progress is one status line redrawn in place ("\r"),
#     at most ~10 times a second; without one, plain "smfw: ..." lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

# interrupt NAME DELAYS ARGS... : run in the background, SIGINT after each delay, echo exit code
interrupt() {
    local name=$1 delays=$2
    shift 2
    "$SMFW" run --backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 \
        -o "$work/$name" -q --concurrency 4 --request-count 1000 "$@" \
        > "$work/$name.log" 2>&1 &
    local pid=$!
    for d in $delays; do
        sleep "$d"
        kill -INT "$pid"
    done
    set +e
    wait "$pid"
    local rc=$?
    set -e
    echo "$rc"
}

check() { # check NAME WANT_VALID WANT_CANCELLED
    "$SMFW_PYTHON" - "$work/$1" "$2" "$3" <<'PY'
import json, sys
d, valid, cancelled = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
recs = [json.loads(l) for l in open(d + "/profile_export.jsonl")]
ok = [r for r in recs if "error" not in r]
cx = [r for r in recs if r.get("error", {}).get("type") == "RequestCancellationError"]
assert len(ok) == valid and len(cx) == cancelled and len(recs) == valid + cancelled, \
    f"{d}: {len(ok)} valid, {len(cx)} cancelled of {len(recs)}; want {valid} + {cancelled}"
for r in cx:
    assert r["error"]["code"] == 499 and r["metadata"]["was_cancelled"] is True, r
for r in ok:
    assert r["metadata"]["was_cancelled"] is False
agg = json.load(open(d + "/profile_export_aiperf.json"))
assert agg["was_cancelled"] is True
print(f"{d.rsplit('/', 1)[1]}: {len(ok)} finished, {len(cx)} cancelled (499), was_cancelled")
PY
}

start_mock --ttft-ms 1500 --itl-ms 1 --output-tokens 4 --split line
t0=$(date +%s.%N)
rc=$(interrupt one 0.5)
t1=$(date +%s.%N)
[ "$rc" = 130 ] || { echo "one Ctrl-C: exit $rc, want 130"; cat "$work/one.log"; exit 1; }
grep -q "interrupted" "$work/one.log"
check one 4 0
"$SMFW_PYTHON" -c "import sys; d = $t1 - $t0; assert 1.2 < d < 10, d; print(f'one Ctrl-C: {d:.1f} s')"

start_mock --ttft-ms 20000 --itl-ms 1 --output-tokens 4 --split line
t0=$(date +%s.%N)
rc=$(interrupt two "0.5 0.3")
t1=$(date +%s.%N)
[ "$rc" = 130 ] || { echo "two Ctrl-C: exit $rc, want 130"; cat "$work/two.log"; exit 1; }
check two 0 4
"$SMFW_PYTHON" -c "import sys; d = $t1 - $t0; assert d < 8, d; print(f'two Ctrl-C: {d:.1f} s')"

rc=$(interrupt grace 0.5 --grace-period 1s)
[ "$rc" = 130 ] || { echo "Ctrl-C with a 1 s grace: exit $rc, want 130"; cat "$work/grace.log"; exit 1; }
check grace 0 4
stop_mock

# Progress: a terminal gets a status line redrawn in place; a pipe gets plain lines.
start_mock --ttft-ms 20 --itl-ms 2 --output-tokens 4 --split line
args=(run --backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1
      --concurrency 4 --request-count 240)
script -qfec "$(printf '%q ' "$SMFW" "${args[@]}" -o "$work/tty") 2>&1" /dev/null \
    > "$work/tty.out" < /dev/null
"$SMFW" "${args[@]}" -o "$work/pipe" > "$work/pipe.out" 2>&1
stop_mock
"$SMFW_PYTHON" - "$work/tty.out" "$work/pipe.out" <<'PY'
import re, sys
tty = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
pipe = open(sys.argv[2]).read()
redraws = re.findall(r"\r\x1b\[K(profiling: \d+/240 requests[^\r\n]*)", tty)
assert len(redraws) >= 3, f"{len(redraws)} status-line redraws on the terminal:\n{tty!r}"
done = [int(re.match(r"profiling: (\d+)", r).group(1)) for r in redraws]
assert done == sorted(done) and done[-1] == 240, done
assert "\x1b[K" not in pipe and "\r" not in pipe, "terminal control codes in piped output"
lines = [l for l in pipe.splitlines() if l.startswith("smfw: profiling: ")]
assert lines and "240/240 requests" in lines[-1], pipe
print(f"terminal: {len(redraws)} redraws of one status line; pipe: {len(lines)} plain lines")
PY
echo "ok"
