#!/usr/bin/env bash
# test_cli_secrets.sh - a distinctive secret in every place a credential can
# enter (AWS access key, secret key and session token; --api-key; -H; a header
# in the config file; URL userinfo; URL query values) and in none of the bytes
# that any command prints or writes: stdout and stderr at -vv, every file of
# the output folders, of `results`, `compare`, `merge` and `config`. A
# malformed -H is refused without being echoed. The managed backend and
# `results --job`/`--s3` too, against smfw-mock's SageMaker and S3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }

akid=AKIDQZ7ACCESSKEYX9 secret=qz7-aws-secret-key-x9 token=qz7-session-token-x9
apikey=qz7-api-key-x9 hval=qz7-header-value-x9 cval=qz7-config-header-x9
upw=qz7-url-password-x9 uuser=qz7-url-user-x9 qkey=qz7-query-key-x9 qsig=qz7-query-sig-x9
badh=qz7-malformed-bearer-x9 cookie=qz7-cookie-x9
secrets=("$akid" "$secret" "$token" "$apikey" "$hval" "$cval" "$upw" "$uuser" "$qkey" "$qsig" "$badh"
    "$cookie")
export AWS_ACCESS_KEY_ID=$akid AWS_SECRET_ACCESS_KEY=$secret AWS_SESSION_TOKEN=$token
start_mock --ttft-ms=1 --output-tokens=3
hostport=${MOCK_URL#http://}
printf '[run]\nheader = X-Gateway: %s\n' "$cval" > "$work/smfw.conf"
cd "$work"
log="$work/all.log"
: > "$log"
# each CMD...: run it at -vv, stdout and stderr into the log; any exit code but a crash
each() {
    set +e
    "$SMFW" "$@" -vv >> "$log" 2>&1
    local rc=$?
    set -e
    [ "$rc" -lt 124 ] || fail "smfw $* exited $rc"
    echo "smfw $1: exit $rc" >> "$work/rcs"
}
url="http://$uuser:$upw@$hostport/v1/chat/completions?key=$qkey&sig=$qsig"
each run --url "$url" --api-key "$apikey" -H "X-Team-Token: $hval" -H "Cookie: session=$cookie" \
    -n 6 --concurrency 2 --report json,csv,markdown,html -o "$work/http"
OPENAI_API_KEY=$apikey each run --url "$url" -n 4 -o "$work/http2" --model m
each run --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 -n 6 --concurrency 2 \
    --report json,csv,markdown,html -o "$work/sm"
each run --url "http://$uuser:$upw@127.0.0.1:1/?code=$qkey" -n 3 -o "$work/down"
each run --url "$url" -H "Authorization Bearer $badh" -n 2 -o "$work/bad"
grep -q 'header 1 is not "Name: value"\|header 2 is not "Name: value"\|header .* is not "Name: value"' "$log" ||
    fail "the malformed -H was not refused"
each results --local "$work/http" --report html -o "$work/res-html"
# `results --report html` reads as `run --report html` does (it was "unexpected argument").
[ -s "$work/res-html/report.html" ] || { tail -5 "$log"; fail "results --local DIR --report html wrote no report.html"; }
each results "$work/sm"
each compare "$work/http" "$work/http2"
each compare "$work/http" "$work/sm" --format json
each merge "$work/http" "$work/http2" -o "$work/merged"
each config
each config --changed --url "$url" --api-key "$apikey" -H "X-Team-Token: $hval"
each sweep --url "$url" --concurrency 1,2 -n 4 -o "$work/sweep"
# The managed backend (a benchmark job on smfw-mock's SageMaker, its bundle from the mock's
# S3, all signed with the planted keys and token) and `results --job` / `results --s3`.
role=arn:aws:iam::111122223333:role/SageMakerExecutionRole
each run --backend managed --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 \
    --role-arn "$role" --poll-interval 0.1s --request-count 6 --concurrency 2 --run -o "$work/managed"
job=$(sed -n 's/.*launched benchmark job \([^ ]*\) .*/\1/p' "$log" | head -1)
[ -n "$job" ] && [ -s "$work/managed/output.tar.gz" ] || { tail -20 "$log"; fail "the managed run fetched no bundle"; }
each results --job "$job" --endpoint-url "$MOCK_URL" --region us-east-1 -o "$work/res-job"
[ -s "$work/res-job/output.tar.gz" ] || { tail -20 "$log"; fail "results --job fetched no bundle"; }
s3uri=$(grep -o "s3://[^ ]*$job[^ ]*output.tar.gz" "$log" | head -1)
[ -n "$s3uri" ] || s3uri=$(grep -o "s3://sagemaker-[^ ]*/" "$log" | head -1)
[ -n "$s3uri" ] || { tail -20 "$log"; fail "no S3 location of the bundle in the log"; }
each results --s3 "$s3uri" --endpoint-url "$MOCK_URL" --region us-east-1 -o "$work/res-s3"
[ -n "$(find "$work/res-s3" -name profile_export_aiperf.json)" ] ||
    { tail -20 "$log"; fail "results --s3 $s3uri fetched no bundle"; }
echo "managed job $job, results --job and results --s3 $s3uri read back"
grep -qi "x-amz-security-token" "$log" || fail "the -vv traces show no session-token header: nothing was checked there"
[ -s "$work/http/profile_export.jsonl" ] && [ -s "$work/sm/profile_export.jsonl" ] ||
    { cat "$log"; fail "the runs wrote no records"; }
found=0
for s in "${secrets[@]}"; do
    hits=$(grep -rlaF --exclude=smfw.conf -- "$s" "$work" || true)
    if [ -n "$hits" ]; then
        echo "secret $s leaked into: $hits"
        found=1
    fi
done
[ "$found" = 0 ] || { cat "$work/rcs"; fail "secrets leaked"; }
grep -q "key=\*\*\*\*" "$work/http/profile_export_aiperf.json" || fail "the query key's name was not kept"
cat "$work/rcs"
echo "none of ${#secrets[@]} secrets in $(find "$work" -type f | wc -l) files, stdout or stderr"
echo ok
