#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (Catch2 through ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
cd build && ctest --output-on-failure -j "$(nproc)"
