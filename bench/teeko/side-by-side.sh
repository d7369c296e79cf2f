#!/usr/bin/env bash
# Teeko solved by drop16 and by GamesmanOne one after the other in one run on this machine, then
# the two databases compared on random positions (results/teeko.md has a run's figures):
#   bench/teeko/side-by-side.sh --src GAMESMAN_SOURCE [--count N] [--seed S] [--advanced]
# Prints three JSON lines: drop16's solve, GamesmanOne's (CPU, wall, peak resident memory, bytes
# on disk, load before and after), and the comparison (bench/teeko/compare.py). Needs build/drop16
# and the Python module (bash scripts/build.sh); GamesmanOne is built from the source given
# (bench/teeko/gamesman.sh), not a dependency of drop16. Exit 2 without its source, 1 when the
# databases disagree.
set -euo pipefail
cd "$(dirname "$0")/../.."
src=${GAMESMAN_SRC:-} count=300 seed=1 variant=teeko gamesman_variant=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --src) src=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --advanced) variant=teeko:advanced gamesman_variant=1; shift ;;
    *) echo "side-by-side.sh: unknown argument $1 (--src DIR, --count N, --seed S, --advanced)" >&2; exit 2 ;;
  esac
done
[[ -n $src ]] || { echo "side-by-side.sh: give GamesmanOne's source as --src DIR or GAMESMAN_SRC" >&2; exit 2; }
tables=tables-solve/${variant/:/-}
bench/teeko/gamesman.sh build --src "$src"
bench/teeko/gamesman.sh both --src "$src" --variant "$gamesman_variant" -- \
  solve --variant "$variant" --tables "$tables" --threads 2 --json --quiet
PYTHONPATH=build/python bench/teeko/compare.py --tables "$tables" --count "$count" --seed "$seed" \
  --variant "$variant"
