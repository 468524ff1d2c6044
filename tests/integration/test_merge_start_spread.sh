#!/usr/bin/env bash
# test_merge_start_spread.sh - `smfw merge` judges shards of one --start-at: two that waited for
# the moment merge and report a small spread; one that began after the moment (it had passed)
# is refused with a sentence giving the spread, the late shard and --allow-start-spread, which
# merges with a warning; shards without --start-at are reported, not judged; shards from several
# hosts are judged on their recorded clocks (unsynchronised, or maxerror too large: refused).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

# A window of about a second: 2 % of it (the spread merge accepts) is some 18 ms, well above a
# busy machine's scheduling jitter (a 0.2 s window refused a 4.5 ms spread once under ctest -j2).
start_mock --ttft-ms 5 --itl-ms 1 --output-tokens 40
common=(--concurrency 2 --request-count 80 --random-seed 4)
# far enough ahead that both shards are loaded and waiting even on a busy machine
at=$(date -u -d '+5 sec' +%Y-%m-%dT%H:%M:%S.%3NZ)
run_direct "$work/a1" "${common[@]}" --shard 1/2 --start-at "$at" > "$work/rc1" &
p1=$!
run_direct "$work/a2" "${common[@]}" --shard 2/2 --start-at "$at" > "$work/rc2" &
p2=$!
wait "$p1" "$p2"
[ "$(cat "$work/rc1")$(cat "$work/rc2")" = 00 ] || { cat "$work"/a?.log; exit 1; }
# shard 2 again, after the moment: 2 s late at least
sleep 1
rc=$(run_direct "$work/late2" "${common[@]}" --shard 2/2 --start-at "$at")
[ "$rc" = 0 ] || { cat "$work/late2.log"; exit 1; }
for i in 1 2; do rc=$(run_direct "$work/n$i" "${common[@]}" --shard "$i/2"); [ "$rc" = 0 ]; done
stop_mock

"$SMFW" merge "$work/a1" "$work/a2" -o "$work/m-ok" > "$work/ok.log" 2>&1 || { cat "$work/ok.log"; exit 1; }
grep -q "start spread .* ms (--start-at; latest" "$work/ok.log" || { cat "$work/ok.log"; exit 1; }

set +e
"$SMFW" merge "$work/a1" "$work/late2" -o "$work/m-late" > "$work/late.log" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || { echo "a late shard must be refused (exit $rc)"; cat "$work/late.log"; exit 1; }
grep -q "began .* ms apart (2/2 last" "$work/late.log" && grep -q -- "--allow-start-spread" "$work/late.log" \
    || { cat "$work/late.log"; exit 1; }
[ ! -e "$work/m-late" ] || { echo "a refused merge left its folder"; exit 1; }

"$SMFW" merge "$work/a1" "$work/late2" -o "$work/m-forced" --allow-start-spread > "$work/forced.log" 2>&1
grep -q "warning: the shards began" "$work/forced.log" || { cat "$work/forced.log"; exit 1; }

"$SMFW" merge "$work/n1" "$work/n2" -o "$work/m-plain" > "$work/plain.log" 2>&1 || { cat "$work/plain.log"; exit 1; }
grep -q "start spread" "$work/plain.log" && ! grep -q -- "--start-at" "$work/plain.log"

"$SMFW_PYTHON" - "$work" <<'PY'
import json, sys
w = sys.argv[1]
ok = json.load(open(f"{w}/m-ok/profile_export_aiperf.json"))["smfw"]["client"]["merge"]["start"]
late = json.load(open(f"{w}/m-forced/profile_export_aiperf.json"))["smfw"]["client"]["merge"]["start"]
plain = json.load(open(f"{w}/m-plain/profile_export_aiperf.json"))["smfw"]["client"]["merge"]["start"]
assert ok["barrier"] and late["barrier"] and not plain["barrier"], (ok, late, plain)
assert late["latest_lateness_ms"] > 900 and late["spread_ms"] > 900, late
print(f"start spread: together {ok['spread_ms']:.2f} ms, late {late['spread_ms']:.0f} ms refused")
PY
# Several hosts: each shard's clock as it recorded it (adjtimex: synchronised, maxerror_us) is
# judged. The two good shards are copied with host names and clocks set as another host's
# would be: an unsynchronised clock is refused naming the shard; a maxerror above 2 % of the
# window is refused giving it; --allow-start-spread merges with a warning; good clocks merge.
"$SMFW_PYTHON" - "$work" <<'PY'
import json, shutil, sys
w = sys.argv[1]
st = json.load(open(f"{w}/a1/profile_export_aiperf.json"))["smfw"]["client"]["start"]
assert isinstance(st["clock"]["synchronised"], bool) and "maxerror_us" in st["clock"], st
assert st["host"], st
for case, clock2 in (("unsync", {"synchronised": False, "maxerror_us": 500}),
                     ("drift", {"synchronised": True, "maxerror_us": 5_000_000}),
                     ("fine", {"synchronised": True, "maxerror_us": 100})):
    for i, host, clock in ((1, "host-a", {"synchronised": True, "maxerror_us": 100}), (2, "host-b", clock2)):
        d = f"{w}/{case}{i}"
        shutil.copytree(f"{w}/a{i}", d)
        f = f"{d}/profile_export_aiperf.json"
        doc = json.load(open(f))
        doc["smfw"]["client"]["start"]["host"] = host
        doc["smfw"]["client"]["start"]["clock"].update(clock)
        json.dump(doc, open(f, "w"))
PY
set +e
"$SMFW" merge "$work/unsync1" "$work/unsync2" -o "$work/m-unsync" > "$work/unsync.log" 2>&1; r1=$?
"$SMFW" merge "$work/drift1" "$work/drift2" -o "$work/m-drift" > "$work/drift.log" 2>&1; r2=$?
"$SMFW" merge "$work/drift1" "$work/drift2" -o "$work/m-drift-ok" --allow-start-spread > "$work/drift-ok.log" 2>&1; r3=$?
"$SMFW" merge "$work/fine1" "$work/fine2" -o "$work/m-fine" > "$work/fine.log" 2>&1; r4=$?
set -e
[ "$r1" = 1 ] && grep -q "ran on 2 hosts and 2/2's clock is not synchronised (adjtimex)" "$work/unsync.log" ||
    { echo "an unsynchronised clock on another host must be refused (exit $r1)"; cat "$work/unsync.log"; exit 1; }
[ "$r2" = 1 ] && grep -q "clocks may be off by up to 5000.0 ms (adjtimex maxerror)" "$work/drift.log" ||
    { echo "a large clock error must be refused (exit $r2)"; cat "$work/drift.log"; exit 1; }
[ "$r3" = 0 ] && grep -q "warning: the shards' clocks may be off" "$work/drift-ok.log" ||
    { echo "--allow-start-spread must merge with a warning (exit $r3)"; cat "$work/drift-ok.log"; exit 1; }
[ "$r4" = 0 ] || { echo "two synchronised hosts must merge (exit $r4)"; cat "$work/fine.log"; exit 1; }
"$SMFW_PYTHON" -c 'import json,sys; s=json.load(open(sys.argv[1]))["smfw"]["client"]["merge"]["start"]; assert s["hosts"] == 2 and abs(s["clock_error_ms"] - 0.1) < 1e-9, s' \
    "$work/m-fine/profile_export_aiperf.json"
echo "ok"
