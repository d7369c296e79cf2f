#!/usr/bin/env bash
# Solves each variant of the ladder into an empty tables directory and prints one markdown row per
# variant in the column order of results/variants.md:
#   variant | winner | winning first moves | start DTE | positions | stored | tiers | wall s | CPU s |
#   peak RSS MB | value+DTE bytes | value bits/pos | value+DTE bits/pos | value+DTE bits/stored
# Formatting uses python3 (standard library only).
#
# Usage: scripts/ladder.sh [VARIANT...]      (default: the 37 variants of results/variants.md)
# Run from anywhere; it works from the repository root, after the README build (build/drop16).
# Each variant runs
#   /usr/bin/time -f "%U %S %e %M" build/drop16 solve --variant V --tables tables-solve/V \
#       --threads 2 --json --quiet
# after `rm -rf tables-solve/V` (tables of an older index are refused, and a leftover directory
# would be resumed rather than measured). Variants run one after another, never two at once.
# build/drop16 is copied once at the start and that copy runs every variant, so that a rebuild of
# build/ by someone else in the middle of the ladder does not mix binaries; its sha256, the
# build's mtime and the checkout's HEAD go into every JSON line (the build may include
# uncommitted changes of the working tree: HEAD only dates it).
#
# Environment:
#   LADDER_TIMEOUT  seconds after which one variant is stopped (SIGTERM via timeout(1), which runs
#                   under /usr/bin/time so the figures up to the stop are still printed); default
#                   1200, 0 for no limit. A stopped variant gets a row saying so.
#   LADDER_JSONL    where the JSON lines go (default results/variants-ladder.jsonl)
#   LADDER_APPEND   1 to append to LADDER_JSONL instead of starting it afresh
#   LADDER_DIGESTS  published value digests to compare each solve with (default
#                   results/value-digests.jsonl; scripts/digests.sh writes it)
#
# Each JSON line is {"variant", "command", "binary": {sha256, built, head}, "timeout_s" (0: none),
# "exit_status", "time": {user_s, sys_s, wall_s,
# max_rss_kb} from /usr/bin/time, "uptime_before", "uptime_after", "solve": <the object drop16
# printed, verbatim, or null if it printed none>, "digest": <what `drop16 verify --digest --json`
# printed on the new tables, with --against the variant's published line when LADDER_DIGESTS has
# one (its "differ" lists the tiers whose value bits changed), or null when the solve failed>}.
# The script exits 1 at the end if any variant's value bits differ from the published ones.
set -euo pipefail
cd "$(dirname "$0")/.."

