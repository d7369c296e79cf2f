#!/usr/bin/env bash
# ctest mpi_tier_solve: `drop16 solve --mpi` on 3 ranks against the single-process solve.
#   1. Every fast variant of the ladder (scripts/ladder.sh; under 2 CPU seconds each): the same
#      table files, byte for byte, and the same answer, with whole tiers per rank; for six of them
#      (every board size), with every tier of more than 100 entries split over the 3 ranks
#      (--mpi-split-entries 100: nearly all of them). Split too: value-only tables, and a cap
#      that makes tiers fold their children in groups.
#   2. Resume from finished tiers: endgame tables (--max-pieces 4) by 3 ranks, then the whole
#      variant by 3 ranks into the same directory: only the rest is solved, the files the same.
#   3. A killed rank: kill -9 one rank in the middle of a run whose tiers are split; the run stops
#      with an error naming the rank, the finished tiers' files are whole, and a rerun resumes from
#      them to the same files.
#   4. --mpi without --tables, or for Spock: refused as bad input.
# Usage: mpi_tier_solve_test.sh DROP16 MPIRUN
set -euo pipefail
drop16=$1
mpirun=$2
# shellcheck source=tests/mpi_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/mpi_test_lib.sh"
split=(--mpi-split-entries 100)  # tiers of more entries are split over the ranks
# The two solves' JSON give the same answer (value, dte, moves; timings and the per-rank figures
# differ), and the MPI one solved every tier.
same_answer() {
  python3 -c '
import json, sys
single, mpi = (json.load(open(f)) for f in sys.argv[1:3])
key = lambda j: (j["value"], j["dte"], j["moves"])
sys.exit(key(single) != key(mpi) or mpi["tables"]["tiers_solved"] != single["tables"]["tiers"])
' "$1" "$2"
}
# The ranks' split-tier exchanges in a run's JSON: every rank exchanged (split is 1) or none did
# (split is 0), and every byte one rank sent, another received.
split_traffic() {  # split_traffic FILE SPLIT
  python3 -c '
import json, sys
ranks = json.load(open(sys.argv[1]))["tables"]["mpi_ranks"]
sent = [r["split_bytes_sent"] for r in ranks]
received = [r["split_bytes_received"] for r in ranks]
exchanged = all(b > 0 for b in sent + received) if sys.argv[2] == "1" else not any(sent + received)
sys.exit(not exchanged or sum(sent) != sum(received) or
         any(r["bytes_sent"] < r["split_bytes_sent"] for r in ranks))
' "$1" "$2"
}
json_field() {  # json_field FILE tables.KEY
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tables"][sys.argv[2]])' "$1" "$2"
}

variants=(2x2:K 2x2:NK 2x2:QK 2x2:RK 2x2:NBK 2x2:NBRK 2x2:NBRQK 2x2:NNBRQK
          2x3:K 2x3:NK 2x3:NBK 2x3:NBRK 2x4:K 2x4:NK 2x4:NBK 2x4:NBRK
          3x3:K 3x3:NK 3x3:NBK 3x4:K 3x4:NK 3x4:NBK
          4x4:K 4x4:NK 4x4:QK 4x4:RK 4x4:NBK)
for v in "${variants[@]}"; do
  d="$work/$v"
  "$drop16" solve --variant "$v" --tables "$d/single" --threads 1 --json --quiet >"$d.single.json"
  ranks "$drop16" solve --variant "$v" --tables "$d/mpi" --threads 1 --json --quiet --mpi \
    >"$d.mpi.json" || fail "$v: the MPI solve failed"
  same_tables "$d/single" "$d/mpi"
  same_answer "$d.single.json" "$d.mpi.json" || fail "$v: answers differ, or not every tier solved"
  split_traffic "$d.mpi.json" 0 || fail "$v: split-tier traffic counted with whole tiers"
  echo "$v: identical files, whole tiers"
done
# Split tiers: every pass of every split tier is a collective of the 3 ranks, which on a machine
# of 2 busy cores waits on descheduled ranks, so a sample of the ladder: one variant of each board
# size, hands of 2 to 5 pieces.
for v in 2x2:NBRQK 2x3:NBRK 2x4:NBK 3x3:NBK 3x4:NK 4x4:NBK; do
  d="$work/$v"
  ranks "$drop16" solve --variant "$v" --tables "$d/split" --threads 1 --json --quiet --mpi \
    "${split[@]}" >"$d.split.json" || fail "$v: the MPI solve with split tiers failed"
  same_tables "$d/single" "$d/split"
  same_answer "$d.single.json" "$d.split.json" || fail "$v split: answers differ, or not every tier"
  split_traffic "$d.split.json" 1 || fail "$v split: the ranks' exchanges are not all counted"
  echo "$v: identical files, split tiers"
