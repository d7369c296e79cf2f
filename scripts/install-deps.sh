#!/usr/bin/env bash
# Installs the Debian 12 packages the build needs, only those that are missing (run as root).
set -euo pipefail
packages=(cmake ninja-build g++ libabsl-dev libtbb-dev libzstd-dev libbenchmark-dev catch2
          libcli11-dev nlohmann-json3-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
