#!/usr/bin/env bash
# test_trust_overwrite.sh - no existing file changes (issue 21, item 4),
# checked by checksums before and after: a non-empty -o is refused (it held
# an output.tar.gz that was replaced before), an -o that is a symbolic link
# is refused, links planted as output.tar.gz.part and output.tar.gz while
# the download runs are never followed, the 1001st report of one name gets
# its own folder (the 1000th shared one before) and four runs started
# together get four folders.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_TESTDATA_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-ow.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" "$SMFW_TESTDATA_DIR" <<'PY'
import os, shutil, subprocess, sys
from trust_lib import FakeAws, aiperf_summary, run, tarball, tree, fail
smfw, data = sys.argv[1], sys.argv[2]
top = os.getcwd()
tarball("b.tgz", [("profile_export_aiperf.json", aiperf_summary())])
tgz = open("b.tgz", "rb").read()
os.remove("b.tgz")
os.makedirs("victims")
for v in ("v1", "v2", "v3"):
    open(os.path.join("victims", v), "w").write("precious " + v)
plant_in = {}

def s3_get(h, path):
    d = plant_in.get("dir")
    if d and h.command == "GET" and path == "/bkt/out/output.tar.gz":
        os.makedirs(d, exist_ok=True)
        os.symlink(os.path.join(top, "victims", "v1"), os.path.join(d, "output.tar.gz.part"))
        if plant_in.get("final"):
            os.symlink(os.path.join(top, "victims", "v2"), os.path.join(d, "output.tar.gz"))
    return False

fake = FakeAws(objects={"/bkt/out/output.tar.gz": tgz}, s3_get=s3_get)
env = fake.env(top)
S3 = ["results", "--s3", "s3://bkt/out/output.tar.gz"]

def unchanged(before, what):
    after = tree(os.path.join(top, "victims"))
    if after != before:
        fail(f"{what}: the victims changed: {before} -> {after}")

victims = tree("victims")
# 1. A non-empty -o.
os.makedirs("full")
open("full/output.tar.gz", "w").write("old bundle")
keep = tree("full")
rc, out, _ = run([smfw, *S3, "-o", "full"], env=env)
if rc == 0 or "not empty" not in out or "full" not in out:
    fail(f"non-empty -o not refused:\n{out}")
if tree("full") != keep:
    fail("the non-empty -o changed")
# 2. An -o that is a link.
os.makedirs("elsewhere")
os.symlink("elsewhere", "link")
rc, out, _ = run([smfw, *S3, "-o", "link"], env=env)
if rc == 0 or "symbolic link" not in out:
    fail(f"symlink -o not refused:\n{out}")
if os.listdir("elsewhere"):
    fail("written through the -o link")
# 3. Links planted while the download runs.
plant_in["dir"] = os.path.join(top, "fresh")
rc, out, _ = run([smfw, *S3, "-o", "fresh"], env=env)
print("planted .part:", rc)
if rc != 0:
    fail(f"a planted .part link broke the download:\n{out}")
unchanged(victims, "planted .part")
plant_in.update(dir=os.path.join(top, "fresh2"), final=True)
rc, out, _ = run([smfw, *S3, "-o", "fresh2"], env=env)
print("planted final:", rc, out.strip().splitlines()[-1])
if rc == 0 or "never replaced" not in out:
    fail(f"a planted output.tar.gz link was replaced or followed:\n{out}")
unchanged(victims, "planted output.tar.gz")
plant_in.clear()
# 4. The 1001st run of one name.
fx = os.path.join(top, "fx")
shutil.copytree(os.path.join(data, "aiperf", "2025-11-qwen3-0.6b-concurrency-sweep",
                             sorted(os.listdir(os.path.join(data, "aiperf",
                                    "2025-11-qwen3-0.6b-concurrency-sweep")))[0]), fx)
res = os.path.join(top, "smfw-results")
os.makedirs(res)
for k in range(1, 1001):
    d = os.path.join(res, "report-fx" if k == 1 else f"report-fx-{k}")
    os.makedirs(d)
    open(os.path.join(d, "mine"), "w").write(str(k))
before = tree(res)
rc, out, _ = run([smfw, "results", "--local", fx, "--report=json", "-q"], env=env)
after = tree(res)
for k, v in before.items():
    if after.get(k) != v:
        fail(f"run 1001 touched {k}")
new = sorted(set(p.split("/")[0] for p in after) - set(p.split("/")[0] for p in before))
print("1001st:", rc, new)
if new != ["report-fx-1001"]:
    fail(f"the 1001st run did not get its own folder: {new}\n{out}")
# 5. Four runs started together.
shutil.rmtree(res)
procs = [subprocess.Popen([smfw, "results", "--local", fx, "--report=json", "-q"], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT) for _ in range(4)]
rcs = [p.wait(timeout=120) for p in procs]
made = sorted(os.listdir(res))
print("together:", rcs, made)
if len(made) != 4:
    fail(f"four runs started together got {made}")
fake.close()
print("ok")
PY
