#!/usr/bin/env bash
# `pip install .` as the README shows it, in a fresh virtual environment with no package index:
# the project's own build backend (python/drop16py_build.py) builds drop16py in the given build
# directory (already built, so nothing is compiled again) and the module imports and counts as the
# drop16 command does.
# Usage: pip_install_test.sh SOURCE_DIR BUILD_DIR PYTHON DROP16
set -euo pipefail
source_dir=$1 build_dir=$2 python=$3 drop16=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m venv "$work/venv"
cd "$source_dir"
# PIP_NO_INDEX: the test fails, rather than downloads, if the build asked for anything.
DROP16_BUILD_DIR=$build_dir PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$work/venv/bin/pip" install --quiet .
cd "$work"
nodes=$("$work/venv/bin/python" -c 'import drop16py; print(drop16py.perft("3x3:NBRK", depth=3))')
expected=$("$drop16" perft --variant 3x3:NBRK --depth 3 --json | "$python" -c \
  'import json, sys; print(json.load(sys.stdin)["nodes"])')
[[ $nodes == "$expected" ]] ||
  { echo "perft(3) of 3x3:NBRK: $nodes from the installed module, $expected from drop16"; exit 1; }
shown=$("$work/venv/bin/pip" show drop16py)
[[ $shown == *"Location: $work/venv/"* ]] || { echo "pip show drop16py: $shown"; exit 1; }
echo "pip install . in a fresh virtual environment: drop16py imports, perft(3) = $nodes"
