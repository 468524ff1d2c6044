#!/usr/bin/env bash
# test_results_fetch.sh - `smfw results --job` asks the loaded backends' fetch slots in turn
# (ABI 1.2): a third-party backend (tests/fixtures/smfw_backend_fetcher.c, first on the
# plugin path) that claims "fixture-*" brings that run into a result folder, which is then
# presented with its name and the fixture's backend stamped; a reference it answers
# SMFW_ERR_UNSUPPORTED for reaches the next backend (the managed one, which refuses a name
# that is not SageMaker's shape before any AWS call).
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_TESTDATA_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export SMFW_PLUGIN_PATH="$SMFW_BUILD_DIR/tests/fetch-plugins" NO_COLOR=1
export SMFW_FETCHER_EXPORT="$SMFW_TESTDATA_DIR/aiperf/v0.10.0-qwen3.6-agent-c16/profile_export_aiperf.json"
fail() { echo "FAIL: $*"; exit 1; }

"$SMFW" plugins | grep -q "fetcher" || fail "fixture backend not loaded: $("$SMFW" plugins 2>&1)"

# 1. Claimed: the fixture fetches, the core presents (and stamps the reports with it).
"$SMFW" results --job fixture-one -o got --report=json >out.txt 2>err.txt ||
    fail "claimed job: exit $? $(cat out.txt err.txt)"
[ -f got/profile_export_aiperf.json ] || fail "no fetched folder: $(ls -R)"
grep -q "^Results" out.txt || fail "no results block: $(cat out.txt)"
grep -rqs '"fetcher"' got/ || fail "reports not stamped with the fetching backend: $(ls got)"
grep -rqs '"fixture-one"' got/ || fail "reports not stamped with the run name"

# 2. Not claimed: the next backend (managed) answers, with its own refusal and exit code.
set +e
"$SMFW" results --job 'not a job!' >out2.txt 2>err2.txt
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "unclaimed bad name succeeded"
grep -q "is not a SageMaker AIBenchmarkJobName" err2.txt out2.txt ||
    fail "unclaimed reference did not reach the managed backend: $(cat out2.txt err2.txt)"
[ ! -d smfw-results ] || fail "a refused fetch left a folder"
echo ok