DEFAULT_LADDER=(
  2x2:K 2x2:NK 2x2:QK 2x2:RK 2x2:NBK 2x2:NBRK 2x2:NBRQK 2x2:NNBRQK 2x2:NNBBRQK 2x2:NNBBRRQK
  2x3:K 2x3:NK 2x3:NBK 2x3:NBRK 2x3:NBRQK 2x3:NNBRQK 2x3:NNBBRQK
  2x4:K 2x4:NK 2x4:NBK 2x4:NBRK 2x4:NBRQK 2x4:NNBRQK
  3x3:K 3x3:NK 3x3:NBK 3x3:NBRK 3x3:NBRQK
  3x4:K 3x4:NK 3x4:NBK 3x4:NBRK
  4x4:K 4x4:NK 4x4:QK 4x4:RK 4x4:NBK 4x4:NBRK
)
if [[ $# -gt 0 ]]; then variants=("$@"); else variants=("${DEFAULT_LADDER[@]}"); fi

timeout_s=${LADDER_TIMEOUT:-1200}
jsonl=${LADDER_JSONL:-results/variants-ladder.jsonl}
published=${LADDER_DIGESTS:-results/value-digests.jsonl}
[[ ${LADDER_APPEND:-0} == 1 ]] || : >"$jsonl"

[[ -x build/drop16 ]] || { echo "build/drop16 missing: build first" >&2; exit 1; }
mkdir -p tables-solve
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp build/drop16 "$tmp/drop16"
bin_sha=$(sha256sum "$tmp/drop16" | cut -d' ' -f1)
bin_built=$(date -u -r build/drop16 +%Y-%m-%dT%H:%M:%SZ)
head_commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "build/drop16 sha256 $bin_sha, built $bin_built, HEAD $head_commit" >&2

echo "| variant | winner | winning first moves | start DTE | positions | stored | tiers | wall s | CPU s | peak RSS MB | value+DTE bytes | value bits/pos | value+DTE bits/pos | value+DTE bits/stored |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"

digests_differ=0
for v in "${variants[@]}"; do
  dir="tables-solve/$v"
  rm -rf "$dir"
  cmd=(build/drop16 solve --variant "$v" --tables "$dir" --threads 2 --json --quiet)
  limit=()
  [[ $timeout_s != 0 ]] && limit=(timeout "$timeout_s")
  up_before=$(uptime)
  status=0
  /usr/bin/time -o "$tmp/time" -f "%U %S %e %M" "${limit[@]}" "$tmp/drop16" "${cmd[@]:1}" \
    >"$tmp/out" 2>"$tmp/err" ||
    status=$?
  up_after=$(uptime)
  [[ -s $tmp/err ]] && sed "s|^|$v: |" "$tmp/err" >&2
  : >"$tmp/digest"
  if [[ $status == 0 ]]; then
    against=()
    if [[ -f $published ]] && grep -F "\"variant\":\"$v\"," "$published" >"$tmp/published"; then
      against=(--against "$tmp/published")
    fi
    "$tmp/drop16" verify --digest --json --quiet --tables "$dir" "${against[@]}" >"$tmp/digest" ||
      { echo "$v: value digests differ from $published" >&2; digests_differ=1; }
  fi
  VARIANT="$v" STATUS="$status" TIMEOUT="$timeout_s" UP_BEFORE="$up_before" UP_AFTER="$up_after" \
  BIN_SHA="$bin_sha" BIN_BUILT="$bin_built" HEAD_COMMIT="$head_commit" \
  CMD="/usr/bin/time -f \"%U %S %e %M\" ${cmd[*]}" JSONL="$jsonl" OUT="$tmp/out" TIMEF="$tmp/time" \
  DIGEST="$tmp/digest" \
  python3 - <<'EOF'
import json, os
v, status = os.environ["VARIANT"], int(os.environ["STATUS"])
# /usr/bin/time writes "Command exited with non-zero status N" before its line on failure.
tline = open(os.environ["TIMEF"]).read().strip().splitlines()[-1].split()
user, sys_, wall, rss_kb = float(tline[0]), float(tline[1]), float(tline[2]), int(tline[3])
raw = open(os.environ["OUT"]).read().strip()
solve = json.loads(raw) if raw else None
digest_raw = open(os.environ["DIGEST"]).read().strip()
rec = {"variant": v, "command": os.environ["CMD"],
       "binary": {"sha256": os.environ["BIN_SHA"], "built": os.environ["BIN_BUILT"],
                  "head": os.environ["HEAD_COMMIT"]},
       "timeout_s": int(os.environ["TIMEOUT"]),
       "exit_status": status,
       "time": {"user_s": user, "sys_s": sys_, "wall_s": wall, "max_rss_kb": rss_kb},
       "uptime_before": os.environ["UP_BEFORE"].strip(),
       "uptime_after": os.environ["UP_AFTER"].strip(), "solve": solve,
       "digest": json.loads(digest_raw) if digest_raw else None}
with open(os.environ["JSONL"], "a") as f:
    f.write(json.dumps(rec, separators=(",", ":")) + "\n")
cpu, mb = user + sys_, rss_kb / 1024
if status != 0 or solve is None or "tables" not in solve:
    why = (f"stopped after {os.environ['TIMEOUT']} s (timeout)" if status == 124
           else f"failed, exit status {status}")
    print(f"| `{v}` | {why} | | | | | | {wall:.1f} | {cpu:.1f} | {mb:.0f} | | | | |")
else:
    t = solve["tables"]
    winner = {"win": "first", "loss": "second"}.get(solve["value"], solve["value"])
    wins = sum(1 for m in solve["moves"] if m["value"] == "win")
    pos, stored = t["positions"], t["stored_positions"]
    vb, total = t["value_bytes"], t["value_bytes"] + t["dte_bytes"]
    print(f"| `{v}` | {winner} | {wins}/{len(solve['moves'])} | {solve['dte']} | {pos:,} | "
          f"{stored:,} | {t['tiers']} | {wall:.1f} | {cpu:.1f} | {mb:.0f} | {total:,} | "
          f"{vb * 8 / pos:.3f} | {total * 8 / pos:.3f} | {total * 8 / stored:.2f} |")
EOF
done
exit "$digests_differ"
