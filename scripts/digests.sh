#!/usr/bin/env bash
# Writes the value digest of every tier of the ladder's tables (tables-solve/VARIANT, as
# scripts/ladder.sh leaves them) to results/value-digests.jsonl, one line per variant: the JSON
# that `drop16 verify --digest --json` prints, verbatim, so that a later solve compares with
#   grep -F '"variant":"4x4:NBRK"' results/value-digests.jsonl > /tmp/d.json
#   build/drop16 verify --digest --tables DIR --against /tmp/d.json
# which exits 1 naming any tier whose value bits differ.
#
# Usage: scripts/digests.sh [VARIANT...]   (default: every directory under tables-solve/)
# Environment: DIGESTS_JSONL, where the lines go (default results/value-digests.jsonl).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x build/drop16 ]] || { echo "build/drop16 missing: build first" >&2; exit 1; }
if [[ $# -gt 0 ]]; then
  variants=("$@")
else
  mapfile -t variants < <(cd tables-solve && ls -d -- */ | sed 's|/$||' | sort -V)
fi
jsonl=${DIGESTS_JSONL:-results/value-digests.jsonl}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for v in "${variants[@]}"; do
  build/drop16 verify --digest --json --quiet --tables "tables-solve/$v" >>"$tmp"
done
mv "$tmp" "$jsonl"
trap - EXIT
echo "${#variants[@]} variants' digests in $jsonl" >&2
