#!/usr/bin/env bash
# test_cli_disk_full.sh - a result file that stops taking writes mid-run (a full
# disk; here a file-size limit, with SIGXFSZ ignored so write() fails with EFBIG as
# on ENOSPC) stops the run at once with the file and the reason, instead of
# sending every request and noticing after the run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }
start_mock --ttft-ms=1 --output-tokens=3
"$SMFW_PYTHON" - "$SMFW" "$MOCK_URL" "$work/full" <<'PY' > "$work/result" 2> "$work/full.err" || true
import resource, signal, subprocess, sys, time
smfw, url, out = sys.argv[1:4]
def limit():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)       # write() fails instead of a kill
    resource.setrlimit(resource.RLIMIT_FSIZE, (1_500_000, 1_500_000))
t0 = time.monotonic()
p = subprocess.run([smfw, "run", "--endpoint", "bench", "--endpoint-url", url, "--region",
                    "us-east-1", "-n", "100000", "--concurrency", "4", "-o", out, "-q",
                    "--report", "json"], preexec_fn=limit, capture_output=True, text=True,
                   timeout=300)
sys.stderr.write(p.stderr)
print(p.returncode, round(time.monotonic() - t0, 1))
PY
read -r rc secs < "$work/result"
echo "exit $rc after $secs s"
[ "$rc" = 1 ] || { cat "$work/full.err"; fail "a file that cannot be written: exit $rc, want 1"; }
grep -q "File too large\|No space left" "$work/full.err" || fail "the reason is not named: $(tail -5 "$work/full.err")"
grep -q "profile_export.jsonl\|outputs.json" "$work/full.err" || fail "the file is not named: $(tail -5 "$work/full.err")"
# 100000 requests take minutes; the run must stop when the file stopped taking writes.
"$SMFW_PYTHON" -c "import sys; sys.exit(0 if $secs < 30 else 1)" ||
    fail "the run went on for $secs s after the disk filled"
echo ok
