#!/usr/bin/env bash
# test_html_report.sh - report.html of a mock run, rendered by headless Chromium.
#
# Runs a short benchmark against smfw-mock (direct backend) with the html
# reporter, loads report.html in Chromium with every network feature off,
# and checks the rendered DOM: each chart's <svg> holds data points with
# hover titles. The screenshot stays at $SMFW_BUILD_DIR/artifacts/report.png
# (a CI artifact). The fixture bundle with errors (legacy AIPerf run) is
# rendered too, so the error and percentile paths are seen by a browser.
# Skips (exit 77) when Chromium is not installed: apt-get install chromium.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_SOURCE_DIR:?}" "${SMFW_TESTDATA_DIR:?}"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
    echo "SKIP: Chromium is not installed (Debian: apt-get install chromium); report.html not rendered"
    exit 77
fi
SMFW="$SMFW_BUILD_DIR/smfw"
RENDER="$SMFW_BUILD_DIR/tests/integration/reporter_render"
ARTIFACTS="$SMFW_BUILD_DIR/artifacts"
mkdir -p "$ARTIFACTS"
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-html.XXXXXX")
trap 'rm -rf "$work"' EXIT

chromium_run() { # chromium_run OUTPUT_FLAG PAGE
    timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-extensions --disable-default-apps --mute-audio --hide-scrollbars \
        --user-data-dir="$work/profile" --window-size=1400,2600 "$1" "file://$2"
}

# check_dom DOM_FILE MIN_CHARTS: every svg.chart-svg has >= 1 point, each point a <title>.
check_dom() {
    "$SMFW_PYTHON" - "$1" "$2" <<'PY'
import sys
from html.parser import HTMLParser

class Charts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = []      # [id, points, titled points, declared points]
        self.depth = 0        # depth inside the current chart svg
        self.in_pt = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "svg" and "chart-svg" in cls:
            self.charts.append([a.get("id"), 0, 0, int(a.get("data-points", "0"))])
            self.depth = 1
            return
        if self.depth:
            self.depth += 1
            if "pt" in cls and tag in ("circle", "rect"):
                self.charts[-1][1] += 1
                self.in_pt = self.depth
            if tag == "title" and self.in_pt:
                self.charts[-1][2] += 1
    def handle_endtag(self, tag):
        if self.depth:
            if self.in_pt == self.depth:
                self.in_pt = 0
            self.depth -= 1

dom = open(sys.argv[1], encoding="utf-8").read()
p = Charts()
p.feed(dom)
need = int(sys.argv[2])
if "<script" in dom:
    sys.exit("FAIL: the report contains a script")
if len(p.charts) < need:
    sys.exit(f"FAIL: {len(p.charts)} chart svgs rendered, expected at least {need}")
for cid, pts, titled, declared in p.charts:
    print(f"  chart {cid}: {pts} data points ({titled} with hover titles)")
    if pts == 0:
        sys.exit(f"FAIL: chart {cid} has no data points")
    if titled != pts or pts != declared:
        sys.exit(f"FAIL: chart {cid}: {pts} points, {titled} titles, {declared} declared")
PY
}

# check_png FILE: a real PNG of the window size with content (not a blank page).
check_png() {
    "$SMFW_PYTHON" - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("FAIL: screenshot is not a PNG")
w, h = struct.unpack(">II", data[16:24])
if (w, h) != (1400, 2600):
    sys.exit(f"FAIL: screenshot is {w}x{h}")
if len(data) < 30000:
    sys.exit(f"FAIL: screenshot is only {len(data)} bytes: a blank page?")
print(f"  screenshot {w}x{h}, {len(data)} bytes")
PY
}

# 1. A mock run through the direct backend.
run="$work/mock-run"
"$SMFW" run --backend direct --endpoint mock --dataset synthetic --request-count 48 \
    --concurrency 8 --report json,markdown,html -o "$run" --progress none -q \
    >"$work/mock.log" 2>&1 || { tail -20 "$work/mock.log"; echo "FAIL: the mock run failed"; exit 1; }
page="$run/report.html"
what="mock run"
[ -s "$page" ] || { echo "FAIL: $page was not written"; exit 1; }
echo "report of the $what: $page"
chromium_run --dump-dom "$page" >"$work/dom.html" 2>"$work/chromium.log" || {
    echo "FAIL: chromium could not render $page"; tail -5 "$work/chromium.log"; exit 1; }
check_dom "$work/dom.html" 6
chromium_run --screenshot="$ARTIFACTS/report.png" "$page" >/dev/null 2>>"$work/chromium.log"
check_png "$ARTIFACTS/report.png"
cp "$page" "$ARTIFACTS/report.html"

# 2. The legacy AIPerf bundle (100 records, 11 cancelled): error bars and all.
bundle="$work/bundle"
mkdir -p "$bundle"
"$RENDER" "$SMFW_BUILD_DIR/plugins" "$SMFW_TESTDATA_DIR/aiperf/legacy-2025-10-example-run1" \
    "$bundle" html
chromium_run --dump-dom "$bundle/report.html" >"$work/dom2.html" 2>>"$work/chromium.log"
check_dom "$work/dom2.html" 6
grep -q "failed (cancelled)" "$work/dom2.html" || { echo "FAIL: no cancelled error bars"; exit 1; }
chromium_run --screenshot="$ARTIFACTS/report-aiperf-bundle.png" "$bundle/report.html" \
    >/dev/null 2>>"$work/chromium.log"
check_png "$ARTIFACTS/report-aiperf-bundle.png"
echo "PASS: report.html renders in Chromium ($ARTIFACTS/report.png)"
