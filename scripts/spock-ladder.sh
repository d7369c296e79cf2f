#!/usr/bin/env bash
# Solves each row of the Spock ladder (every placement of a row's pieces and all play from them,
# `drop16 solve --variant spock:WxH:BLUE/red`) and prints one markdown row per row in the column
# order of results/spock.md:
#   row | placements | positions | wins | draws | losses | longest win | longest loss | wall s |
#   CPU s | peak RSS MB
# Formatting uses python3 (standard library only).
#
# Usage: scripts/spock-ladder.sh [ROW...]     (default: the rows of results/spock.md)
# Run after the README build (build/drop16). Each row runs
#   /usr/bin/time -f "%U %S %e %M" build/drop16 solve --variant ROW --memory 20 --json --quiet
# one after another, never two at once, with a copy of build/drop16 made at the start (so a
# rebuild meanwhile does not mix binaries); its sha256 and the checkout's HEAD go into every JSON
# line of SPOCK_LADDER_JSONL (default results/spock-ladder.jsonl), with the load before and after;
# SPOCK_LADDER_APPEND=1 appends to it instead of starting it afresh. The 6-piece rows of 4x4 and
# 5x5 (11,531,520 and 255,024,000 placements) are left out: not solved to the end here.
set -euo pipefail
cd "$(dirname "$0")/.."

DEFAULT_LADDER=(
  spock:3x3:K/k spock:3x3:RK/k spock:3x3:SK/k spock:3x3:LK/k spock:3x3:PK/k
  spock:3x3:RK/rk spock:3x3:SK/sk spock:3x3:LK/lk spock:3x3:PK/pk
  spock:3x3:RSK/rk spock:3x3:RSK/rsk spock:3x3:LPK/lpk spock:3x3:RSLK/rslk
  spock:4x4:K/k spock:4x4:RK/rk spock:4x4:SK/sk spock:4x4:LK/lk spock:4x4:PK/pk
  spock:4x4:RSK/rk
  spock:5x5:K/k spock:5x5:RK/rk spock:5x5:PK/pk spock:5x5:RSK/rk
)
if [[ $# -gt 0 ]]; then rows=("$@"); else rows=("${DEFAULT_LADDER[@]}"); fi
jsonl=${SPOCK_LADDER_JSONL:-results/spock-ladder.jsonl}
[[ ${SPOCK_LADDER_APPEND:-0} == 1 ]] || : >"$jsonl"

[[ -x build/drop16 ]] || { echo "build/drop16 missing: build first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp build/drop16 "$tmp/drop16"
bin_sha=$(sha256sum "$tmp/drop16" | cut -d' ' -f1)
head_commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

echo "| row | placements | positions | wins | draws | losses | longest win | longest loss | wall s | CPU s | peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  before=$(uptime)
  status=0
  /usr/bin/time -o "$tmp/time" -f "%U %S %e %M" "$tmp/drop16" solve --variant "$row" \
    --memory 20 --json --quiet >"$tmp/out" 2>"$tmp/err" || status=$?
  after=$(uptime)
  ROW="$row" STATUS="$status" SHA="$bin_sha" HEAD_COMMIT="$head_commit" BEFORE="$before" \
    AFTER="$after" TMP="$tmp" JSONL="$jsonl" python3 - <<'PY'
import json, os
tmp = os.environ["TMP"]
user, sys_, wall, rss = open(f"{tmp}/time").read().split()[-4:]
out = open(f"{tmp}/out").read().strip()
solve = json.loads(out) if out else None
line = {"row": os.environ["ROW"],
        "command": f"drop16 solve --variant {os.environ['ROW']} --memory 20 --json --quiet",
        "binary": {"sha256": os.environ["SHA"], "head": os.environ["HEAD_COMMIT"]},
        "exit_status": int(os.environ["STATUS"]),
        "time": {"user_s": float(user), "sys_s": float(sys_), "wall_s": float(wall),
                 "max_rss_kb": int(rss)},
        "uptime_before": os.environ["BEFORE"].strip(), "uptime_after": os.environ["AFTER"].strip(),
        "solve": solve}
with open(os.environ["JSONL"], "a") as f:
    f.write(json.dumps(line) + "\n")
row = os.environ["ROW"]
if solve is None:
    err = open(f"{tmp}/err").read().strip().splitlines()
    print(f"| {row} | stopped (exit {os.environ['STATUS']}: {err[-1] if err else ''}) |")
else:
    s = solve["solved"]
    cpu = float(user) + float(sys_)
    print(f"| {row} | {s['roots']:,} | {s['positions']:,} | {s['wins']:,} | {s['draws']:,} | "
          f"{s['losses']:,} | {s['longest_win']} | {s['longest_loss']} | {float(wall):.1f} | "
          f"{cpu:.1f} | {int(rss) / 1024:.0f} |")
PY
done
