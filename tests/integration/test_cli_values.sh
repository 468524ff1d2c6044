#!/usr/bin/env bash
# test_cli_values.sh - one letter, one meaning, and every value checked once,
# when it is read, with where it came from: -c is --concurrency (what wrk, ab,
# hey and oha users type) and -C is --config; out-of-range values are refused
# by `smfw config` and `smfw run` alike, naming the flag, the variable or the
# file and line; the template loads back; comments and duplicate keys.
set -euo pipefail
smfw="$SMFW_BUILD_DIR/smfw"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export AWS_EC2_METADATA_DISABLED=true HOME="$work" AWS_CONFIG_FILE=/dev/null \
    AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset SMFW_BACKEND SMFW_ENDPOINT SMFW_URL OPENAI_API_KEY
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() { # expect_rc WANT cmd...
    local want=$1; shift
    set +e; "$@" >"$work/out" 2>"$work/err"; local rc=$?; set -e
    [ "$rc" -eq "$want" ] || { cat "$work/out" "$work/err" >&2; fail "$* exited $rc, want $want"; }
}
cd "$work"

# -c is --concurrency, -C is --config, in parsing, help and the man page.
expect_rc 0 "$smfw" config --changed -c 4
grep -q "^concurrency = 4 .*# flag --concurrency" out || fail "-c 4: $(cat out err)"
printf '[run]\nrequest_count = 7\n' > my.conf
expect_rc 0 "$smfw" config --changed -C my.conf
grep -q "^request_count = 7 .*# file my.conf:2" out || fail "-C my.conf: $(cat out err)"
expect_rc 0 "$smfw" run --help
grep -q -- "-c, --concurrency" out || fail "help lacks -c, --concurrency"
grep -q -- "-C, --config FILE" out || fail "help lacks -C, --config"
! grep -q -- "-c, --config" out || fail "help still gives -c to --config"
man=$SMFW_SOURCE_DIR/docs/smfw.1
grep -q -- '\\-C ", " \\-\\-config' "$man" || fail "man page lacks -C, --config"
! grep -q -- '\\-c ", " \\-\\-config' "$man" || fail "man page gives -c to --config"

# run --help starts with a short block of the options most used.
expect_rc 0 "$smfw" run --help
head -20 out | grep -q "^Most used:" || fail "run --help has no short common block first"

# compare --help and merge --help show their own options, not every run setting.
for c in compare merge; do
    expect_rc 0 "$smfw" "$c" --help
    ! grep -q -- "--concurrency" out || fail "smfw $c --help lists run settings"
done

# refuse CMD... -- WHERE: exit 1 and the message names WHERE
refuse() {
    local where=${*: -1}
    set -- "${@:1:$(($# - 1))}"
    expect_rc 1 "$@"
    grep -qF -- "$where" err || fail "$*: the refusal does not name $where: $(cat err)"
}
for cmd in config run; do
    extra=(); [ "$cmd" = run ] && extra=(--endpoint mock)
    refuse "$smfw" "$cmd" "${extra[@]}" --request-rate 0 "option --request-rate"
    refuse "$smfw" "$cmd" "${extra[@]}" --request-rate -3 "option --request-rate"
    refuse "$smfw" "$cmd" "${extra[@]}" --max-error-rate 2 "option --max-error-rate"
    refuse "$smfw" "$cmd" "${extra[@]}" --max-error-rate -1 "option --max-error-rate"
    refuse "$smfw" "$cmd" "${extra[@]}" --progress weird "option --progress"
    refuse "$smfw" "$cmd" "${extra[@]}" --duration 0 "option --duration"
    refuse "$smfw" "$cmd" "${extra[@]}" --request-timeout 0 "option --request-timeout"
    refuse "$smfw" "$cmd" "${extra[@]}" -c five "option --concurrency"
    refuse "$smfw" "$cmd" "${extra[@]}" --request-count 0 "option --request-count"
done
grep -q "not one of auto, bar, lines, none" <("$smfw" config --progress weird 2>&1) ||
    fail "--progress refusal does not list the modes"
# From a file: file and line; from the environment: the variable.
printf '[run]\n# the load\nconcurrency = five\n' > five.conf
refuse "$smfw" config -C five.conf "five.conf:3"
refuse "$smfw" run -C five.conf --endpoint mock "five.conf:3"
printf '[run]\nmax_error_rate = 2\n' > gate.conf
refuse "$smfw" config -C gate.conf "gate.conf:2"
SMFW_URL='http://[::1' refuse "$smfw" config "environment variable SMFW_URL"
refuse "$smfw" run --url 'http://[::1' "option --url"
refuse "$smfw" run --url 'http://127.0.0.1:99999' "option --url"
refuse "$smfw" run --url 'ftp://example.com' "option --url"

# The template loads back after uncommenting every key, empty defaults included.
expect_rc 0 "$smfw" config --template
sed -E 's/^# ?([a-z_]+ =)/\1/' out > all.conf
grep -q '^request_rate =' all.conf || fail "template has no request_rate line to uncomment"
expect_rc 0 "$smfw" config -C all.conf

