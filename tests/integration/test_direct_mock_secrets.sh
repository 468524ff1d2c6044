#!/usr/bin/env bash
# test_direct_mock_secrets.sh - `--endpoint mock` starts a private smfw-mock
# with random credentials and signs every request with them. The generated
# secret key must never appear in anything the run writes: stdout, stderr
# (at the most verbose log level), or any file of the output folder. The
# secret is handed to the child through its environment, never its command
# line (visible to every user in ps); the check reads it from the child's
# environment while the run is going, so it knows exactly what to look for.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

out="$work/run"
"$SMFW" run --backend direct --endpoint mock --concurrency 1 --request-count 12 \
    --mock-arg=--ttft-ms=150 --mock-arg=--output-tokens=2 --mock-arg=--fault=http-500:0.3 \
    --max-error-rate 1 --report json,csv,markdown -vv -o "$out" \
    > "$work/stdout" 2> "$work/stderr" &
smfw_pid=$!
secret= akid=
for _ in $(seq 200); do
    child=$(pgrep -P "$smfw_pid" -x smfw-mock || true)
    if [ -n "$child" ] && [ -r "/proc/$child/environ" ]; then
        args=$(tr '\0' '\n' < "/proc/$child/cmdline")
        secret=$(tr '\0' '\n' < "/proc/$child/environ" | sed -n 's/^SMFW_MOCK_SECRET_ACCESS_KEY=//p')
        akid=$(printf '%s\n' "$args" | grep -A1 -x -- --access-key-id | tail -1)
        if [ -n "$secret" ]; then
            ! printf '%s\n' "$args" | grep -qF -- "$secret" ||
                { echo "the secret is on the mock's command line"; exit 1; }
            break
        fi
    fi
    sleep 0.05
done
set +e
wait "$smfw_pid"
rc=$?
set -e
[ -n "$secret" ] || { echo "could not see the mock's generated secret"; cat "$work/stderr"; exit 1; }
[ "$rc" = 0 ] || { echo "smfw exited $rc"; cat "$work/stderr"; exit 1; }
[ ${#secret} -ge 32 ] || { echo "generated secret is too short: ${#secret} characters"; exit 1; }
case "$akid" in AKIDSMFWMOCK*) ;; *) echo "unexpected access key id $akid"; exit 1 ;; esac
[ -s "$out/profile_export.jsonl" ] || { echo "no records"; exit 1; }
grep -q '"error"' "$out/profile_export.jsonl" || { echo "the fault run produced no error record"; exit 1; }
grep -q "started smfw-mock" "$work/stderr" || { echo "-vv printed nothing useful"; exit 1; }
if grep -rlF -- "$secret" "$out" "$work/stdout" "$work/stderr"; then
    echo "the generated secret key leaked into the files above"
    exit 1
fi
echo "secret (${#secret} characters) in none of $(find "$out" -type f | wc -l) output files, stdout or stderr"
echo "ok"
