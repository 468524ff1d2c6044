#!/usr/bin/env bash
# test_out_of_tree.sh - third-party plugins built against an INSTALLED smfw.
#
# Installs this build into a staging folder, builds examples/reporter-hello
# and examples/dataset-csv there with nothing but the installed headers,
# library and smfw.pc (pkg-config), then has the installed smfw find them
# through SMFW_PLUGIN_PATH: `smfw plugins` must list them, the hello reporter
# must report a mock run and an AIPerf bundle, and the csv dataset must feed
# the run and reject a bad file with file and line.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_TESTDATA_DIR:?}"

work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-oot.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1. Install. The configured prefix is kept and the tree staged under DESTDIR;
# pkg-config's sysroot maps smfw.pc's paths into the staging folder.
stage="$work/stage"
DESTDIR="$stage" cmake --install "$SMFW_BUILD_DIR" >"$work/install.log" 2>&1 ||
    { tail -5 "$work/install.log"; fail "cmake --install failed"; }
pc=$(find "$stage" -name smfw.pc | head -1)
[ -n "$pc" ] || fail "no smfw.pc installed"
prefix="$stage$(sed -n 's/^prefix=//p' "$pc")"
[ -x "$prefix/bin/smfw" ] || fail "no smfw program under $prefix/bin"
export PKG_CONFIG_LIBDIR="$(dirname "$pc")" PKG_CONFIG_PATH="" PKG_CONFIG_SYSROOT_DIR="$stage"
cflags=$(pkg-config --cflags smfw)
case "$cflags" in *"$stage"*) ;; *) fail "pkg-config --cflags smfw gave '$cflags', not the install" ;; esac
echo "installed under $prefix; pkg-config: $cflags $(pkg-config --libs smfw)"
# The header split: the plugin SDK in include/smfw, the program's unstable API apart.
for h in app capacity compare merge results_layout; do
    [ ! -e "$prefix/include/smfw/$h.h" ] || fail "program header $h.h installed with the plugin SDK"
    [ -s "$prefix/include/smfw-program/smfw/$h.h" ] || fail "program header $h.h not installed apart"
done
for h in smfw plugin backend dataset reporter command results run_set config log buf clock json_view; do
    [ -s "$prefix/include/smfw/$h.h" ] || fail "SDK header $h.h not installed"
done
pcflags=$(pkg-config --cflags smfw-program)
case "$pcflags" in *"$stage"*/include/smfw-program*) ;; *) fail "pkg-config --cflags smfw-program gave '$pcflags'" ;; esac
pkg-config --print-variables smfw-program >/dev/null && pkg-config --modversion smfw-program >/dev/null ||
    fail "smfw-program.pc unusable"
grep -q "UNSTABLE" "$(dirname "$pc")/smfw-program.pc" || fail "smfw-program.pc does not say it is unstable"
echo "SDK headers in include/smfw; app.h, capacity.h, compare.h, merge.h, results_layout.h in include/smfw-program (unstable)"
# libsmfw resolves AWS endpoints from the installed rule sets (docs/aws.md).
for f in partitions.json sagemaker-runtime/2017-05-13/endpoint-rule-set-1.json LICENSE.txt; do
    [ -s "$prefix/share/smfw/aws/$f" ] || fail "share/smfw/aws/$f not installed"
done

# 2. Build each example out of tree with only the install.
for ex in reporter-hello dataset-csv; do
    cmake -S "$SMFW_SOURCE_DIR/examples/$ex" -B "$work/$ex" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
        >"$work/$ex.log" 2>&1 || { tail -20 "$work/$ex.log"; fail "configuring $ex"; }
    cmake --build "$work/$ex" >>"$work/$ex.log" 2>&1 || { tail -20 "$work/$ex.log"; fail "building $ex"; }
    if grep -q -- "$SMFW_SOURCE_DIR/include" "$work/$ex/compile_commands.json"; then
        fail "$ex was compiled against the source tree, not the installed headers"
    fi
    grep -Eq -- "(-I|-isystem )$prefix/include" "$work/$ex/compile_commands.json" ||
        fail "$ex was not compiled against $prefix/include"
done
ls "$work/reporter-hello/smfw_reporter_hello.so" "$work/dataset-csv/smfw_dataset_csv.so" >/dev/null

# 3. The installed smfw finds them.
export SMFW_PLUGIN_PATH="$work/reporter-hello:$work/dataset-csv"
SMFW="$prefix/bin/smfw"
# built against the installed SDK, so they carry its ABI ("smfw 0.1.0 (plugin ABI 2.0)")
abi=$("$SMFW" version | sed -E 's/.*plugin ABI ([0-9]+)\.([0-9]+)\).*/\1\\.\2/')
"$SMFW" plugins >"$work/plugins.txt" 2>&1 || { cat "$work/plugins.txt"; fail "smfw plugins"; }
grep -Eq "^reporter +hello +1\.0\.0 +$abi +$work/reporter-hello/smfw_reporter_hello\.so" \
    "$work/plugins.txt" || { cat "$work/plugins.txt"; fail "hello reporter not listed"; }
grep -Eq "^dataset +csv +1\.0\.0 +$abi +$work/dataset-csv/smfw_dataset_csv\.so" \
    "$work/plugins.txt" || { cat "$work/plugins.txt"; fail "csv dataset not listed"; }
grep -q "refused" "$work/plugins.txt" && { cat "$work/plugins.txt"; fail "a plugin was refused"; }
# the installed command plugin aws answers `smfw cloudwatch` from the install
"$SMFW" help >"$work/help.txt" 2>&1 || { cat "$work/help.txt"; fail "smfw help"; }
grep -q "^  cloudwatch .*(plugin aws)$" "$work/help.txt" ||
    { cat "$work/help.txt"; fail "installed smfw lists no cloudwatch command"; }
