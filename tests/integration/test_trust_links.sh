#!/usr/bin/env bash
# test_trust_links.sh - hard links and sparse holes count against the
# extraction limits (issue 21, item 5): a bundle of one 1 MiB file and 4,200
# hard links to it (a few KiB compressed, 4.1 GiB for a reader; links
# counted nothing before) is refused naming max_total_bytes, and a 3 GiB
# sparse file (GNU tar --sparse, a few hundred bytes) naming
# max_file_bytes; a 256 MiB hole under the limits (one 256 MiB line for a
# reader, all in memory before) is refused by the record cap. All within
# 60 s, the child under 100 MiB of RSS, and the refused archives leave
# nothing behind.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-trust-links.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PYTHONPATH="$SMFW_SOURCE_DIR/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
mkdir sparse hole
truncate -s 3G sparse/profile_export.jsonl
tar --sparse -czf sparse.tgz -C sparse profile_export.jsonl
truncate -s 256M hole/profile_export.jsonl
tar --sparse -czf hole.tgz -C hole profile_export.jsonl
rm -rf sparse hole
"$SMFW_PYTHON" - "$SMFW_BUILD_DIR/smfw" <<'PY'
import io, os, sys, tarfile, time
from trust_lib import FakeAws, aiperf_summary, rss_bound, run, tree, fail
smfw = sys.argv[1]
top = os.getcwd()
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz") as t:
    ti = tarfile.TarInfo("profile_export_aiperf.json")
    data = aiperf_summary()
    ti.size = len(data)
    t.addfile(ti, io.BytesIO(data))
    ti = tarfile.TarInfo("big.jsonl")
    ti.size = 1 << 20
    t.addfile(ti, io.BytesIO(b"\n" * ti.size))
    for i in range(4200):
        li = tarfile.TarInfo(f"l{i}.jsonl")
        li.type = tarfile.LNKTYPE
        li.linkname = "big.jsonl"
        t.addfile(li)
links = buf.getvalue()
sparse = open("sparse.tgz", "rb").read()
hole = open("hole.tgz", "rb").read()
os.remove("sparse.tgz")
os.remove("hole.tgz")
print(f"archives: links {len(links)} bytes, sparse {len(sparse)} bytes")
fake = FakeAws(objects={"/bkt/links/output.tar.gz": links, "/bkt/sparse/output.tar.gz": sparse,
                        "/bkt/hole/output.tar.gz": hole})
env = fake.env(top)
for name, expect in (("links", "max_total_bytes"), ("sparse", "max_file_bytes"),
                     ("hole", "bundle.max_record_bytes")):
    before = tree(top) if name != "hole" else None
    t0 = time.monotonic()
    rc, out, rss = run([smfw, "results", "--s3", f"s3://bkt/{name}/output.tar.gz"], env=env,
                       timeout=120)
    wall = time.monotonic() - t0
    print(f"{name}: rc={rc} wall={wall:.1f}s max RSS {rss:.1f} MiB")
    if rc == 0 or expect not in out:
        fail(f"{name}: want a refusal naming {expect}:\n{out}")
    if wall > 60 or rss > rss_bound(100):
        fail(f"{name}: {wall:.1f} s, {rss:.1f} MiB: over 60 s or {rss_bound(100)} MiB")
    if before is None:
        continue  # a fetch that worked: the bundle stays, only its reading is refused
    diff = sorted(k for k in set(before) ^ set(tree(top)) if not k.startswith("cache"))
    if diff:
        fail(f"{name}: left {diff[:5]}")
fake.close()
print("ok")
PY
