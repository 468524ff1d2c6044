#!/usr/bin/env bash
# Install what smfw needs to build and test on Debian 12 (root or sudo), and the
# interop tests' npm packages from the committed lockfile. Safe to re-run.
#   --test   also check for the tests' Python (boto3/botocore 1.43.x, moto 5.2.x)
set -euo pipefail
want_tests=0
[ "${1:-}" = --test ] && want_tests=1
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config
          libcurl4-openssl-dev libssl-dev libjansson-dev libltdl-dev libarchive-dev
          libinih-dev libevent-dev libpcre2-dev libutf8proc-dev check libsubunit-dev
          clang libclang-rt-14-dev valgrind wrk python3-boto3 python3-numpy chromium
          clang-format ca-certificates
          slurm-wlm munge debootstrap
          stunnel4 mitmproxy)
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

# The tests' one Python: the first python3 on PATH (or $SMFW_PYTHON) with boto3 and
# botocore 1.43.x and moto 5.2.x. Debian has no moto and an older botocore, and pip
# cannot be assumed to reach PyPI, so this is a check with a way out, not an install.
if ((want_tests)); then
  check='import boto3, botocore, moto, sys
v = lambda m: tuple(int(x) for x in m.__version__.split(".")[:2])
sys.exit(0 if v(botocore) == (1, 43) and v(boto3) == (1, 43) and v(moto) == (5, 2) else 1)'
  found=""
  for py in ${SMFW_PYTHON:-} $(type -ap python3); do
    if "$py" -c "$check" 2>/dev/null; then found=$py; break; fi
  done
  if [ -z "$found" ]; then
    echo "tools/deps.sh: the tests need a python3 that imports boto3/botocore 1.43.x and moto 5.2.x;" \
      "none of $(type -ap python3 | tr '\n' ' ')does. On a machine that reaches PyPI:" \
      "python3 -m pip install moto==5.2.1 boto3==1.43.11 (or set SMFW_PYTHON to one that has them)." >&2
    exit 1
  fi
fi
