#!/usr/bin/env bash
# test_golden_outputs.sh - every byte smfw writes for fixed inputs, against the
# outputs captured before the ABI 2.0 work began (tests/golden/README.md):
#   * `smfw results --local DIR --report=json,csv,markdown,html` on each AIPerf
#     fixture bundle: the reporters' files and the printed text;
#   * `smfw merge` of a recorded smfw-mock run (its per-request records): the
#     recomputed AIPerf JSON/CSV, the rewritten records, summary.md and report.html;
#   * `smfw sweep --from` of three saved levels: sweep.{md,csv,json,html} and the decision.
# Any difference fails with a diff. A change that is meant to alter an output is
# committed together with the regenerated files:  SMFW_UPDATE_GOLDEN=1 ctest -R golden
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_TESTDATA_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
GOLDEN="$SMFW_SOURCE_DIR/tests/golden"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export SMFW_PLUGIN_PATH= NO_COLOR=1 TZ=UTC
failed=0 checked=0

# compare NAME: $work/NAME (produced) against $GOLDEN/NAME (expected)
compare() {
    if [ "${SMFW_UPDATE_GOLDEN:-0}" = 1 ]; then
        rm -rf "${GOLDEN:?}/$1" && mkdir -p "$GOLDEN/$1" && cp -a "$work/$1/." "$GOLDEN/$1/"
        echo "updated tests/golden/$1"
        return
    fi
    local n
    n=$(find "$GOLDEN/$1" -type f | wc -l)
    if ! diff -r "$GOLDEN/$1" "$work/$1" >"$work/$1.diff"; then
        echo "FAIL $1: output differs from tests/golden/$1"
        diff -rq "$GOLDEN/$1" "$work/$1" | sed 's/^/  /'
        head -n 20 "$work/$1.diff" | cut -c1-240
        failed=$((failed + 1))
    else
        echo "ok   $1 ($n files byte-identical)"
        checked=$((checked + n))
    fi
}

# The AIPerf fixtures, copied under a fixed relative name (paths appear in reports).
fixtures=(legacy-2025-10-example-run1 v0.10.0-qwen3.6-agent-c16
          2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency1
          2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency2
          2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency4)
for f in "${fixtures[@]}"; do
    name=results-$(basename "$f")
    cp -a "$SMFW_TESTDATA_DIR/aiperf/$f" "in-$(basename "$f")"
    mkdir -p "$name"
    rc=0
    "$SMFW" results --local "in-$(basename "$f")" --report=json,csv,markdown,html \
        -o "$name/reports" >"$name/stdout.txt" 2>"$name/stderr.txt" || rc=$?
    echo "$rc" >"$name/exit_code"
    compare "$name"
done

# A recorded smfw-mock run (tests/golden/mock-run-input), recomputed by merge.
cp -a "$GOLDEN/mock-run-input" mock-run-input
mkdir -p merge-mock-run
rc=0
"$SMFW" merge mock-run-input -o merge-mock-run/out --report json,csv,markdown,html \
    >merge-mock-run/stdout.txt 2>merge-mock-run/stderr.txt || rc=$?
echo "$rc" >merge-mock-run/exit_code
compare merge-mock-run

# A sweep analysed from saved levels (the qwen bundles as concurrency_1/2/4): the sweep's
# four reports and the printed decision; once with a price from the table, a met SLO and
# goodput, once with a knee (--knee-threshold 70%) below which the SLOs bind.
sweep_case() { # NAME ARGS...
    local name=$1
    shift
    mkdir -p "$name/levels"
    for n in 1 2 4; do
        cp -a "$SMFW_TESTDATA_DIR/aiperf/2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency$n" \
            "$name/levels/concurrency_$n"
    done
    rc=0
    (cd "$name/levels" && "$SMFW" sweep --from . "$@" >../stdout.txt 2>../stderr.txt) || rc=$?
    echo "$rc" >"$name/exit_code"
    rm -rf "$name"/levels/concurrency_* # inputs, not outputs
    compare "$name"
}
sweep_case sweep-priced --instance-type ml.g5.xlarge --slo ttft_p95=200ms \
    --goodput time_to_first_token:150 --duty-cycle 0.5
sweep_case sweep-knee --price-per-hour 2.5 --slo ttft_p95=40ms --goodput time_to_first_token:33 \
    --knee-threshold 70%

[ "${SMFW_UPDATE_GOLDEN:-0}" = 1 ] && exit 0
echo "golden: $((8 - failed)) passed, $failed failed ($checked files)"
[ "$failed" = 0 ]
