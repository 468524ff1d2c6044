#!/usr/bin/env bash
# test_cli_rate_bound.sh - the request rate is bounded and arrivals are never
# materialised: a rate above 1,000,000/s is refused before any request with a
# sentence that says why; at the highest accepted rate a 5-request run ends at
# once with a small footprint, and a duration-bound run whose arrivals cannot
# be sent (one slot) holds no queue of them (memory by the child's max RSS).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }

# max_rss_kb OUTDIR ARGS...: run smfw, print "rc maxrss_kb seconds"
max_rss_kb() {
    local out=$1; shift
    "$SMFW_PYTHON" - "$SMFW" "$out" "$@" <<'PY'
import resource, subprocess, sys, time
smfw, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
t0 = time.monotonic()
with open(out + ".log", "w") as log:
    try:
        rc = subprocess.run([smfw, "run", "-o", out, "-q"] + args, stdout=log, stderr=log,
                            timeout=120).returncode
    except subprocess.TimeoutExpired:
        rc = 124
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, round(time.monotonic() - t0, 1))
PY
}

# Refused: a rate no client can keep, with the reason and the flag.
set +e
"$SMFW" run --endpoint mock -n 5 --request-rate 1e12 -o "$work/huge" > "$work/huge.log" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$work/huge.log"; fail "--request-rate 1e12 exited $rc, want 1"; }
grep -q -- "--request-rate" "$work/huge.log" || fail "refusal does not name the flag: $(cat "$work/huge.log")"
grep -q "1,000,000" "$work/huge.log" || fail "refusal does not give the bound: $(cat "$work/huge.log")"
[ ! -e "$work/huge/profile_export.jsonl" ] || fail "a refused run sent requests"

# The footprint of a plain 5-request run, for comparison.
read -r rc base secs < <(max_rss_kb "$work/base" --endpoint mock -n 5 --concurrency 1)
[ "$rc" = 0 ] || { cat "$work/base.log"; fail "the baseline run exited $rc"; }
echo "5 requests, closed loop: max RSS ${base} kB"
slack=$((16 * 1024)); [ "$SMFW_SANITIZED" = 1 ] && slack=$((64 * 1024))

# The highest accepted rate with a 5-request budget ends when the budget is spent; four
# workers make connections for what can be in flight (5), not for the rate.
check_run() { # check_run NAME ARGS...: rc 0 or 3, footprint within the slack of the baseline
    local name=$1; shift
    read -r rc rss secs < <(max_rss_kb "$work/$name" --endpoint mock "$@")
    case "$rc" in 0|3) ;; *) cat "$work/$name.log"; fail "$name: exited $rc" ;; esac
    echo "$name ($*): max RSS ${rss} kB, ${secs} s"
    [ "$rss" -lt $((base + slack)) ] || fail "$name: ${rss} kB against ${base} kB for a plain run"
    "$SMFW_PYTHON" -c "import sys; sys.exit(0 if $secs < 40 else 1)" || fail "$name took ${secs} s"
}
check_run top -n 5 --request-rate 1000000 --workers 4
[ "$(wc -l < "$work/top/profile_export.jsonl")" = 5 ] || fail "-n 5 at 1e6/s did not write 5 records"
# One slot: the arrivals that cannot be sent yet are counted, never queued.
check_run one -n 5 --request-rate 1000000 --max-concurrency 1
check_run long --request-rate 1000000 --max-concurrency 1 --duration 4s --grace-period 2s \
    --max-error-rate 1 --mock-arg=--ttft-ms=20 --mock-arg=--output-tokens=2
echo ok
