#!/usr/bin/env bash
# Install what smfw needs to build and test on Debian 12 (root or sudo), and the
# interop tests' npm packages from the committed lockfile. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config
          libcurl4-openssl-dev libssl-dev libjansson-dev libltdl-dev libarchive-dev
          libinih-dev libevent-dev check libsubunit-dev
          clang libclang-rt-14-dev valgrind wrk python3-boto3 chromium
          clang-format ca-certificates)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "tools/deps.sh: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Node.js with npm usually comes with the machine (its own nodejs package includes npm);
# only install Debian's when there is none.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

# The AWS SDK for JavaScript v3 (independent reference client) for tests/interop.
if command -v npm >/dev/null 2>&1; then
  if [ ! -d tests/interop/node_modules ] || [ tests/interop/package-lock.json -nt tests/interop/node_modules ]; then
    (cd tests/interop && npm ci --no-audit --no-fund --prefer-offline >/dev/null) || {
      echo "tools/deps.sh: npm ci failed in tests/interop" >&2
      exit 1
    }
  fi
fi
