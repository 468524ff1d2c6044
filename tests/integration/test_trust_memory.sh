#!/usr/bin/env bash
# test_trust_memory.sh - hostile bundles cannot make `smfw results` grow
# without bound (issue 21, item 1): a 48 MiB summary of zeros, one 20 MiB
# record line (10 M inter_chunk_latency items) and a 3 MiB line of 1.2 M
# items are each refused with a sentence naming the file and the limit,
# and the child's max RSS stays under 100 MiB (jansson took ~20x the text
# before). The limits are settings: [bundle] max_record_bytes = 100 refuses
# an ordinary fixture, naming 100, and max_records = 1000 a file of 2,000
# records, max_run_items = 1000 forty records of 50 items. A fake SageMaker answering
# DescribeAIBenchmarkJob with 20 MiB of JSON is refused at 8 MiB, under the
# same RSS bound (the 64 MiB cap let it through to jansson before).
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_TESTDATA_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-mem.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" "$SMFW_TESTDATA_DIR" <<'PY'
import json, os, shutil, sys
from trust_lib import FakeAws, rss_bound, run, fail
smfw, data = sys.argv[1], sys.argv[2]
BOUND_MIB = rss_bound(100)
good = {"metadata": {"x_request_id": "a", "request_start_ns": 1, "request_end_ns": 2},
        "metrics": {"request_latency": {"value": 1.0, "unit": "ms"}}}

def case(name, expect, files, conf=None):
    d = os.path.join(os.getcwd(), name)
    os.makedirs(d)
    for fn, writer in files.items():
        with open(os.path.join(d, fn), "w") as f:
            writer(f)
    if conf:
        with open("smfw.conf", "w") as f:
            f.write(conf)
    rc, out, rss = run([smfw, "results", "--local", d, "-q"])
    if conf:
        os.remove("smfw.conf")
    print(f"{name}: rc={rc} max RSS {rss:.1f} MiB")
    if rc == 0 or rc < 0 or rc > 100:
        fail(f"{name}: want a clean refusal, got rc {rc}:\n{out}")
    for e in expect:
        if e not in out:
            fail(f"{name}: {e!r} not in:\n{out}")
    if rss > BOUND_MIB:
        fail(f"{name}: max RSS {rss:.1f} MiB is over {BOUND_MIB} MiB")
    shutil.rmtree(d)

def zeros(f, n):
    chunk = "0," * 100000
    for _ in range(n // 100000):
        f.write(chunk)
    f.write("0")

def big_summary(f):
    f.write('{"request_count":{"unit":"requests","avg":1},"x":[')
    zeros(f, 24_000_000)
    f.write("]}")

def record_with(n):
    def w(f):
        f.write(json.dumps(good) + "\n")
        f.write('{"metadata":{"x_request_id":"b"},"metrics":{"inter_chunk_latency":{"unit":"ms","value":[')
        zeros(f, n)
        f.write("]}}}\n")
    return w

case("big_summary", ["profile_export_aiperf.json", "8388608", "bundle.max_summary_bytes"],
     {"profile_export_aiperf.json": big_summary})
case("long_record", ["profile_export.jsonl:2", "4194304", "bundle.max_record_bytes"],
     {"profile_export.jsonl": record_with(10_000_000)})
case("wide_array", ["profile_export.jsonl:2", "1000000", "bundle.max_array_items"],
     {"profile_export.jsonl": record_with(1_200_000)})
# The limit is a setting.
src = os.path.join(data, "aiperf", "2025-11-qwen3-0.6b-concurrency-sweep")
jsonl = None
for dd, _, fs in os.walk(src):
    if "profile_export.jsonl" in fs:
        jsonl = os.path.join(dd, "profile_export.jsonl")
        break
if not jsonl:
    fail("no profile_export.jsonl in the fixtures")
text = open(jsonl).read()
case("configured", ["profile_export.jsonl:1", "limit of 100 bytes", "bundle.max_record_bytes"],
     {"profile_export.jsonl": lambda f: f.write(text)}, conf="[bundle]\nmax_record_bytes = 100\n")
# Records of one run are capped (each holds ~330 bytes in memory).
case("many_records", ["profile_export.jsonl:1001", "more than 1000 records", "bundle.max_records"],
     {"profile_export.jsonl": lambda f: f.write((json.dumps(good) + "\n") * 2000)},
     conf="[bundle]\nmax_records = 1000\n")
# And the list items of all records together.
icl = {"metadata": {"x_request_id": "c"},
       "metrics": {"inter_chunk_latency": {"unit": "ms", "value": [1.0] * 50}}}
case("many_items", ["profile_export.jsonl:21", "more than 1000 inter_chunk_latency items",
                    "bundle.max_run_items"],
     {"profile_export.jsonl": lambda f: f.write((json.dumps(icl) + "\n") * 40)},
     conf="[bundle]\nmax_run_items = 1000\n")
# An API answer is capped too.
def huge(body):
    yield b'{"AIBenchmarkJobStatus": "Completed", "x": ['
    for _ in range(100):
        yield b"0," * 100_000
    yield b"0]}"
fake = FakeAws(json_ops={"DescribeAIBenchmarkJob": huge})
rc, out, rss = run([smfw, "results", "--job", "job1"], env=fake.env(os.getcwd()))
fake.close()
print(f"api answer: rc={rc} max RSS {rss:.1f} MiB")
if rc == 0 or "8388608" not in out or rss > BOUND_MIB:
    fail(f"a 20 MiB API answer: rc {rc}, {rss:.1f} MiB:\n{out}")
print("ok")
PY
