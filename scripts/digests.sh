#!/usr/bin/env bash
# Writes the value digest of every tier of the ladder's tables (tables-solve/VARIANT, as
# scripts/ladder.sh leaves them) to results/value-digests.jsonl, one line per variant: the JSON
# that `drop16 verify --digest --json` prints, verbatim, so that a later solve compares with
#   grep -F '"variant":"4x4:NBRK"' results/value-digests.jsonl > /tmp/d.json
#   build/drop16 verify --digest --tables DIR --against /tmp/d.json
# which exits 1 naming any tier whose value bits differ.
#
# The file is a published result, so it is merged, not overwritten: the lines of variants not
# named stay as they are, a variant new to the file is added, and a variant with a tier whose
# digest differs from its published line's stops the script (exit 1, the file unchanged) unless
# DIGESTS_REPLACE=1 says the new tables are meant to replace the old.
#
# Usage: scripts/digests.sh [VARIANT...]   (default: every directory under tables-solve/)
# Environment: DIGESTS_JSONL, where the lines go (default results/value-digests.jsonl);
#              DIGESTS_TABLES, the directory holding one tables directory per variant
#              (default tables-solve); DIGESTS_REPLACE=1, see above.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x build/drop16 ]] || { echo "build/drop16 missing: build first" >&2; exit 1; }
root=${DIGESTS_TABLES:-tables-solve}
if [[ $# -gt 0 ]]; then
  variants=("$@")
else
  mapfile -t variants < <(cd "$root" && ls -d -- */ | sed 's|/$||' | sort -V)
fi
jsonl=${DIGESTS_JSONL:-results/value-digests.jsonl}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.new"' EXIT
for v in "${variants[@]}"; do
  build/drop16 verify --digest --json --quiet --tables "$root/$v" >>"$tmp"
done
[[ -f "$jsonl" ]] || : >"$jsonl"
PUBLISHED="$jsonl" FRESH="$tmp" REPLACE="${DIGESTS_REPLACE:-0}" python3 - >"$tmp.new" <<'PY'
import json, os, sys
# Lines are kept as drop16 printed them; JSON is parsed only to read the variant and digest.
def lines(path):
    return [(json.loads(l), l.strip()) for l in open(path) if l.strip()]
published = lines(os.environ["PUBLISHED"])
fresh = {j["variant"]: (j, l) for j, l in lines(os.environ["FRESH"])}
def differs(old, new):  # a tier both hold whose value bits changed (either may be partial)
    return any(new["digests"].get(tier, digest) != digest for tier, digest in old["digests"].items())
changed = [j["variant"] for j, _ in published if j["variant"] in fresh and
           differs(j, fresh[j["variant"]][0])]
if changed and os.environ["REPLACE"] != "1":
    sys.exit("value digests differ from the published ones (DIGESTS_REPLACE=1 replaces them): " +
             " ".join(changed))
for j, l in published:
    print(fresh.pop(j["variant"], (j, l))[1])
for _, l in fresh.values():
    print(l)
PY
mv "$tmp.new" "$jsonl"
trap - EXIT
rm -f "$tmp"
echo "${#variants[@]} variants' digests merged into $jsonl" >&2
