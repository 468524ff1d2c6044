#!/usr/bin/env bash
# test_sweep_goodput.sh - `smfw sweep --goodput` reports AIPerf's goodput per level and the
# SLO knee. The server is smfw-mock with 2 decoding slots: at concurrency 1 and 2 a TTFT
# of about 40 ms; above 2 requests queue behind a whole answer (~120 ms) and TTFT passes
# the 100 ms SLO, so goodput falls with load (60 ms of margin for a loaded machine). For
# each level this script computes AIPerf's formula from the level's records (good = valid
# records meeting every SLO, goodput = good / benchmark_duration of that level's
# profile_export_aiperf.json) and compares it with sweep.json (1e-12 relative); the SLO
# knee must be the rule's level: the highest level up to which every level keeps AIPerf's
# good_request_fraction, good / (valid + failed requests), >= the attainment (0.9, or
# --slo-attainment). Then `--from` re-analyses with another attainment and with other SLOs
# (recomputed from the records), a level marked PARTIAL.txt is left out (never the SLO
# knee), and the level folders' reporters carry the goodput rows.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_direct_lib.bash"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 2% of the answers fail (424 ModelError, no slot taken): failed requests are never good
# and count in the share's denominator; the gate is raised so they do not trip it.
start_mock --ttft-ms 40:2 --itl-ms 10 --output-tokens 8 --max-concurrency 2 --fault model-error:2%
SLO_MS=100
"$SMFW" sweep --backend direct --endpoint bench --endpoint-url "$MOCK_URL" --region us-east-1 \
    --concurrency 1,2,4,8 --request-count 40 --random-seed 5 --progress none --max-error-rate 0.2 \
    --goodput "time_to_first_token:$SLO_MS" --report json,csv,markdown,html \
    -o "$work/sweep" > "$work/sweep.log" 2>&1 || { cat "$work/sweep.log"; fail "sweep failed"; }
cat "$work/sweep.log"

# check.py DIR SLO_MS ATTAINMENT [LEVELS]: the hand computation against sweep.json.
cat > "$work/check.py" <<'PY'
import json, math, os, re, sys
d, slo_ms, att = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
want_levels = [float(x) for x in sys.argv[4].split(",")] if len(sys.argv) > 4 else None
s = json.load(open(f"{d}/sweep.json"))
levels = s["levels"]
if want_levels is not None:
    assert [l["load"] for l in levels] == want_levels, [l["load"] for l in levels]
assert s["slo_attainment"] == att, s["slo_attainment"]
fractions = []
for l in levels:
    sub = f"{d}/{l['dir']}"
    recs = [json.loads(x) for x in open(f"{sub}/profile_export.jsonl")]
    valid = [r for r in recs if r.get("error") is None]
    good = sum(1 for r in valid if r["metrics"]["time_to_first_token"]["value"] <= slo_ms)
    dur = json.load(open(f"{sub}/profile_export_aiperf.json"))["benchmark_duration"]["avg"]
    want = good / dur
    assert l["good_request_count"] == good, (l["load"], l["good_request_count"], good)
    assert abs(l["goodput"] - want) <= 1e-12 * want, (l["load"], l["goodput"], want)
    frac = good / len(recs)   # AIPerf's good_request_fraction: over valid + failed requests
    assert abs(l["good_request_fraction"] - frac) <= 1e-12, (l["load"], l["good_request_fraction"], frac)
    assert l["goodput_attained"] == (frac >= att), (l["load"], l["goodput_attained"], frac, att)
    fractions.append(frac)
# The rule: the level before the first one below the attainment (none when the lowest is).
knee = None
for l, f in zip(levels, fractions):
    if f < att:
        break
    knee = l["load"]
got = s["slo_knee"]["load"] if s["slo_knee"] else None
assert got == knee, (got, knee, fractions)
md = open(f"{d}/sweep.md").read()
assert "| Goodput (requests/s) | Good % |" in md, md
line = [x for x in md.splitlines() if x.startswith("- SLO knee: ")]
assert len(line) == 1, md
if knee is not None:
    assert line[0].startswith(f"- SLO knee: concurrency {knee:g}: "), line
    tk = s["knee"]["load"] if s["knee"] else None
    rel = ("the throughput knee is not reached" if tk is None else
           "below the throughput knee" if knee < tk else
           "the same level as the throughput knee" if knee == tk else "above the throughput knee")
    assert rel in line[0] and rel in s["slo_knee_vs_knee"], (line, s["slo_knee_vs_knee"], tk)
else:
    assert line[0].startswith("- SLO knee: none: "), line
html = open(f"{d}/sweep.html").read()
labels = re.findall(r">([0-9.]+)[^<]* SLO knee</text>", html)   # the chart's point label
assert labels == ([f"{knee:g}"] if knee is not None else []), labels
assert "<th>Goodput (requests/s)</th><th>Good %</th>" in html
csv = open(f"{d}/sweep.csv").read().splitlines()
assert csv[0].endswith(",goodput,good_request_count,good_request_fraction,goodput_attained,slo_knee"), csv[0]
assert [r.split(",")[-1] for r in csv[1:]] == [
    "1" if l["load"] == knee else "0" for l in levels], csv
failed = sum(l["errors"] for l in levels)
print(" ".join(f"{l['load']:g}:{f:.3f}" for l, f in zip(levels, fractions)), "-> SLO knee", knee,
      f"| {failed} failed requests"
      "| throughput knee", s["knee"]["load"] if s["knee"] else None)
