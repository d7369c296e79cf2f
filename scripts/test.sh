#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (Catch2 and the browser test of
# `drop16 serve`, through ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --e2e
bash scripts/build.sh
cd build && ctest --output-on-failure -j "$(nproc)"
