#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (Catch2 and the browser test of
# `drop16 serve`, through ctest); then the tests tagged [parallel] again under ThreadSanitizer,
# in build-tsan (only unit_tests and the drop16 it runs). halt_on_error: a race fails the run,
# also in the drop16 processes the tests start. scripts/tsan.supp says what is not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --e2e
bash scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDROP16_TSAN=ON \
  -DDROP16_BENCH=OFF >/dev/null
cmake --build build-tsan --target unit_tests
TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan.supp ${TSAN_OPTIONS:-}" \
  build-tsan/unit_tests "[parallel]"
