#!/usr/bin/env bash
# ctest mpi_coalition_solve: `drop16 solve --format coalition-tiers --mpi` on 3 ranks
# (mpi/mpi_coalition_solver.h) against the single-process coalition tier solve.
#   1. Nevsky rows (free-for-all and pairs): the same index and tier files, byte for byte, the
#      same counts, coalition values and kingmakers; the tiers shared among the ranks.
#   2. Resume: tiers removed from a finished folder are solved again by the ranks, the others
#      read from their files: the same files and counts.
#   3. --mpi for the keyed coalition tables is bad input: one line, status 2.
# Usage: mpi_coalition_solve_test.sh DROP16 MPIRUN
set -euo pipefail
drop16=$1
mpirun=$2
# shellcheck source=tests/mpi_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/mpi_test_lib.sh"

# The two runs' JSON: the same counts (but the codes held at most, which are each rank's) and
# answer; the MPI run's (the second) tiers each solved by one of its 3 ranks, at least two of
# them busy, and, given, the tiers it read from files.
same_solve() {  # same_solve SINGLE MPI [READ]
  python3 -c '
import json, sys
single, mpi = (json.load(open(f)) for f in sys.argv[1:3])
def key(j):
    solved = dict(j["solved"])
    del solved["codes_held_peak_mb"]
    if len(sys.argv) > 3:
        for k in ("tiers_read", "kingmakers", "tiers_read_back", "block_work_peak_mb"):
            del solved[k]
    return solved, j["coalitions"], j["winning_coalitions"]
if key(single) != key(mpi):
    sys.exit("counts or answers differ: %s against %s" % (key(single), key(mpi)))
if len(sys.argv) > 3 and mpi["solved"]["tiers_read"] != int(sys.argv[3]):
    sys.exit("read %d tiers" % mpi["solved"]["tiers_read"])
per_rank = [r["tiers_solved"] for r in mpi["tables"]["mpi_ranks"]]
if len(per_rank) != 3 or sum(per_rank) != mpi["solved"]["tiers"] or sum(n > 0 for n in per_rank) < 2:
    sys.exit("the tiers were not shared among 3 ranks: %s of %d" % (per_rank, mpi["solved"]["tiers"]))
' "$@"
}
solved_field() {  # solved_field FILE KEY
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["solved"][sys.argv[2]])' "$1" "$2"
}

# 1. Rows, each solved by one process and by 3 ranks.
for row in nevsky:4x4:1 nevsky:4x4:1:pairs nevsky:5x5:1; do
  d="$work/$row"
  solve_single_and_ranks "$d" --variant "$row" --format coalition-tiers
  same_solve "$d.single.json" "$d.mpi.json" || fail "$row: the MPI solve differs"
  echo "$row: identical files and counts, $(solved_field "$d.mpi.json" tiers) tiers on 3 ranks"
done

# 2. Resume: the last two tiers' files removed from a finished folder.
row=nevsky:5x5:1
d="$work/resume"
cp -r "$work/$row/single" "$d"
rm -f "$d/.lock"
tiers=$(solved_field "$work/$row.single.json" tiers)
mapfile -t last < <(find "$d" -name '*.coalitions' -printf '%T@ %p\n' | sort -n | tail -n 2 |
  cut -d' ' -f2)
((${#last[@]} == 2)) || fail "$row: no tier files to remove"
rm -f "${last[@]}"
ranks "$drop16" solve --variant $row --tables "$d" --format coalition-tiers --threads 1 --json \
  --quiet --mpi >"$d.json" || fail "$row: the resumed MPI solve failed"
same_tables "$work/$row/single" "$d"
same_solve "$work/$row.single.json" "$d.json" $((tiers - 2)) || fail "$row: the resume differs"
echo "$row: 2 tiers removed, solved again by the ranks, the other $((tiers - 2)) read from files"

# 3. --mpi where the tables are not coalition tier tables.
status=0
"$drop16" solve --variant nevsky:3x3:1 --tables "$work/keyed" --format coalitions --mpi --quiet \
  >/dev/null 2>"$work/err" || status=$?
((status == 2)) && [[ $(wc -l <"$work/err") == 1 ]] || fail "--mpi for keyed tables: status $status"
echo "--mpi for keyed coalition tables: refused with status 2"
