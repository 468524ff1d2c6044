#!/usr/bin/env bash
# test_plugin_commands.sh - commands that plugins provide (smfw/command.h), end to end
# through the program: `smfw help` lists them under their own heading, `smfw help NAME`
# prints a plugin command's usage and options, `smfw NAME ...` runs it with its options,
# positional arguments, settings flags and config, and returns its exit code. A third-party
# fixture built in tests/fixtures (not installed, found with --plugin-path or
# SMFW_PLUGIN_PATH) proves any plugin can add one; bad command plugins are refused with a
# sentence naming the file, and a plugin can never replace a built-in command.
set -euo pipefail
smfw="$SMFW_BUILD_DIR/smfw"
good="$SMFW_BUILD_DIR/tests/cmd-plugins/good"
bad="$SMFW_BUILD_DIR/tests/cmd-plugins/bad"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() { # expect_rc WANT cmd...
  local want=$1; shift
  set +e; "$@" >"$work/out" 2>"$work/err"; local rc=$?; set -e
  [ "$rc" -eq "$want" ] || { cat "$work/out" "$work/err" >&2; fail "$* exited $rc, want $want"; }
}
cd "$work"
[ -f "$good/smfw_command_fixture.so" ] || fail "the fixture plugin was not built"

# The bundled command plugin aws: `smfw cloudwatch` is listed as a plugin's command.
expect_rc 0 "$smfw" help
sed -n '/^Plugin commands:$/,/^$/p' out > plugin_part
grep -q "^  cloudwatch .*(plugin aws)$" plugin_part || fail "help lacks cloudwatch: $(cat out)"
sed -n '/^Commands:$/,/^$/p' out | grep -q "^  cloudwatch " && fail "cloudwatch listed as built in"
grep -q "^  run " out || fail "help lacks run"
expect_rc 0 "$smfw" --help
grep -q "^Plugin commands:$" out || fail "--help lacks the plugin commands"
expect_rc 0 "$smfw" help cloudwatch
grep -q "^Usage: smfw cloudwatch" out || fail "help cloudwatch: $(cat out)"
grep -q -- "--save DIR" out && grep -q -- "--region" out || fail "help cloudwatch options: $(cat out)"
grep -q "provided by the command plugin aws, .*smfw_command_aws.so" out || fail "no origin: $(cat out)"
expect_rc 0 "$smfw" cloudwatch --help
grep -q "^Usage: smfw cloudwatch" out || fail "cloudwatch --help: $(cat out)"

# A third-party command, found with --plugin-path (after the command name too).
expect_rc 0 "$smfw" help --plugin-path "$good"
grep -q "^  greet .*third-party.*(plugin fixture)$" out || fail "help lacks greet: $(cat out)"
expect_rc 0 "$smfw" help greet --plugin-path "$good"
grep -q "^Usage: smfw greet" out && grep -q -- "--who NAME *whom to greet" out &&
  grep -q -- "--shout *end with" out && grep -q -- "--fixture-greeting WORD" out ||
  fail "help greet: $(cat out)"
printf '[run]\nendpoint = bench\n' > smfw.conf
expect_rc 0 "$smfw" greet --plugin-path "$good" --who ann --shout x -- -y --fixture-greeting
grep -qx "hello ann!" out || fail "greet: $(cat out)"
grep -qx "endpoint=bench verbosity=0 args=x,-y,--fixture-greeting" out || fail "greet: $(cat out)"
# settings flags, the config file, the plugin's own [command.fixture] section, -q
printf '[run]\nendpoint = bench\n[command.fixture]\ngreeting = howdy\n' > other.conf
export SMFW_PLUGIN_PATH="$good"
expect_rc 0 "$smfw" greet -C other.conf --endpoint ep2 -q
grep -qx "howdy world" out && grep -qx "endpoint=ep2 verbosity=-1 args=" out || fail "$(cat out)"
expect_rc 0 "$smfw" greet --fixture-greeting hi --who=bob
grep -qx "hi bob" out || fail "greet settings flag: $(cat out)"
# its exit code is the program's
expect_rc 3 "$smfw" greet --exit 3
# the shared parser's errors, naming the command
expect_rc 1 "$smfw" greet --whoo x
grep -q 'unknown option --whoo; did you mean --who? (see `smfw greet --help`)' err || fail "$(cat err)"
expect_rc 1 "$smfw" greet --who
grep -q 'option --who needs a value' err || fail "$(cat err)"
# an unknown command is still the same error, exit 1
expect_rc 1 "$smfw" nosuch --who x
grep -q 'unknown command "nosuch" (see `smfw help`)' err || fail "unknown command: $(cat err)"
expect_rc 1 "$smfw" help nosuch
grep -q 'unknown command "nosuch"' err || fail "help nosuch: $(cat err)"
unset SMFW_PLUGIN_PATH

# Refused command plugins: named with the reason; the built-in `run` stays the program's.
export SMFW_PLUGIN_PATH="$good:$bad"
expect_rc 1 "$smfw" plugins
grep -q "refused: .*/bad/smfw_command_dupe.so refused: its command \"greet\" is already provided by .*/good/smfw_command_fixture.so" out || fail "dupe: $(cat out)"
grep -q "smfw_command_clash.so refused: its command \"run\" is a built-in command of smfw" out ||
  fail "clash: $(cat out)"
grep -q "smfw_command_oldabi.so refused: it was built for plugin ABI 1.0 but this smfw provides ABI 2\." out || fail "oldabi: $(cat out)"
grep -q "smfw_command_nomain.so refused: its command \"greet\" has a NULL summary, usage or main" out ||
  fail "nomain: $(cat out)"
grep -q "^command   fixture " out || fail "fixture not listed: $(cat out)"
expect_rc 0 "$smfw" run --help
grep -q "^Usage: smfw run" out || fail "run --help is not the built-in one: $(cat out)"
expect_rc 1 "$smfw" fine # the clashing plugin is refused whole
grep -q 'unknown command "fine"' err || fail "fine: $(cat err)"
expect_rc 0 "$smfw" greet --who cy
grep -qx "hello cy" out || fail "greet with bad neighbours: $(cat out)"
unset SMFW_PLUGIN_PATH
echo "plugin commands OK"
