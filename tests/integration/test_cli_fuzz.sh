#!/usr/bin/env bash
# test_cli_fuzz.sh - the option parser and the config reader under random input
# for a bounded time (cli_fuzz.py): no crash, no hang, exit 0 or 1 only, and
# every refusal names the flag, the file:line or the variable. The seed is
# fixed so a failure replays; SMFW_FUZZ_SEED and SMFW_FUZZ_SECONDS vary it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$SMFW_PYTHON" "$here/cli_fuzz.py" "$SMFW_BUILD_DIR/smfw" "${SMFW_FUZZ_SEED:-13}" \
    "${SMFW_FUZZ_SECONDS:-20}"
