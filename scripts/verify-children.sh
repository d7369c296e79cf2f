#!/usr/bin/env bash
# The local check of the published loopy rows: each row solved again in memory by
# `drop16 verify --variant ROW --children`, and SAMPLES random positions of it (a placement or
# the start, then random moves) checked against their children's values (a win is 1 + the least
# distance of its losing children, a loss 1 + the greatest when all win, a draw has no losing
# child and a drawn one). Prints one markdown row per row:
#   row | positions | samples | wins | draws | losses sampled | mismatches | wall s | CPU s |
#   peak RSS MB
# Formatting uses python3 (standard library only).
#
# Usage: scripts/verify-children.sh [ROW...]   (default: the rows of results/spock-ladder.jsonl
# and the solved rows of results/rookrace.md)
# Each row runs
#   /usr/bin/time -f "%U %S %e %M" build/drop16 verify --variant ROW --children
#     --samples $SAMPLES --seed 1 --memory 20 --json --quiet
# one after another, never two at once, with a copy of build/drop16 made at the start; its sha256
# and the checkout's HEAD go into every JSON line of VERIFY_CHILDREN_JSONL (default
# results/verify-children.jsonl, appended to), with the load before and after. SAMPLES defaults
# to 1000000. The largest rows hold up to 11 GB (as their solves do) and take up to about 15
# minutes each on a loaded machine.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -eq 0 ]]; then
  mapfile -t spock_rows < <(python3 -c '
import json
for line in open("results/spock-ladder.jsonl"):
    print(json.loads(line)["row"])')
  set -- "${spock_rows[@]}" rookrace:2x2:0 rookrace:2x2:1 rookrace:2x2:2 rookrace:2x2:3 \
    rookrace:4x4:0 rookrace:4x4:1 rookrace:4x4:2 rookrace:4x4:3 rookrace:6x6:0 rookrace:6x6:1 \
    rookrace:8x8:0 rookrace:8x8:1
fi
samples=${SAMPLES:-1000000}
jsonl=${VERIFY_CHILDREN_JSONL:-results/verify-children.jsonl}

[[ -x build/drop16 ]] || { echo "build/drop16 missing: build first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp build/drop16 "$tmp/drop16"
bin_sha=$(sha256sum "$tmp/drop16" | cut -d' ' -f1)
head_commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

echo "| row | positions | samples | wins | draws | losses sampled | mismatches | wall s | CPU s | peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for row in "$@"; do
  args=(verify --variant "$row" --children --samples "$samples" --seed 1 --memory 20 --json --quiet)
  before=$(uptime)
  status=0
  /usr/bin/time -o "$tmp/time" -f "%U %S %e %M" "$tmp/drop16" "${args[@]}" >"$tmp/out" \
    2>"$tmp/err" || status=$?
  after=$(uptime)
  ROW="$row" COMMAND="drop16 ${args[*]}" STATUS="$status" SHA="$bin_sha" HEAD_COMMIT="$head_commit" \
    BEFORE="$before" AFTER="$after" TMP="$tmp" JSONL="$jsonl" python3 - <<'PY'
import json, os
tmp = os.environ["TMP"]
user, sys_, wall, rss = open(f"{tmp}/time").read().split()[-4:]
out = open(f"{tmp}/out").read().strip()
verify = json.loads(out) if out else None
with open(os.environ["JSONL"], "a") as f:
    f.write(json.dumps({
        "row": os.environ["ROW"], "command": os.environ["COMMAND"],
        "binary": {"sha256": os.environ["SHA"], "head": os.environ["HEAD_COMMIT"]},
        "exit_status": int(os.environ["STATUS"]),
        "time": {"user_s": float(user), "sys_s": float(sys_), "wall_s": float(wall),
                 "max_rss_kb": int(rss)},
        "uptime_before": os.environ["BEFORE"].strip(),
        "uptime_after": os.environ["AFTER"].strip(), "verify": verify}) + "\n")
row = os.environ["ROW"]
if verify is None:
    err = open(f"{tmp}/err").read().strip().splitlines()
    print(f"| {row} | stopped (exit {os.environ['STATUS']}: {err[-1] if err else ''}) |")
else:
    s = verify["sampled"]
    print(f"| {row} | {verify['positions']:,} | {verify['samples']:,} | {s['wins']:,} | "
          f"{s['draws']:,} | {s['losses']:,} | {verify['mismatches']} | {float(wall):.1f} | "
          f"{float(user) + float(sys_):.1f} | {int(rss) / 1024:.0f} |")
PY
done
