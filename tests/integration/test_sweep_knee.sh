#!/usr/bin/env bash
# test_sweep_knee.sh - `smfw sweep` finds the knee of a server that saturates at
# a known concurrency: 4 decoding slots, requests beyond 4 queue before their
# first token. Throughput must stop growing after concurrency 4 while TTFT
# climbs, so the knee is 4; the cost and autoscaling numbers in sweep.json
# must match a hand computation from the measured levels; the reports exist;
# `smfw sweep --from` re-analyses the saved folder to the same decision.
#
# The server is smfw-mock with --max-concurrency 4 (decoding slots).
set -euo pipefail
: "${SMFW_BUILD_DIR:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
[ -x "$SMFW" ] || { echo "smfw not built"; exit 77; }
export AWS_ACCESS_KEY_ID=AKIDSWEEPTEST AWS_SECRET_ACCESS_KEY=sweep-test-secret-key
export AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-sweep.XXXXXX")
server_pid=
cleanup() {
    # Cleanup never decides the verdict: the assertions above did.
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

SLOTS=4
[ -x "$MOCK" ] || { echo "smfw-mock not built"; exit 1; }
"$MOCK" --listen 127.0.0.1:0 --endpoint bench --access-key-id "$AWS_ACCESS_KEY_ID" \
    --secret-access-key "$AWS_SECRET_ACCESS_KEY" --ttft-ms 20 --itl-ms 5 --output-tokens 16 \
    --max-concurrency "$SLOTS" > "$work/server.out" 2> "$work/server.err" &
server_pid=$!
for _ in $(seq 100); do grep -q listening "$work/server.out" && break; sleep 0.05; done
URL=$(head -1 "$work/server.out" | sed 's/.*listening on //')
[ -n "$URL" ] || { echo "server did not start"; cat "$work/server.err"; exit 1; }
target=(--endpoint bench --region us-east-1 --endpoint-url "$URL")

"$SMFW" sweep --backend direct "${target[@]}" --concurrency 1,2,4,8,16 --request-count 48 \
    --instance-type ml.g5.2xlarge --duty-cycle 0.5 --headroom 20% --progress none \
    -o "$work/sweep" > "$work/sweep.log" 2>&1 || { cat "$work/sweep.log"; exit 1; }
cat "$work/sweep.log"
for f in sweep.json sweep.md sweep.csv sweep.html concurrency_1/profile_export.jsonl \
         concurrency_16/profile_export_aiperf.json; do
    [ -s "$work/sweep/$f" ] || { echo "missing $f"; exit 1; }
done

"$SMFW_PYTHON" - "$work/sweep" "$SMFW_SOURCE_DIR/conf/prices.conf" <<'PY'
import json, math, re, sys
d, prices = sys.argv[1], sys.argv[2]
s = json.load(open(d + "/sweep.json"))
lv = {l["load"]: l for l in s["levels"]}
assert sorted(lv) == [1, 2, 4, 8, 16], sorted(lv)
tps = {c: lv[c]["output_tokens_per_s"] for c in lv}
print("throughput", {c: round(t) for c, t in tps.items()})
# the slots are the ceiling: 1 -> 4 scales, 4 -> 16 does not
assert tps[4] > 2.5 * tps[1], tps
assert tps[16] < 1.2 * tps[4], tps
assert lv[16]["ttft_p95_ms"] > 2 * lv[4]["ttft_p95_ms"], (lv[4]["ttft_p95_ms"], lv[16]["ttft_p95_ms"])
assert s["knee"] is not None and s["knee"]["load"] == 4, s["knee"]
assert lv[4]["verdict"] == "knee" and lv[16]["verdict"] in ("queueing", "saturated"), lv
# price of ml.g5.2xlarge in the bundled table, by hand
price = None
section = None
for line in open(prices):
    line = line.split(" #")[0].strip()
    m = re.match(r"\[(.*)\]", line)
    if m: section = m.group(1); continue
    if section == "us-east-1" and line.startswith("ml.g5.2xlarge"):
        price = float(line.split("=")[1])
assert s["usd_per_hour"] == price, (s["usd_per_hour"], price)
for c, l in lv.items():   # $/h / (tokens/s x duty) x 1e6 / 3600
    want = price / (l["output_tokens_per_s"] * 0.5) * 1e6 / 3600
    assert math.isclose(l["usd_per_1m_output_tokens"], want, rel_tol=1e-9), (c, l, want)
op = s["operating_point"]
assert op["load"] == 4 and math.isclose(op["usd_per_1m_output_tokens"],
                                        lv[4]["usd_per_1m_output_tokens"], rel_tol=1e-12)
a = s["autoscaling"]           # 4 in flight x 60 / mean latency, 20% below, floored
ipm = 4 * 60 / (lv[4]["e2e_avg_ms"] / 1000)
assert math.isclose(a["invocations_per_minute"], ipm, rel_tol=1e-9), (a, ipm)
assert a["target"] == math.floor(ipm * 0.8 + 1e-9), (a["target"], ipm)
assert a["headroom"] == 0.2 and "MinCapacity = MaxCapacity" in a["reminder"]
md = open(d + "/sweep.md").read()
assert "| **4** |" in md and "knee" in md and "SageMakerVariantInvocationsPerInstance" in md
html = open(d + "/sweep.html").read()
assert "<svg" in html and "4 knee" in html
print("knee", s["knee"]["load"], "target", a["target"], "cost", round(op["usd_per_1m_output_tokens"], 3))
PY

# The saved folder gives the same decision, and an SLO lowers the operating point.
"$SMFW" sweep --from "$work/sweep" --slo "ttft_p95=$("$SMFW_PYTHON" -c "
import json; s=json.load(open('$work/sweep/sweep.json'))
lv={l['load']:l for l in s['levels']}; print(lv[2]['ttft_p95_ms']*1.5)")ms" \
    --price-per-hour 1 -q
"$SMFW_PYTHON" - "$work/sweep" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/sweep.json"))
assert s["knee"]["load"] == 4, s["knee"]
assert s["slo_best"] is not None and s["slo_best"]["load"] <= 4, s["slo_best"]
assert s["operating_point"]["load"] == s["slo_best"]["load"]
assert s["usd_per_hour"] == 1
print("with SLO: operating point", s["operating_point"]["load"])
PY
echo "sweep knee OK"
