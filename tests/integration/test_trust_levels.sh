#!/usr/bin/env bash
# test_trust_levels.sh - level folders cannot collide (issue 21, item 10): a
# bundle with concurrency_1 (10 requests) and concurrency_01 (20 requests)
# gets two report folders, each with its own numbers (both wrote into
# concurrency_1 before), and concurrency_99999999999999999999 is not read as
# level INT64_MAX (strtoll clamped it silently) but named out of range.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-lvl.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" <<'PY'
import json, os, sys
from trust_lib import aiperf_summary, run, fail
smfw = sys.argv[1]
for d, n in (("concurrency_1", 10), ("concurrency_01", 20), ("concurrency_99999999999999999999", 30)):
    os.makedirs(os.path.join("b", d))
    open(os.path.join("b", d, "profile_export_aiperf.json"), "wb").write(aiperf_summary(request_count=n))
rc, out, _ = run([smfw, "results", "--local", "b", "--report=json"])
print("rc", rc)
if rc != 0:
    fail(f"want the three runs shown:\n{out}")
if "9223372036854775807" in out or "out of range" not in out:
    fail(f"the huge N was clamped or not named:\n{out}")
counts = {}
for d, _, fs in os.walk("smfw-results"):
    if "profile_export_aiperf.json" in fs:
        j = json.load(open(os.path.join(d, "profile_export_aiperf.json")))
        counts[os.path.relpath(d, "smfw-results")] = j["request_count"]["avg"]
print(counts)
if sorted(counts.values()) != [10, 20, 30] or len(counts) != 3:
    fail(f"want three report folders with 10, 20 and 30 requests: {counts}")
print("ok")
PY
