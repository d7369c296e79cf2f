#!/usr/bin/env bash
# The main job on a default that fits a 2-core machine in a few minutes: installs what is missing,
# builds, checks perft of Drop 16 to depth 6 (plain and hashed), then solves a small variant
# completely into tables/ and queries a position from the tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
set -x
build/drop16 perft --depth 6
build/drop16 perft --depth 6 --hash 1024
build/drop16 distinct --depth 4
