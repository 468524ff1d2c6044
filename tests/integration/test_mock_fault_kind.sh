#!/usr/bin/env bash
# test_mock_fault_kind.sh - `smfw-mock --fault KIND:RATE` with an unknown KIND
# (on the command line or in a config file) is a usage error: exit 1, as for an
# unknown flag, naming the kind and listing every known one, before listening.
# A malformed spec of a known kind still says KIND:RATE.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
[ -x "$MOCK" ] || { echo "FAIL: $MOCK is not built"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-mock-fault-kind.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

kinds="http-500, throttle, model-error, stream-error, drop, slow-headers, corrupt-crc, reasoning-only, empty"
set +e
"$MOCK" --bogus-flag >/dev/null 2>"$work/usage.err"
usage_rc=$?
"$MOCK" --listen 127.0.0.1:0 --exit-on-stdin-eof --fault foo:0.1 >"$work/f.out" 2>"$work/f.err" </dev/null
rc=$?
set -e
[ "$usage_rc" -eq 1 ] || fail "an unknown flag exits $usage_rc, expected 1"
[ "$rc" -eq "$usage_rc" ] || fail "--fault foo:0.1 exits $rc, not the usage error $usage_rc"
[ ! -s "$work/f.out" ] || fail "--fault foo:0.1 started listening: $(cat "$work/f.out")"
grep -qF 'unknown fault kind "foo"' "$work/f.err" || fail "the kind is not named: $(cat "$work/f.err")"
grep -qF "(known: $kinds)" "$work/f.err" || fail "the known kinds are not listed: $(cat "$work/f.err")"
! grep -q 'wants KIND:RATE' "$work/f.err" || fail "still the generic message: $(cat "$work/f.err")"

# The same from a config file, with a good fault before the bad one.
printf '[mock]\nfault = throttle:0.1, nosuch-kind:5%%\n' > "$work/mock.conf"
set +e
"$MOCK" --listen 127.0.0.1:0 --exit-on-stdin-eof --config "$work/mock.conf" >/dev/null 2>"$work/c.err" </dev/null
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "config with an unknown fault exits $rc"
grep -qF 'unknown fault kind "nosuch-kind"' "$work/c.err" || fail "config: $(cat "$work/c.err")"
grep -qF "(known: $kinds)" "$work/c.err" || fail "config: kinds not listed: $(cat "$work/c.err")"

# A malformed spec of a known kind keeps the syntax message.
set +e
"$MOCK" --listen 127.0.0.1:0 --exit-on-stdin-eof --fault throttle:lots >/dev/null 2>"$work/m.err" </dev/null
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "--fault throttle:lots exits $rc"
grep -qF -- '--fault wants KIND:RATE' "$work/m.err" || fail "malformed: $(cat "$work/m.err")"

echo "PASS"
