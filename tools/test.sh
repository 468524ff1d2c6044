#!/usr/bin/env bash
# The whole test suite, as CI runs it: dependencies, a -Werror build and every
# test, the same tests under AddressSanitizer + UndefinedBehaviorSanitizer,
# and every libFuzzer target for a bounded time.
#   --quick  configure, build and the unit tests only (a few minutes)
#   FUZZ_SECONDS=60 (per target)  SMFW_SKIP_SANITIZE=1  SMFW_SKIP_FUZZ=1  SMFW_SKIP_IMAGE=1
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

bash tools/deps.sh --test

if [ "${1:-}" = --quick ]; then
  echo "== build (gcc, -Werror) =="
  cmake -S . -B build -DSMFW_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build -j"$jobs"
  echo "== unit tests =="
  ctest --test-dir build --output-on-failure -j"$jobs" -R '^unit\.'
  echo "== unit tests passed =="
  exit 0
elif [ -n "${1:-}" ]; then
  echo "tools/test.sh: unknown option $1 (only --quick)" >&2
  exit 1
fi

echo "== format (clang-format, the committed .clang-format) =="
unformatted=$(git ls-files '*.c' '*.h' 2>/dev/null | while read -r f; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"; done)
if [ -n "$unformatted" ]; then
  echo "not formatted (run clang-format -i on them):"; echo "$unformatted"; exit 1
fi
echo "format: 1 passed, 0 failed"
# A merge's conflict markers committed by mistake (docs are not compiled, so nothing else sees them).
if git grep -n -E '^(<<<<<<<|>>>>>>>) |^=======$' -- . ':!tests/data' 2>/dev/null; then
  echo "conflict markers in the files above"; exit 1
fi

echo "== architecture rules (docs/architecture.md) =="
bash tools/check_architecture.sh

echo "== build (gcc, -Werror) =="
cmake -S . -B build -DSMFW_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
echo "== tests =="
# The versions the moto-backed and botocore-backed tests ran against, for the log.
"$(sed -n 's/^SMFW_PYTHON:FILEPATH=//p' build/CMakeCache.txt)" -c \
  'import sys, boto3, botocore, moto; print(f"test Python {sys.executable}: boto3 {boto3.__version__}, botocore {botocore.__version__}, moto {moto.__version__}")'
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "${SMFW_SKIP_VALGRIND:-0}" != 1 ]; then
  # valgrind where ASan cannot go: the production build, with its dlopen'd plugins,
  # running a whole benchmark end to end (the mock child has its own ASan run).
  echo "== valgrind: smfw run --endpoint mock (production build) =="
  vg_out=$(mktemp -d)
  valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --track-fds=no ./build/smfw run --endpoint mock --concurrency 4 --request-count 24 \
    --output-tokens-mean 32 --mock-arg=--ttft-ms=2 --mock-arg=--itl-ms=1 \
    --report json,csv,markdown,html -q -o "$vg_out/run"
  rm -rf "$vg_out"
  echo "valgrind: 1 passed, 0 failed"
fi

if [ "${SMFW_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== build (gcc, ASan + UBSan) =="
  cmake -S . -B build-sanitize -DSMFW_WERROR=ON -DSMFW_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build build-sanitize -j"$jobs"
  echo "== tests under ASan + UBSan =="
  # Unit tests link the static core and also dlopen plugin modules linked to
  # libsmfw.so, so the core's globals exist twice by design: not an ODR bug.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_odr_violation=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-sanitize --output-on-failure -j"$jobs"
fi

if [ "${SMFW_SKIP_IMAGE:-0}" != 1 ]; then
  # The Dockerfile's recipe without a Docker engine (debootstrap + chroot; root, minutes).
  echo "== container image recipe (tools/test_container_image.sh) =="
  bash tools/test_container_image.sh
fi

if [ "${SMFW_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== fuzz targets (clang + libFuzzer, ${FUZZ_SECONDS:-60} s each) =="
  CC=clang cmake -S . -B build-fuzz -DSMFW_FUZZ=ON -DSMFW_WERROR=ON -DSMFW_BUILD_TESTS=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build-fuzz -j"$jobs" --target smfw_fuzz_all
  bash tests/fuzz/run-all.sh build-fuzz "${FUZZ_SECONDS:-60}"
fi
echo "== all tests passed =="
