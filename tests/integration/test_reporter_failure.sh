#!/usr/bin/env bash
# test_reporter_failure.sh - the four reporter modules as the smfw program
# loads them: listed by `smfw plugins`, their settings declared in
# `smfw config`, and run on an AIPerf bundle through smfw_reporters_run().
# One reporter failing (a folder sits where its file goes) is an error
# naming that file, and the other reporters still write theirs.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_TESTDATA_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
RENDER="$SMFW_BUILD_DIR/tests/integration/reporter_render"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-rep.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$SMFW" plugins >"$work/plugins.txt" 2>&1 || { cat "$work/plugins.txt"; fail "smfw plugins"; }
# the bundled reporters carry the program's plugin ABI ("smfw 0.1.0 (plugin ABI 2.0)")
abi=$("$SMFW" version | sed -E 's/.*plugin ABI ([0-9]+)\.([0-9]+)\).*/\1\\.\2/')
for r in csv html json markdown; do
    grep -Eq "^reporter +$r +[0-9.]+ +$abi +$SMFW_BUILD_DIR/plugins/smfw_reporter_$r\.so" \
        "$work/plugins.txt" || { cat "$work/plugins.txt"; fail "reporter $r not listed"; }
done
"$SMFW" config >"$work/config.txt" 2>&1 || fail "smfw config"
grep -A1 '^\[reporter.csv\]' "$work/config.txt" | grep -q '^sum_column = true' || fail "csv settings"
grep -A1 '^\[reporter.json\]' "$work/config.txt" | grep -q '^count_sum = true' || fail "json settings"
grep -A1 '^\[reporter.html\]' "$work/config.txt" | grep -q '^max_points = 2000' || fail "html settings"

bundle="$SMFW_TESTDATA_DIR/aiperf/legacy-2025-10-example-run1"
out="$work/out"
mkdir -p "$out/profile_export_aiperf.csv"   # the csv reporter cannot write its file
if "$RENDER" "$SMFW_BUILD_DIR/plugins" "$bundle" "$out" json csv markdown html >"$work/log" 2>&1; then
    fail "a failing reporter was not reported"
fi
grep -q "reporter csv failed: cannot write $out/profile_export_aiperf.csv" "$work/log" ||
    { cat "$work/log"; fail "the error does not name the csv file"; }
for f in profile_export_aiperf.json summary.md report.html; do
    [ -f "$out/$f" ] && [ "$(stat -c %s "$out/$f")" -gt 100 ] || fail "$f was not written"
done
ls -A "$out" | grep -q '\.tmp$' && fail "a temporary file was left behind"
# markdown ran before html, yet summary.md lists report.html in the HTML reporter's words: the
# core told every reporter what the others declared (SMFW_REPORTER_CTL_RUN_OUTPUTS).
grep -qx -- '- `report.html`: self-contained report with charts' "$out/summary.md" ||
    { cat "$out/summary.md"; fail "summary.md does not list the HTML reporter's file"; }
# markdown alone in an empty folder: its own file and nothing the run will not write
mkdir -p "$work/alone"
"$RENDER" "$SMFW_BUILD_DIR/plugins" "$bundle" "$work/alone" markdown >"$work/log3" 2>&1 || {
    cat "$work/log3"; fail "markdown alone"; }
[ "$(grep -c '^- `' "$work/alone/summary.md")" -eq 1 ] &&
    grep -qx -- '- `summary.md`: this summary' "$work/alone/summary.md" ||
    { cat "$work/alone/summary.md"; fail "markdown alone lists files no reporter writes"; }

# Unwritable output folder: every reporter fails, each naming its own file.
if "$RENDER" "$SMFW_BUILD_DIR/plugins" "$bundle" "$work/missing/dir" json markdown >"$work/log2" 2>&1; then
    fail "writing into a missing folder succeeded"
fi
grep -q "cannot write $work/missing/dir/profile_export_aiperf.json" "$work/log2" || fail "json error"
grep -q "cannot write $work/missing/dir/summary.md" "$work/log2" || fail "markdown error"
echo "PASS: reporters load, declare settings, and fail one at a time naming the file"
