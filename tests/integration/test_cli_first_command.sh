#!/usr/bin/env bash
# test_cli_first_command.sh - the benchmark of README's first command (tools/demo.sh,
# after the build) takes under 20 s, and docs/guide.md states what the default
# dataset really sends (the curated set's mean input and output lengths, within 10%).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }
demo="$SMFW_SOURCE_DIR/tools/demo.sh"
args=$(sed -n '/exec .\/build\/smfw run/,/"\$@"/p' "$demo" | tr -d '\\\n' |
    sed 's/.*smfw run//; s/"\$@"//')
[ -n "$args" ] || fail "no smfw run command in tools/demo.sh"
t0=$(date +%s.%N)
# shellcheck disable=SC2086
"$SMFW" run $args -o "$work/demo" -q > "$work/demo.log" 2>&1 || { cat "$work/demo.log"; fail "the demo run failed"; }
t1=$(date +%s.%N)
secs=$("$SMFW_PYTHON" -c "print(round($t1 - $t0, 1))")
echo "README's first benchmark ($args): $secs s"
stats=$("$SMFW" dataset show curated 2>&1)
read -r isl osl < <(printf '%s\n' "$stats" | "$SMFW_PYTHON" -c '
import sys
rows = {l.split("|")[1].strip(): l.split("|") for l in sys.stdin if l.startswith("|")}
i = [v for k, v in rows.items() if k.startswith("input tokens")][0]
o = [v for k, v in rows.items() if k.startswith("output budget")][0]
print(float(i[-2]), float(o[-2]))')
guide="$SMFW_SOURCE_DIR/docs/guide.md"
gi=$(grep -o "average about [0-9,]* input tokens" "$guide" | tr -dc 0-9)
go=$(grep -o "budgets averaging about [0-9,]* tokens" "$guide" | tr -dc 0-9)
[ -n "$gi" ] && [ -n "$go" ] || fail "docs/guide.md does not state the curated set's lengths"
"$SMFW_PYTHON" -c "import sys; sys.exit(0 if abs($gi-$isl)/$isl < .1 and abs($go-$osl)/$osl < .1 else 1)" ||
    fail "docs/guide.md says ~$gi input / ~$go output tokens; the curated set has $isl / $osl"
if ! "$SMFW_PYTHON" -c "import sys; sys.exit(0 if $secs < 20 else 1)"; then
    [ "$(machine_quiet)" = 1 ] || { echo "not measured: the machine is busy ($secs s)"; exit 77; }
    fail "README's first benchmark took $secs s (want under 20)"
fi
echo ok
