#!/usr/bin/env bash
# test_trust_download.sh - downloads are bounded and failed fetches leave
# nothing (issue 21, items 6 and 11), against a fake S3 on loopback: a
# Content-Length over bundle.max_download_bytes is refused at once, a body
# without Content-Length is cut as read, a server sending 2 bytes/s is
# abandoned after bundle.low_speed_time, a steady 4 KiB/s one at
# bundle.download_timeout; each refusal names the limit, runs within a
# stated wall time and leaves the parent tree as it was (no folder, no
# tarball, no partial). A bundle the extractor refuses leaves nothing too, and so
# does a download interrupted by Ctrl-C (exit 130).
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-dl.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" <<'PY'
import os, sys, time
from trust_lib import FakeAws, run, tarball, tree, fail
smfw = sys.argv[1]
top = os.getcwd()
mode = {}

def s3_get(h, path):
    m = mode.get("m")
    if h.command != "GET" or not m:
        return False
    h.send_response(200)
    h.send_header("Content-Type", "application/octet-stream")
    if m == "huge-length":
        h.send_header("Content-Length", str(5 << 30))
    h.send_header("Connection", "close")
    h.end_headers()
    h.close_connection = True
    try:
        if m == "huge-length":
            h.wfile.write(b"\0" * 65536)
        elif m == "no-length":
            for _ in range(48):
                h.wfile.write(b"\0" * 65536)
        elif m in ("slow", "steady"):
            rate, step = (2, 1.0) if m == "slow" else (4096, 0.25)
            end = time.monotonic() + 30
            while time.monotonic() < end:
                h.wfile.write(b"\0" * int(rate * step))
                h.wfile.flush()
                time.sleep(step)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return True

tarball("evil.tgz", [("../escape", b"x")])
evil = open("evil.tgz", "rb").read()
os.remove("evil.tgz")
fake = FakeAws(objects={"/bkt/out/output.tar.gz": b"unused", "/bkt/evil/output.tar.gz": evil},
               s3_get=s3_get)
env = fake.env(top)
conf = ("[bundle]\nmax_download_bytes = 1048576\nlow_speed_bytes = 1024\nlow_speed_time = 2s\n"
        "download_timeout = 4s\n")
open("smfw.conf", "w").write(conf)

def case(m, expect, max_wall, uri="s3://bkt/out/output.tar.gz", extra=()):
    mode["m"] = m
    before = tree(top)
    t0 = time.monotonic()
    rc, out, _ = run([smfw, "results", "--s3", uri, *extra], env=env, timeout=60)
    wall = time.monotonic() - t0
    print(f"{m}: rc={rc} wall={wall:.1f}s")
    if rc == 0 or rc > 100:
        fail(f"{m}: want a refusal, got rc {rc}:\n{out}")
    for e in expect:
        if e not in out:
            fail(f"{m}: {e!r} not in:\n{out}")
    if wall > max_wall:
        fail(f"{m}: took {wall:.1f} s, over {max_wall} s")
    after = tree(top)
    diff = sorted(k for k in set(before) ^ set(after) if not k.startswith("cache"))
    if diff:
        fail(f"{m}: the failed fetch left {diff}")

case("huge-length", ["1048576", "bundle.max_download_bytes"], 10)
case("no-length", ["1048576", "bundle.max_download_bytes"], 10)
case("slow", ["bundle.low_speed_time"], 12)
case("steady", ["bundle.download_timeout"], 12)
# Ctrl-C (SIGINT) in the middle of a slow download: exit 130 and nothing left behind, the
# partial file that was being written included.
import signal, subprocess
mode["m"] = "steady"
before = tree(top)
p = subprocess.Popen([smfw, "results", "--s3", "s3://bkt/out/output.tar.gz"], env=env,
                     stdout=open("int.log", "w"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
partial, t0 = None, time.monotonic()
while partial is None and time.monotonic() - t0 < 3 and p.poll() is None:
    for d, _, files in os.walk(os.path.join(top, "smfw-results")):
        for n in files:
            if "output.tar.gz" in n:  # the hidden temporary (.output.tar.gz.XXXXXX)
                partial = os.path.relpath(os.path.join(d, n), top)
    time.sleep(0.05)
if partial is None:
    fail("interrupt: no partial download seen within 3 s:\n" + open("int.log").read())
p.send_signal(signal.SIGINT)
try:
    rc = p.wait(timeout=10)
except subprocess.TimeoutExpired:
    p.kill()
    fail("interrupt: smfw still running 10 s after SIGINT")
log = open("int.log").read()
os.remove("int.log")
print(f"interrupt: rc={rc} after {time.monotonic() - t0:.1f}s (partial {partial} seen)")
if rc != 130:
    fail(f"interrupt: exit {rc}, want 130:\n{log}")
diff = sorted(k for k in set(before) ^ set(tree(top)) if not k.startswith("cache"))
if diff:
    fail(f"interrupt: the interrupted download left {diff}:\n{log}")
os.makedirs("given")
case(None, ["escape"], 10, uri="s3://bkt/evil/output.tar.gz", extra=("-o", "given"))
if os.listdir("given"):
    fail(f"the refused bundle left {os.listdir('given')} in -o")
fake.close()
print("ok")
PY
