#!/usr/bin/env bash
# test_merge_start_spread.sh - `smfw merge` judges shards of one --start-at: two that waited for
# the moment merge and report a small spread; one that began after the moment (it had passed)
# is refused with a sentence giving the spread, the late shard and --allow-start-spread, which
# merges with a warning; shards without --start-at are reported, not judged.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"

start_mock --ttft-ms 5 --itl-ms 1 --output-tokens 4
common=(--concurrency 2 --request-count 40 --random-seed 4)
at=$(date -u -d '+3 sec' +%Y-%m-%dT%H:%M:%S.%3NZ)
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
echo "ok"