echo "smfw plugins lists reporter hello and dataset csv"

# 4. Use them for real.
prompts="$SMFW_SOURCE_DIR/examples/dataset-csv/prompts.csv"
# The mock of the build tree (an installed smfw-mock would do as well).
mock=(--mock-binary "$SMFW_BUILD_DIR/tools/mock/smfw-mock")
run="$work/run"
"$SMFW" run --backend direct --endpoint mock "${mock[@]}" --dataset csv --dataset-file "$prompts" \
    --request-count 10 --concurrency 2 --report json,hello -o "$run" --progress none \
    >"$work/run.out" 2>"$work/run.err" || { tail -20 "$work/run.err"; fail "mock run with csv + hello"; }
grep -q "^hello: request_count avg=10.00 requests" "$work/run.out" ||
    { cat "$work/run.out"; fail "hello did not report the run's 10 requests"; }
"$SMFW_PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); \
assert d['smfw']['dataset']['name'] == 'csv', d['smfw'].get('dataset')" \
    "$run/profile_export_aiperf.json" || fail "the run did not use the csv dataset"
echo "a mock run used dataset csv and reporter hello"

# The same reporter on a finished AIPerf bundle (results from the other backend's files).
fixture="$work/fixture"
mkdir -p "$fixture"
"$SMFW_BUILD_DIR/tests/integration/reporter_render" "$work/reporter-hello" \
    "$SMFW_TESTDATA_DIR/aiperf/legacy-2025-10-example-run1" "$fixture" hello >"$work/fixture.out" ||
    fail "reporter hello failed on the AIPerf bundle"
grep -q "^hello: request_count avg=89.00 requests" "$work/fixture.out" ||
    { cat "$work/fixture.out"; fail "hello did not report the bundle's 89 requests"; }

# The webhook-style JSON form, chosen in a config file section [reporter.hello].
printf '[reporter.hello]\nformat = json\n' >"$work/hello.conf"
"$SMFW" config -C "$work/hello.conf" >"$work/config.txt" 2>&1 ||
    { cat "$work/config.txt"; fail "config with [reporter.hello] rejected"; }
grep -A2 '^\[reporter.hello\]' "$work/config.txt" | grep -q '^format = json' ||
    { cat "$work/config.txt"; fail "reporter.hello.format not shown by smfw config"; }
"$SMFW" run -C "$work/hello.conf" --backend direct --endpoint mock "${mock[@]}" --dataset csv \
    --dataset-file "$prompts" --request-count 4 --concurrency 2 --report hello \
    -o "$work/webhook" --progress none -q >"$work/webhook.out" 2>&1 ||
    { cat "$work/webhook.out"; fail "run with format = json"; }
"$SMFW_PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); \
assert d['event'] == 'smfw.run.finished' and d['metrics']['request_count']['avg'] == 4, d" \
    "$work/webhook/hello_webhook.json" || fail "hello_webhook.json is not the expected payload"
printf '[reporter.hello]\nformat = xml\n' >"$work/bad.conf"
if "$SMFW" run -C "$work/bad.conf" --backend direct --endpoint mock "${mock[@]}" --dataset csv \
        --dataset-file "$prompts" --request-count 2 --report hello -o "$work/bad" \
        --progress none >"$work/bad.out" 2>&1; then
    fail "format = xml was accepted"
fi
grep -q "format must be text or json" "$work/bad.out" || { cat "$work/bad.out"; fail "no reason for xml"; }

# A bad CSV row is reported with its file and line before anything is sent.
printf 'prompt,output_length\nfine,10\nbroken,abc\n' >"$work/bad.csv"
if "$SMFW" run --backend direct --endpoint mock "${mock[@]}" --dataset csv --dataset-file "$work/bad.csv" \
        --request-count 2 --report json -o "$work/badrun" --progress none >"$work/badcsv.out" 2>&1; then
    fail "a CSV with a bad output_length was accepted"
fi
grep -q "bad.csv:3: column output_length" "$work/badcsv.out" ||
    { cat "$work/badcsv.out"; fail "the CSV error does not name file and line"; }
# Without the command plugin aws, --cloudwatch is refused before anything is sent, and
# `smfw cloudwatch` is an unknown command (the program itself knows no CloudWatch).
aws_so=$(find "$prefix" -name smfw_command_aws.so)
[ -n "$aws_so" ] || fail "smfw_command_aws.so was not installed"
rm "$aws_so"
set +e
"$SMFW" run --backend direct --endpoint mock "${mock[@]}" --request-count 2 --cloudwatch \
    -o "$work/nocw" --progress none >"$work/nocw.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] && [ ! -e "$work/nocw" ] || { cat "$work/nocw.out"; fail "--cloudwatch without the plugin: rc $rc"; }
grep -q -- "--cloudwatch needs the \`smfw cloudwatch\` command, which no loaded plugin provides" \
    "$work/nocw.out" || { cat "$work/nocw.out"; fail "no reason for --cloudwatch"; }
set +e
"$SMFW" cloudwatch --endpoint x >"$work/nocw2.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] && grep -q 'unknown command "cloudwatch"' "$work/nocw2.out" ||
    { cat "$work/nocw2.out"; fail "smfw cloudwatch without the plugin: rc $rc"; }
# launch batch --submit runs the plugin's `batch-submit`: without it, refused naming it.
set +e
"$SMFW" launch batch --shards 2 --job-queue q --image i --submit >"$work/nobs.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] && grep -q "needs the \`smfw batch-submit\` command, which no loaded plugin" \
    "$work/nobs.out" || { cat "$work/nobs.out"; fail "launch batch --submit without the plugin: rc $rc"; }
echo "PASS: out-of-tree plugins build from the install and run"