done
v=2x4:NBRK
d="$work/$v"
"$drop16" solve --variant $v --tables "$d/single-values" --threads 1 --json --quiet --value-only \
  >/dev/null
ranks "$drop16" solve --variant $v --tables "$d/split-values" --threads 1 --json --quiet --mpi \
  "${split[@]}" --value-only >/dev/null || fail "$v --value-only: the split MPI solve failed"
same_tables "$d/single-values" "$d/split-values"
# The smallest cap the split solve's plan allows (its planned_memory_mb, in GB, a little above:
# a member's share of a split tier and its buffers): the largest tiers fold their children in
# groups, and so do their split parts.
ranks "$drop16" solve --variant $v --tables "$d/split" --threads 1 --json --quiet --mpi \
  "${split[@]}" >"$d.split.json" || fail "$v: the split MPI solve failed"
same_tables "$d/single" "$d/split"
cap=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tables"]["planned_memory_mb"] / 1024 + 1e-5)' "$d.split.json")
ranks "$drop16" solve --variant $v --tables "$d/split-folds" --threads 1 --json --quiet --mpi \
  "${split[@]}" --memory "$cap" >"$d.folds.json" || fail "$v --memory $cap: the split solve failed"
(($(json_field "$d.folds.json" group_folds) > 0)) || fail "$v --memory $cap: no group folds"
same_tables "$d/single" "$d/split-folds"
echo "$v: split tiers identical with --value-only, and with group folds under --memory $cap"

# 2. Resume from the finished tiers of an earlier run.
v=2x4:NBRK
d="$work/resume"
ranks "$drop16" solve --variant $v --tables "$d" --max-pieces 4 --json --quiet --mpi \
  >"$d.part.json" || fail "$v --max-pieces 4: the MPI solve failed"
part=$(json_field "$d.part.json" tiers)
ranks "$drop16" solve --variant $v --tables "$d" --json --quiet --mpi >"$d.json" ||
  fail "$v: the resumed MPI solve failed"
[[ $(json_field "$d.json" tiers_resumed) == "$part" ]] || fail "$v: resumed not $part tiers"
same_tables "$work/$v/single" "$d"
echo "$v: resumed $part tiers of endgame tables, files identical"

# 3. Kill -9 one rank once some tiers are finished.
d="$work/killed"
# mpirun itself in the background (not the function's subshell): the ranks are its children.
"$mpirun" --oversubscribe --allow-run-as-root -np 3 "$drop16" solve --variant $v --tables "$d" \
  --threads 1 --quiet --mpi "${split[@]}" >"$d.out" 2>"$d.err" &
launcher=$!
total=$(json_field "$work/$v.single.json" tiers)
for _ in $(seq 1 600); do
  finished=$(ls "$d" 2>/dev/null | grep -c '\.value$' || true)
  ((finished >= 20)) && break
  sleep 0.05
done
victim=$(pgrep -P "$launcher" | tail -n 1)
[[ -n $victim ]] || fail "no rank found to kill"
kill -9 "$victim"
status=0
wait "$launcher" || status=$?
finished=$(ls "$d" | grep -c '\.value$' || true)
((status != 0)) || fail "a run with a killed rank exited with status 0"
((finished < total)) || fail "the run finished before its rank was killed: kill earlier"
# mpirun ends the other ranks and says which one died.
grep -q "rank [0-9]* .*signal 9" "$d.err" || fail "no message naming the killed rank: $(cat "$d.err")"
ranks "$drop16" solve --variant $v --tables "$d" --threads 1 --json --quiet --mpi "${split[@]}" \
  >"$d.json" || fail "$v: the MPI solve after a killed rank failed"
resumed=$(json_field "$d.json" tiers_resumed)
((resumed >= 20)) || fail "$v: resumed only $resumed tiers after the kill"
same_tables "$work/$v/single" "$d"
echo "$v: rank killed with $finished of $total tiers finished (status $status), rerun resumed" \
  "$resumed, files identical"

# 4. --mpi where it does not apply is bad input: one line on stderr, status 2, before any MPI.
for args in "--variant 3x3:NBK --mpi" "--variant spock:3x3:RK/rk --tables $work/spock --mpi"; do
  status=0
  # shellcheck disable=SC2086 # the words of $args are the arguments
  "$drop16" solve $args --quiet >/dev/null 2>"$work/err" || status=$?
  ((status == 2)) && [[ $(wc -l <"$work/err") == 1 ]] || fail "solve $args: status $status"
done
echo "--mpi without tables or for Spock: refused with status 2"
