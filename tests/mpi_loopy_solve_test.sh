#!/usr/bin/env bash
# ctest mpi_loopy_solve: `drop16 solve --format loopy-tiers --mpi` on 3 ranks (mpi/mpi_loopy_solver.h)
# against the single-process loopy tier solve.
#   1. Rows of the rook race and Spock (whole tiers and tiers solved a slice at a time, every
#      entry solved and the reached ones only, unmoves and Spock's sweeps): the same table files,
#      byte for byte, the same counts and the same answer at the start; every rank solved tiers.
#   2. Resume: tiers removed from a finished folder are solved again by the ranks, the others
#      counted from their files: the same files and counts.
#   3. --mpi for a game's keyed tables (Spock's default format) is bad input: one line, status 2.
# Usage: mpi_loopy_solve_test.sh DROP16 MPIRUN
set -euo pipefail
drop16=$1
mpirun=$2
# shellcheck source=tests/mpi_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/mpi_test_lib.sh"

# The two runs' JSON: the same counts and answer, the MPI run's (the second) tiers each solved or
# counted by one of its 3 ranks, at least two of them busy (a row's tiers may form a chain), and,
# given, the tiers it reports solved and resumed.
same_solve() {  # same_solve SINGLE MPI [SOLVED RESUMED]
  python3 -c '
import json, sys
single, mpi = (json.load(open(f)) for f in sys.argv[1:3])
key = lambda j: (j["solved"], j.get("value"), j.get("dte"), j.get("moves"))
if key(single) != key(mpi):
    sys.exit("counts or answers differ: %s against %s" % (key(single), key(mpi)))
t = mpi["tables"]
if len(sys.argv) > 3 and [t["tiers_solved"], t["tiers_resumed"]] != [int(a) for a in sys.argv[3:5]]:
    sys.exit("solved %d and resumed %d tiers" % (t["tiers_solved"], t["tiers_resumed"]))
per_rank = [r["tiers_solved"] for r in t["mpi_ranks"]]
if len(per_rank) != 3 or sum(per_rank) != t["tiers"] or sum(n > 0 for n in per_rank) < 2:
    sys.exit("the tiers were not shared among 3 ranks: %s of %d" % (per_rank, t["tiers"]))
' "$@"
}
json_field() {  # json_field FILE tables.KEY
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tables"][sys.argv[2]])' "$1" "$2"
}

# 1. Rows, each solved by one process and by 3 ranks; the extra arguments go to both.
rows=("rookrace:4x4:1" "rookrace:6x6:1" "rookrace:6x6:1 --slice-minutes 0.001"
      "spock:3x3:RSK/rsk" "spock:4x4:RK/rk")
for row in "${rows[@]}"; do
  read -r -a args <<<"$row"
  d="$work/$(tr ' /' '__' <<<"$row")"
  solve_single_and_ranks "$d" --variant "${args[@]}" --format loopy-tiers
  same_solve "$d.single.json" "$d.mpi.json" || fail "$row: the MPI solve differs"
  echo "$row: identical files and counts, $(json_field "$d.mpi.json" tiers) tiers on 3 ranks"
done
slices=$(json_field "$work/rookrace:6x6:1_--slice-minutes_0.001.mpi.json" slices_solved)
((slices > 0)) || fail "rookrace:6x6:1 --slice-minutes 0.001: no tier solved a slice at a time"

# 2. Resume: the last two tiers' tables removed from a finished folder.
row=rookrace:6x6:1
d="$work/resume"
cp -r "$work/$row/single" "$d"
rm -f "$d/.lock"
tiers=$(json_field "$work/$row.single.json" tiers)
mapfile -t last < <(find "$d" -name '*.wdl' -printf '%T@ %p\n' | sort -n | tail -n 2 | cut -d' ' -f2)
((${#last[@]} == 2)) || fail "$row: no tier files to remove"
rm -f "${last[@]}"
ranks "$drop16" solve --variant $row --tables "$d" --format loopy-tiers --threads 1 --json --quiet \
  --mpi >"$d.json" || fail "$row: the resumed MPI solve failed"
same_tables "$work/$row/single" "$d"
same_solve "$work/$row.single.json" "$d.json" 2 $((tiers - 2)) || fail "$row: the resume differs"
echo "$row: 2 tiers removed, solved again by the ranks, the other $((tiers - 2)) counted from files"

# 3. --mpi where the tables are not loopy tier tables.
status=0
"$drop16" solve --variant spock:3x3:RK/rk --tables "$work/spock-keyed" --mpi --quiet \
  >/dev/null 2>"$work/err" || status=$?
((status == 2)) && [[ $(wc -l <"$work/err") == 1 ]] || fail "--mpi for keyed tables: status $status"
echo "--mpi for keyed tables: refused with status 2"
