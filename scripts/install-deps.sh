#!/usr/bin/env bash
# Installs the Debian 12 packages the build needs, only those that are missing (run as root).
# With --e2e, also what the browser test of `drop16 serve` needs: Debian's chromium, Node.js and
# npm (if there is no node yet), and playwright-core as pinned in e2e/package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake ninja-build g++ libabsl-dev libtbb-dev libzstd-dev libbenchmark-dev catch2
          libcli11-dev nlohmann-json3-dev libcpp-httplib-dev pkgconf
          pybind11-dev python3-dev python3-pytest python3-venv openmpi-bin libopenmpi-dev)
e2e=0
if [[ "${1:-}" == "--e2e" ]]; then
  e2e=1
  packages+=(chromium)
  command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ((e2e)) && [[ ! -f e2e/node_modules/playwright-core/package.json ]]; then
  echo "installing: playwright-core (npm ci in e2e/)" >&2
  (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
fi
