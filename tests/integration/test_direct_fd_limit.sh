#!/usr/bin/env bash
# test_direct_fd_limit.sh - a run whose connections cannot fit the open-file
# limit (RLIMIT_NOFILE) stops before its first request with the configuration
# exit code (1) and a message naming the limit, the numbers and how to raise
# it; where only the soft limit is short, smfw raises it toward the hard limit
# and the run works. Limits are lowered in subshells (`ulimit`), the mock runs
# outside them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt 1024 ]; then
    echo "the hard open-file limit is $hard here; this test needs 1024 to lower from"
    exit 77
fi
start_mock --ttft-ms=0 --itl-ms=0 --output-tokens=2
sm=(run --backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 --workers 2)
# limited SOFT HARD NAME ARGS... : smfw ARGS under those limits; sets rc, log in $work/NAME.log
limited() {
    local soft=$1 hardl=$2 name=$3; shift 3
    set +e
    (ulimit -Sn "$soft" && ulimit -Hn "$hardl" && exec timeout 120 "$SMFW" "$@") \
        > "$work/$name.log" 2>&1
    rc=$?
    set -e
}
records() { # records DIR -> number of records written
    if [ -f "$1/profile_export.jsonl" ]; then wc -l < "$1/profile_export.jsonl"; else echo 0; fi
}

# 1. Hard limit 256, 1000 connections: refused before anything is sent.
limited 256 256 closed "${sm[@]}" --concurrency 1000 -n 2000 -o "$work/closed"
[ "$rc" = 1 ] || { cat "$work/closed.log"; fail "closed loop over the limit exited $rc, want 1"; }
for want in "RLIMIT_NOFILE" "--concurrency 1000 needs about 1072 open files" "is 256" \
    "hard limit 256" "ulimit -Hn 1072" "LimitNOFILE=" "at most --concurrency 184"; do
    grep -qF -- "$want" "$work/closed.log" || { cat "$work/closed.log"; fail "message lacks '$want'"; }
done
[ "$(records "$work/closed")" = 0 ] || fail "requests were sent before the refusal"
echo "ok  hard limit too small: exit 1, before any request"

# 2. The same for an open loop's cap; the soft limit is raised to the hard one first.
limited 128 256 open "${sm[@]}" --request-rate 500 --max-concurrency 1000 -n 2000 -o "$work/open"
[ "$rc" = 1 ] || { cat "$work/open.log"; fail "open loop over the limit exited $rc, want 1"; }
grep -qF -- "--max-concurrency 1000 needs about" "$work/open.log" || { cat "$work/open.log"; fail "no --max-concurrency in the message"; }
grep -qF "is 256 (the soft limit was raised to the hard one)" "$work/open.log" ||
    { cat "$work/open.log"; fail "the message does not say the soft limit was raised"; }
[ "$(records "$work/open")" = 0 ] || fail "requests were sent before the refusal"
echo "ok  open loop cap too large: exit 1"

# 3. Soft 128 < 300 connections <= hard 1024: raised, and the run works.
limited 128 1024 raised "${sm[@]}" --concurrency 300 -n 600 -o "$work/raised"
[ "$rc" = 0 ] || { cat "$work/raised.log"; fail "run with a raisable soft limit exited $rc, want 0"; }
grep -qF "raised the open-file limit (RLIMIT_NOFILE) from 128 to 1024 for 300 connections" \
    "$work/raised.log" || { cat "$work/raised.log"; fail "the raise is not reported"; }
[ "$(records "$work/raised")" = 600 ] || fail "the raised run wrote $(records "$work/raised") records, want 600"
echo "ok  soft limit raised toward the hard one: the run works"

# 4. A run bounded by its request count needs only that many connections.
limited 256 256 small "${sm[@]}" --concurrency 1000 -n 50 -o "$work/small" -q
[ "$rc" = 0 ] || { cat "$work/small.log"; fail "50 requests at --concurrency 1000 exited $rc, want 0"; }
[ "$(records "$work/small")" = 50 ] || fail "the small run wrote $(records "$work/small") records, want 50"
echo "ok  request count bounds the connections"
echo ok
