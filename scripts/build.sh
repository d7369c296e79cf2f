#!/usr/bin/env bash
# Configures and builds the release tree in build/. `--target T` (repeatable) builds only T and
# what it needs (default: everything); other arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=() configure=()
while (($#)); do
  if [[ $1 == --target ]]; then
    (($# >= 2)) || { echo "build.sh: --target needs a target name" >&2; exit 2; }
    targets+=(--target "$2")
    shift 2
  else
    configure+=("$1")
    shift
  fi
done
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${configure[@]}" >/dev/null
cmake --build build "${targets[@]}"
