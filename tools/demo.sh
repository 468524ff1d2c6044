#!/usr/bin/env bash
# README's first command: install dependencies, build, and run a real benchmark
# against the built-in SageMaker emulator (smfw-mock): no AWS account needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
./build/smfw plugins
if ./build/smfw plugins 2>/dev/null | grep -q '^backend  *direct'; then
  # 64 curated prompts (output budgets ~500 tokens) at the mock's 5 ms a token: ~12 s.
  exec ./build/smfw run --endpoint mock --concurrency 16 --request-count 64 \
    --report json,csv,markdown,html "$@"
fi