# AIPerf's names: `smfw profile` is `smfw run`; --isl/--osl/--artifact-dir... are aliases;
# an unknown option gets the nearest known one.
expect_rc 0 "$smfw" config --changed --isl 300 --synthetic-input-tokens-stddev 5 --osl 100 \
    --artifact-dir outdir --benchmark-duration 10s
for kv in "input_tokens_mean = 300" "input_tokens_stddev = 5" "output_tokens_mean = 100" \
    "output = .*outdir" "duration = 10s"; do
    grep -q "^$kv" out || fail "AIPerf alias for $kv: $(cat out)"
done
expect_rc 0 "$smfw" profile --help
grep -q -- "--concurrency" out || fail "smfw profile is not smfw run"
refuse "$smfw" profile --concurency 4 "did you mean --concurrency?"

# smfw config shows the AWS values a run uses and their source (like `aws configure list`).
AWS_REGION=eu-west-1 expect_rc 0 "$smfw" config
grep -qE "^#   region +eu-west-1 +# env AWS_REGION" out || fail "effective region from AWS_REGION: $(cat out)"
printf '[default]\nregion = ap-south-1\n' > aws.cfg
(unset AWS_REGION AWS_DEFAULT_REGION; AWS_CONFIG_FILE=$PWD/aws.cfg expect_rc 0 "$smfw" config
 grep -qE "^#   region +ap-south-1 +# the profile in the AWS config file" out) ||
    fail "effective region from the profile: $(cat out)"

# "key = 5 # why" is a comment, as "; why" is; an unclosed [run is reported on its line;
# a key set twice is refused with both lines (a repeatable list key adds up instead).
printf '[run]\nconcurrency = 5 # five\nrequest_count = 7 ; seven\n' > comments.conf
expect_rc 0 "$smfw" config --changed -C comments.conf
grep -q "^concurrency = 5 .*# file comments.conf:2" out || fail "inline # comment kept: $(cat out)"
grep -q "^request_count = 7 .*# file comments.conf:3" out || fail "inline ; comment: $(cat out)"
printf '[run]\nconcurrency = 5\n\n[run\nrequest_count = 7\n' > unclosed.conf
refuse "$smfw" config -C unclosed.conf "unclosed.conf:4:"
printf '[run]\nconcurrency = 5\nrequest_count = 7\nconcurrency = 6\n' > twice.conf
refuse "$smfw" config -C twice.conf "twice.conf:4: [run] concurrency is set again (first on line 2)"
printf '[backend.direct]\nheader = A: one\nheader = B: two\n' > headers.conf
expect_rc 0 "$smfw" config --changed -C headers.conf
grep -q "^header = A: \*\*\*\*, B: \*\*\*\* .*# file headers.conf:3" out || fail "repeated header lines: $(cat out)"

# Config keys are the flag names and a key one backend reads is in that backend's section;
# a file with the old names still runs, each old name warned about with its line.
printf '[run]\nrequest_count = 4\nworkers = 1\n[dataset]\nsampling = sequential\n[backend.direct]\nmock_args = --output-tokens=3\n' > old.conf
expect_rc 0 "$smfw" run --endpoint mock -C old.conf -o "$work/oldnames"
for w in "old.conf:3: \[run\] workers is the old name of \[backend.direct\] workers" \
         "old.conf:5: \[dataset\] sampling is the old name of \[dataset\] dataset_sampling" \
         "old.conf:7: \[backend.direct\] mock_args is the old name of \[backend.direct\] mock_arg"; do
    grep -q "$w" err || fail "no deprecation warning '$w': $(cat err)"
done
"$SMFW_PYTHON" - "$work/oldnames/profile_export.jsonl" <<'PY' || fail "old names did not take effect"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 4, len(recs)
assert all(r["metrics"]["output_sequence_length"]["value"] == 3 for r in recs), recs[0]["metrics"]
PY
printf '[backend.direct]\nmock_arg = --output-tokens=3\nmock_args = --output-tokens=4\n' > both.conf
refuse "$smfw" config -C both.conf "both.conf:3: [backend.direct] mock_arg is set again (first on line 2)"
# A direct-backend flag on the managed backend is said to be ignored.
expect_rc 0 "$smfw" run --backend managed --endpoint ep --region us-east-1 --workers 2
grep -q "option --workers is a setting of the direct backend; the managed backend ignores it" err ||
    fail "no warning for --workers on managed: $(cat err)"
# A --tokenizer that names nothing stops the run before anything is sent (no folder, no mock).
refuse "$smfw" run --endpoint mock --tokenizer "$work/none/tokenizer.json" -o "$work/tokrun" \
    "--tokenizer $work/none/tokenizer.json: no tokenizer at"
[ ! -e "$work/tokrun" ] || fail "a run with an unloadable tokenizer wrote $work/tokrun"
! grep -q "started smfw-mock" err || fail "the mock was started before the tokenizer was loaded"
echo ok
