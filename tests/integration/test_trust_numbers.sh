#!/usr/bin/env bash
# test_trust_numbers.sh - impossible numbers are never "passed" (issue 21,
# item 9): request_count 1e300 (printed as -9223372036854775808 before, an
# undefined cast), a negative or fractional count, a duplicate key, a count
# written as a string, a negative error_summary count and a record whose
# latency is 1e300 are each refused naming the file, the metric and the
# field; no output says "validity: passed" for them; in a two-level bundle
# the good level is still shown.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-num.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" <<'PY'
import json, os, sys
from trust_lib import aiperf_summary, run, fail
smfw = sys.argv[1]
rc_ = lambda n: {"unit": "requests", "avg": n}

def summary(**kw):
    j = json.loads(aiperf_summary())
    j.update(kw)
    return json.dumps(j)

cases = {
    "huge": (summary(request_count=rc_(1e300)), ["request_count.avg", "1e+300", "cannot be true"]),
    "negative": (summary(request_count=rc_(-5)), ["request_count.avg", "negative"]),
    "fraction": (summary(request_count=rc_(10.5)), ["request_count.avg", "whole number"]),
    "string": (summary(request_count=rc_("10")), ["request_count", "non-numeric avg"]),
    "duplicate": (summary()[:-1] + ', "request_count": {"unit": "requests", "avg": 99}}',
                  ["duplicate", "request_count"]),
    "errcount": (summary(error_summary=[{"error_details": {"code": 500, "type": "E", "message": "m"},
                                         "count": -1}]), ["error_summary[0].count"]),
}
for name, (text, expect) in cases.items():
    os.makedirs(name)
    open(os.path.join(name, "profile_export_aiperf.json"), "w").write(text)
    rc, out, _ = run([smfw, "results", "--local", name])
    print(f"{name}: rc={rc}")
    if rc == 0 or rc > 100 or "validity: passed" in out or "-9223372036854775808" in out:
        fail(f"{name}: impossible numbers were shown (rc {rc}):\n{out}")
    for e in expect + ["profile_export_aiperf.json"]:
        if e not in out:
            fail(f"{name}: {e!r} not in:\n{out}")
os.makedirs("records")
rec = {"metadata": {"x_request_id": "a", "request_start_ns": 1, "request_end_ns": 2},
       "metrics": {"request_latency": {"value": 1e300, "unit": "ms"}}}
open("records/profile_export.jsonl", "w").write(json.dumps(rec) + "\n")
rc, out, _ = run([smfw, "results", "--local", "records"])
print(f"records: rc={rc}")
if rc == 0 or "validity: passed" in out or "request_latency" not in out or "profile_export.jsonl" not in out:
    fail(f"records: a 1e300 latency was shown:\n{out}")
# Two levels, one impossible: the other is still shown.
for lvl, text in (("concurrency_1", summary()), ("concurrency_2", summary(request_count=rc_(-1)))):
    os.makedirs(os.path.join("sweep", lvl))
    open(os.path.join("sweep", lvl, "profile_export_aiperf.json"), "w").write(text)
rc, out, _ = run([smfw, "results", "--local", "sweep"])
print(f"sweep: rc={rc}")
if rc == 0 or "Results at concurrency 1" not in out or out.count("validity: passed") != 1 \
        or "concurrency_2/profile_export_aiperf.json" not in out:
    fail(f"sweep: want level 1 shown and level 2 refused:\n{out}")
print("ok")
PY
