#!/usr/bin/env bash
# test_capacity_tutorial.sh - docs/capacity.md's tutorial (steps 6 and 7 against
# --endpoint mock) is runnable as written and says what it shows: the block between
# <!-- tutorial:begin --> and <!-- tutorial:end --> is run as it stands with the built smfw
# first on PATH, then its claims are checked from the files it wrote: the knees (8 and 16),
# the cost line's formula with conf/prices.conf's list prices, the g6e listed first although
# dearer per hour, the plan's target equal to the sweep's, and the gate's exit 4.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_PYTHON:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-tutorial.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; [ -n "${2:-}" ] && cat "$2"; exit 1; }

doc="$SMFW_SOURCE_DIR/docs/capacity.md"
awk '/<!-- tutorial:begin -->/{on=1; next} /<!-- tutorial:end -->/{on=0} on' "$doc" |
    sed '/^```/d' >"$work/tutorial.sh"
[ "$(grep -c '^smfw ' "$work/tutorial.sh")" -ge 7 ] || fail "no tutorial block in $doc" "$work/tutorial.sh"

cd "$work"
export HOME="$work" AWS_EC2_METADATA_DISABLED=true NO_COLOR=1
PATH="$SMFW_BUILD_DIR:$PATH" bash -euo pipefail tutorial.sh >out.txt 2>err.txt ||
    { cat err.txt; fail "the tutorial block failed (exit $?)" out.txt; }

"$SMFW_PYTHON" - "$SMFW_SOURCE_DIR/conf/prices.conf" <<'PY' || fail "the tutorial's claims" out.txt
import json, re, sys
out = open("out.txt").read()
g5, g6e = (json.load(open(f"sweep-{n}/sweep.json")) for n in ("g5", "g6e"))
assert g5["knee"]["load"] == 8 and g6e["knee"]["load"] == 16, (g5["knee"], g6e["knee"])
for s in (g5, g6e):
    at = next(l for l in s["levels"] if l["load"] == s["knee"]["load"])
    want = s["usd_per_hour"] / (at["output_tokens_per_s"] * s["duty_cycle"]) * 1e6 / 3600
    assert abs(at["usd_per_1m_output_tokens"] - want) < 1e-12, (at, want)
    assert s["duty_cycle"] == 0.3, s["duty_cycle"]
    verdicts = [l["verdict"] for l in s["levels"] if l["load"] > s["knee"]["load"]]
    assert verdicts and set(verdicts) <= {"queueing", "saturated"}, verdicts
# the list prices of conf/prices.conf for us-east-1, as the doc quotes them
prices = open(sys.argv[1]).read()
for it, usd, shown in (("ml.g5.2xlarge", g5["usd_per_hour"], "1.52"), ("ml.g6e.2xlarge", g6e["usd_per_hour"], "2.80")):
    assert f"{it} = {usd:g}" in prices, (it, usd)
    assert abs(usd - float(shown)) < 0.006, (it, usd, shown)
# --compare-instance: the g6e first, dearer per hour, cheaper per token
rows = [l for l in out.splitlines() if l.startswith("| ml.")]
assert [r.split("|")[1].strip() for r in rows[:2]] == ["ml.g6e.2xlarge", "ml.g5.2xlarge"], rows
assert g6e["usd_per_hour"] > g5["usd_per_hour"]
assert g6e["operating_point"]["usd_per_1m_output_tokens"] < g5["operating_point"]["usd_per_1m_output_tokens"]
# autoscaling plan: the sweep's own target, per instance per minute
plan = json.loads(out[out.index('{\n  "PolicyName"'):out.index("\n}\n") + 2])
cfg = plan["TargetTrackingScalingPolicyConfiguration"]
assert cfg["PredefinedMetricSpecification"]["PredefinedMetricType"] == "SageMakerVariantInvocationsPerInstance"
assert cfg["TargetValue"] == g5["autoscaling"]["target"], (cfg, g5["autoscaling"])
assert plan["ResourceId"] == "endpoint/my-llm/variant/AllTraffic", plan
# the gate: exit 4, ITL and throughput named
assert "compare exit 4: regression" in out, out[-2000:]
gate = out[out.index("# smfw compare"):]
assert re.search(r"\| ITL p50 \|.*\| REGRESSION \|", gate) and re.search(r"\| Output tokens/s \|.*\| REGRESSION \|", gate), gate
print(f"tutorial: knees 8 and 16, ${g5['operating_point']['usd_per_1m_output_tokens']:.3f} vs "
      f"${g6e['operating_point']['usd_per_1m_output_tokens']:.3f} per 1M tokens, target {cfg['TargetValue']:.0f}, gate exit 4")
PY
echo "PASS: docs/capacity.md's tutorial runs as written and shows what it says"
