#!/usr/bin/env bash
# test_abi_append_metric.sh - binary compatibility across a 2.x minor.
#
# The examples (reporter-hello, dataset-csv) are built once, out of tree, against the
# INSTALLED 2.0 SDK, and the third-party command fixture against the source headers. A
# second library is then built with -DSMFW_TEST_APPEND_METRIC=ON: one record metric
# appended (smfw_test_appended, a copy of the request latency) and the ABI minor bumped
# to 2.1, as a release that adds a metric would. That library's smfw loads the same
# binaries, unrebuilt: nothing is refused, the csv dataset feeds a mock run, and the hello
# reporter prints every metric the 2.0 library gave it plus the appended one, whose numbers
# are the request latency's (it iterates smfw_metric_count(), the running library's). A
# plugin of ABI 1.0 is refused by both, with the sentence naming both ABIs
# (unit.test_registry checks the sentence itself).
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}"

work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-abi.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1. The 2.0 SDK, installed; the examples built against it only.
stage="$work/stage"
DESTDIR="$stage" cmake --install "$SMFW_BUILD_DIR" >"$work/install.log" 2>&1 ||
    { tail -5 "$work/install.log"; fail "cmake --install failed"; }
pc=$(find "$stage" -name smfw.pc | head -1)
export PKG_CONFIG_LIBDIR="$(dirname "$pc")" PKG_CONFIG_PATH="" PKG_CONFIG_SYSROOT_DIR="$stage"
for ex in reporter-hello dataset-csv; do
    { cmake -S "$SMFW_SOURCE_DIR/examples/$ex" -B "$work/$ex" &&
        cmake --build "$work/$ex"; } >"$work/$ex.log" 2>&1 ||
        { tail -20 "$work/$ex.log"; fail "building $ex against the installed SDK"; }
done
fixture="$SMFW_BUILD_DIR/tests/cmd-plugins/good"
[ -f "$fixture/smfw_command_fixture.so" ] || fail "the command fixture was not built"
plugins="$work/reporter-hello:$work/dataset-csv:$fixture"

# 2. The library of the next minor: a metric appended. Only what a run needs is built.
append="$work/append"
# Sanitized like this build: the command fixture (built with it) then loads into the program.
sanitize=OFF
grep -q '^SMFW_SANITIZE:BOOL=ON' "$SMFW_BUILD_DIR/CMakeCache.txt" 2>/dev/null && sanitize=ON
(
    unset PKG_CONFIG_LIBDIR PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR # the system's libraries
    cmake -S "$SMFW_SOURCE_DIR" -B "$append" -DSMFW_TEST_APPEND_METRIC=ON -DSMFW_BUILD_TESTS=OFF \
        -DSMFW_SANITIZE="$sanitize" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O0 &&
        cmake --build "$append" -j2 --target smfw_program smfw_backend_direct smfw_reporter_json
) >"$work/append.log" 2>&1 || { tail -30 "$work/append.log"; fail "building the 2.1 library"; }
"$append/smfw" version | grep -q "plugin ABI 2\.1" || fail "the appended build is not ABI 2.1: $("$append/smfw" version)"
"$SMFW_BUILD_DIR/smfw" version | grep -q "plugin ABI 2\.0" || fail "the build is not ABI 2.0"

# 3. The same binaries load in both.
for smfw in "$SMFW_BUILD_DIR/smfw" "$append/smfw"; do
    SMFW_PLUGIN_PATH="$plugins" "$smfw" plugins >"$work/plugins.txt" 2>&1 ||
        { cat "$work/plugins.txt"; fail "$smfw plugins"; }
    for p in "reporter +hello +1\.0\.0 +2\.0 " "dataset +csv +1\.0\.0 +2\.0 " "command +fixture +1\.0 +2\.0 "; do
        grep -Eq "^$p" "$work/plugins.txt" || { cat "$work/plugins.txt"; fail "$smfw: no /$p/"; }
    done
    grep -q "refused" "$work/plugins.txt" && { cat "$work/plugins.txt"; fail "$smfw refused a plugin"; }
    SMFW_PLUGIN_PATH="$plugins" "$smfw" greet --who abi >"$work/greet.txt" 2>&1 ||
        { cat "$work/greet.txt"; fail "$smfw greet (the fixture's command)"; }
    grep -qx "hello abi" "$work/greet.txt" || { cat "$work/greet.txt"; fail "$smfw greet"; }
done
echo "reporter hello, dataset csv and command fixture (ABI 2.0) load in smfw 2.0 and 2.1"

# 4. A mock run with each: csv prompts, hello's report.
prompts="$SMFW_SOURCE_DIR/examples/dataset-csv/prompts.csv"
mock="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
for build in base append; do
    smfw="$SMFW_BUILD_DIR/smfw"
    [ "$build" = append ] && smfw="$append/smfw"
    SMFW_PLUGIN_PATH="$plugins" "$smfw" run --backend direct --endpoint mock --mock-binary "$mock" \
        --dataset csv --dataset-file "$prompts" --request-count 10 --concurrency 2 \
        --report json,hello -o "$work/run-$build" --progress none \
        >"$work/$build.out" 2>"$work/$build.err" || { tail -20 "$work/$build.err"; fail "$build run"; }
    grep -q "^hello: request_count avg=10.00 requests" "$work/$build.out" ||
        { cat "$work/$build.out"; fail "$build: hello did not report the 10 requests"; }
    sed -n 's/^hello: \([a-z_0-9]*\) .*/\1/p' "$work/$build.out" | sort >"$work/$build.tags"
done
diff <({ cat "$work/base.tags"; echo smfw_test_appended; } | sort) "$work/append.tags" >/dev/null ||
    { diff "$work/base.tags" "$work/append.tags"; fail "the 2.1 run's metrics are not the 2.0 run's plus the appended one"; }
latency=$(sed -n 's/^hello: request_latency \(.*\)$/\1/p' "$work/append.out")
appended=$(sed -n 's/^hello: smfw_test_appended \(.*\)$/\1/p' "$work/append.out")
[ -n "$latency" ] && [ "$latency" = "$appended" ] ||
    fail "appended metric '$appended' is not the request latency '$latency'"
# Every number hello (2.0) read from the 2.1 library is the one the 2.1 JSON reporter wrote.
"${SMFW_PYTHON:-python3}" - "$work/append.out" "$work/run-append/profile_export_aiperf.json" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[2]))
metrics = dict(doc.get("smfw", {}).get("metrics", {}))
metrics.update({k: v for k, v in doc.items() if isinstance(v, dict) and "avg" in v})
checked = 0
for line in open(sys.argv[1]):
    m = re.match(r"^hello: ([a-z_0-9]+) avg=(-?[0-9.]+)", line)
    if not m or m.group(1) not in metrics:
        continue
    want = metrics[m.group(1)]["avg"]
    assert f"{want:.2f}" == m.group(2), f"{m.group(1)}: hello read {m.group(2)}, the JSON has {want}"
    checked += 1
assert checked >= 10 and "smfw_test_appended" in open(sys.argv[1]).read(), checked
print(f"{checked} of hello's averages equal profile_export_aiperf.json's")
PY
echo "hello (built for 2.0) reports the appended metric: $appended; every other metric as with 2.0"
echo "PASS: plugins built against ABI 2.0 run unrebuilt on a 2.1 library with an appended metric"
