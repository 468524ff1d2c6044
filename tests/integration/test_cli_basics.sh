#!/usr/bin/env bash
# The CLI contract of the foundation: dispatch, help, exit codes, config
# provenance and masking, `smfw --backend NAME` as `smfw run`, plugin listing.
set -euo pipefail
smfw="$SMFW_BUILD_DIR/smfw"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() { # expect_rc WANT cmd...
  local want=$1; shift
  set +e; "$@" >"$work/out" 2>"$work/err"; local rc=$?; set -e
  [ "$rc" -eq "$want" ] || { cat "$work/out" "$work/err" >&2; fail "$* exited $rc, want $want"; }
}
cd "$work"

expect_rc 0 "$smfw" --version
grep -q "^smfw [0-9]\+\.[0-9]\+\.[0-9]\+ (plugin ABI 2\.[0-9]\+)$" out || fail "--version: $(cat out)"
expect_rc 0 "$smfw" help
for c in run plugins config version help; do grep -q "^  $c " out || fail "help lacks $c"; done
expect_rc 1 "$smfw"
expect_rc 1 "$smfw" no-such-command
grep -q 'unknown command "no-such-command"' err || fail "unknown command message"

# Every command answers --help; run's help lists core and plugin settings.
expect_rc 0 "$smfw" run --help
grep -q -- "--concurrency" out || fail "run --help lacks --concurrency"
grep -q -- "--region" out || fail "run --help lacks --region"
grep -q -- "--\[no-\]streaming" out || fail "run --help lacks --[no-]streaming"
expect_rc 0 "$smfw" help plugins

# Usage errors exit 1 with a sentence naming the option.
expect_rc 1 "$smfw" run --concurency 4
grep -q -- "--concurency" err || fail "typo not named: $(cat err)"
expect_rc 1 "$smfw" run --request-count lots
grep -q 'option --request-count: \[run\] request_count: "lots" is not an integer' err ||
  fail "bad value message: $(cat err)"

# `smfw --backend NAME` is `smfw run`: an unknown backend is a configuration error.
expect_rc 1 "$smfw" --backend nosuch
grep -q 'no backend plugin named "nosuch"' err || fail "unknown backend: $(cat err)"

# Config: precedence and provenance; secrets masked.
cat >smfw.conf <<'CONF'
[run]
concurrency = 3
request_count = 40
CONF
OPENAI_API_KEY=sk-secret-value-123 expect_rc 0 "$smfw" config --changed --request-count 7
grep -q "^concurrency = 3 .*# file smfw.conf:2" out || fail "file provenance: $(cat out)"
grep -q "^request_count = 7 .*# flag --request-count" out || fail "flag precedence: $(cat out)"
grep -q "^api_key = \*\*\*\* .*# env OPENAI_API_KEY" out || fail "secret not masked: $(cat out)"
! grep -q "sk-secret-value-123" out err || fail "secret leaked"
printf '[run]\nconcurency = 3\n' >bad.conf
expect_rc 1 "$smfw" config -C bad.conf
grep -q 'bad.conf:2: unknown key "concurency" in section \[run\]' err || fail "bad key: $(cat err)"

# The template documents every key and is itself a valid config file.
expect_rc 0 "$smfw" config --template
cp out template.conf
expect_rc 0 "$smfw" config -C template.conf
diff <(sed -n 's/^#\([a-z_0-9]*\) = .*/\1/p' template.conf | sort) \
     <(sed -n 's/^#\([a-z_0-9]*\) = .*/\1/p' "$SMFW_SOURCE_DIR/conf/smfw.conf" | sort) >/dev/null ||
  fail "conf/smfw.conf is stale: regenerate with smfw config --template"

# Plugins: every module found is listed with its ABI; a refused one makes it exit 1.
expect_rc 0 "$smfw" plugins
grep -Eq "^backend +direct +[^ ]+ +2\.[0-9]+ " out || fail "plugins lacks the direct backend"
grep -Eq "^reporter +json " out || fail "plugins lacks the json reporter"
expect_rc 1 "$smfw" plugins --plugin-path "$SMFW_BUILD_DIR/tests/bad-plugins"
grep -q "smfw_backend_wrongabi.so refused: it was built for plugin ABI 99.0 but this smfw provides ABI 2." out ||
  fail "wrong-ABI refusal: $(cat out)"
echo "cli basics: 1 passed, 0 failed"