print(",".join(str(f) for f in fractions))
PY

"$SMFW_PYTHON" "$work/check.py" "$work/sweep" "$SLO_MS" 0.9 1,2,4,8 > "$work/check.out" \
    || fail "the sweep's goodput is not AIPerf's formula"
cat "$work/check.out"
# The SLO separates levels: the lowest ones attain, the highest does not (else the
# comparison above proves nothing about the knee).
"$SMFW_PYTHON" - "$(tail -1 "$work/check.out")" <<'PY' || fail "the SLO does not separate the levels"
import sys
f = [float(x) for x in sys.argv[1].split(",")]
assert f[0] >= 0.9 and f[-1] < 0.9, f
PY
python_json() { "$SMFW_PYTHON" -c "import json,sys; s=json.load(open('$1')); print($2)"; }
[ "$(python_json "$work/sweep/sweep.json" "s['goodput_slos']")" = "['time_to_first_token:$SLO_MS']" ] \
    || fail "sweep.json does not name the goodput SLOs"
grep -q "SLO knee" "$work/sweep/sweep.html" || fail "sweep.html has no SLO knee"

# --from with another attainment: the same goodput, the rule at 5%.
"$SMFW" sweep --from "$work/sweep" --slo-attainment 5% -q || fail "--from --slo-attainment"
"$SMFW_PYTHON" "$work/check.py" "$work/sweep" "$SLO_MS" 0.05 1,2,4,8 || fail "--from at 5%"

# --from with other SLOs: goodput recomputed from the records, every request now good.
"$SMFW" sweep --from "$work/sweep" --goodput "time_to_first_token:100000" -q || fail "--from --goodput"
"$SMFW_PYTHON" "$work/check.py" "$work/sweep" 100000 0.9 1,2,4,8 || fail "--from --goodput recompute"
[ "$(python_json "$work/sweep/sweep.json" "s['slo_knee']['load']")" = 8.0 ] || fail "all-good knee"
grep -q "every level tested attains, so it may lie above the sweep" "$work/sweep/sweep.md" \
    || fail "the top-level SLO knee does not say it may lie higher"

# A partial level is left out: with concurrency 2 marked, the knee falls back to 1.
echo "interrupted after 3 requests" > "$work/sweep/concurrency_2/PARTIAL.txt"
"$SMFW" sweep --from "$work/sweep" -q 2> "$work/from.err" || { cat "$work/from.err"; fail "--from with a partial level"; }
grep -q "concurrency_2 is a partial level (PARTIAL.txt): left out" "$work/from.err" \
    || fail "no warning for the partial level: $(cat "$work/from.err")"
"$SMFW_PYTHON" "$work/check.py" "$work/sweep" "$SLO_MS" 0.9 1,4,8 || fail "--from without the partial level"
grep -q "as recorded in the level folders" "$work/sweep/sweep.md" || fail "SLOs not said to be recorded"

# --compare-instance gains an SLO knee column for sweeps with goodput: the same level.
"$SMFW" sweep --compare-instance "$work/sweep=ml.g5.2xlarge" > "$work/compare.out" 2> /dev/null \
    || fail "--compare-instance: $(cat "$work/compare.out")"
"$SMFW_PYTHON" - "$work/compare.out" "$work/sweep/sweep.json" <<'PY' || fail "compare: $(cat "$work/compare.out")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
head = [c.strip() for c in lines[0].strip("|").split("|")]
row = [c.strip() for c in lines[2].strip("|").split("|")]
k = json.load(open(sys.argv[2]))["slo_knee"]
assert head[3] == "SLO knee", head
assert row[3] == (f"{k['load']:g}" if k else "-"), (row, k)
PY

# Bad attainment: refused, naming the flag.
for bad in 0 1.5 abc; do
    rc=0; "$SMFW" sweep --from "$work/sweep" --slo-attainment "$bad" -q 2> "$work/bad.err" || rc=$?
    [ "$rc" != 0 ] && grep -q -- "--slo-attainment wants a share in (0, 1]" "$work/bad.err" \
        || fail "--slo-attainment $bad: rc $rc, $(cat "$work/bad.err")"
done

# The level folders' reporters carry goodput under AIPerf's names.
lvl="$work/sweep/concurrency_4"
"$SMFW_PYTHON" - "$lvl" <<'PY' || fail "reporter goodput rows"
import json, sys
d = sys.argv[1]
j = json.load(open(f"{d}/profile_export_aiperf.json"))
good, gp = j["good_request_count"], j["goodput"]
assert good["unit"] == "requests" and gp["unit"] == "requests/sec", (good, gp)
csv = open(f"{d}/profile_export_aiperf.csv", newline="").read().split("\r\n")
rows = {r.split(",")[0]: r.split(",")[1] for r in csv if "," in r}
assert rows["Good Request Count"] == f"{good['avg']:.2f}", rows
assert rows["Goodput (requests/sec)"] == f"{gp['avg']:.2f}", rows
md = open(f"{d}/summary.md").read()
assert "| Goodput " in md and f"| Good requests " in md, md
row = [l for l in md.splitlines() if l.startswith("| Good requests ")][0]
assert f"| {int(good['avg'])} " in row.replace("  ", " ") or f" {int(good['avg'])} |" in row, row
html = open(f"{d}/report.html").read()
assert "Good requests" in html and "Goodput" in html
print("reporters: good_request_count", int(good["avg"]), "goodput", round(gp["avg"], 3))
PY
echo ok
