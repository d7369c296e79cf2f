#!/usr/bin/env bash
# ctest mpi_prove: `drop16 prove --mpi` on 3 ranks (a coordinator and 2 workers) against the
# single-process prover.
#   1. Small rungs, --all-moves: the same value and the same value of every first move; the
#      merged certificate is accepted by check-proof with that value, and was written from the
#      gathered proofs without a search (also with leaves deep enough that every job's proof is
#      gathered: --leaf-hand 0 and 2).
#   2. Without --all-moves: the same value, and every first move the run decided agrees.
#   3. 4x4:NBRK distributed and its certificate checked (--leaf-hand 2, which keeps the check
#      short).
#   4. Bad input: --mpi with --checkpoint, on one rank: one line on stderr, status 2.
# Usage: mpi_prove_test.sh DROP16 MPIRUN
set -euo pipefail
drop16=$1
mpirun=$2
# shellcheck source=tests/mpi_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/mpi_test_lib.sh"
# compare SINGLE.json MPI.json all|some: the same value; with "all" the same value of every first
# move, with "some" the same where the MPI run decided one. Then, if the MPI run wrote a
# certificate, that it needed no search.
compare() {
  python3 -c '
import json, sys
single, mpi = (json.load(open(f)) for f in sys.argv[1:3])
if single["value"] != mpi["value"]: sys.exit("values differ: %s, %s" % (single["value"], mpi["value"]))
s = {m["move"]: m["value"] for m in single["moves"]}
m = {m["move"]: m["value"] for m in mpi["moves"]}
if sys.argv[3] == "all" and s != m: sys.exit("first moves differ")
if any(v != "unknown" and v != s[k] for k, v in m.items()): sys.exit("a first move differs")
c = mpi.get("certificate")
if c and (c["winning_moves_searched"] or c["nodes_searched"]):
    sys.exit("the merged certificate needed a search: %s" % c)
' "$@"
}
checked_value() {  # checked_value CERTIFICATE: the value the checker proved (its progress: a file)
  "$drop16" check-proof "$1" --json 2>"$work/check.err" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])' || cat "$work/check.err" >&2
}
json_value() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$1"
}

# 1. and 2.
for case in "3x3:NBK 4" "3x3:NBK 0" "3x3:NBRK 4" "3x3:NBRK 2" "4x4:NBK 4" "4x4:NBK 2"; do
  read -r v leaf <<<"$case"
  d="$work/$v-$leaf"
  "$drop16" prove --variant "$v" --all-moves --hash 64 --json --quiet >"$d.single.json"
  ranks "$drop16" prove --variant "$v" --all-moves --hash 64 --json --quiet --mpi \
    --certificate "$d.proof" --leaf-hand "$leaf" >"$d.mpi.json" || fail "$v: the MPI prove failed"
  compare "$d.single.json" "$d.mpi.json" all || fail "$v --leaf-hand $leaf: see above"
  [[ $(checked_value "$d.proof") == $(json_value "$d.single.json") ]] ||
    fail "$v --leaf-hand $leaf: check-proof did not prove the merged certificate's value"
  ranks "$drop16" prove --variant "$v" --hash 64 --json --quiet --mpi --mpi-split-plies 3 \
    >"$d.one.json" || fail "$v: the MPI prove without --all-moves failed"
  compare "$d.single.json" "$d.one.json" some || fail "$v without --all-moves: see above"
  echo "$v --leaf-hand $leaf: same value and first moves, merged certificate accepted"
done

# 3. 4x4:NBRK: about 15 CPU seconds to prove and, with --leaf-hand 2, a short check.
d="$work/nbrk"
ranks "$drop16" prove --variant 4x4:NBRK --hash 256 --json --quiet --mpi --certificate "$d.proof" \
  --leaf-hand 2 >"$d.mpi.json" || fail "4x4:NBRK: the MPI prove failed"
[[ $(json_value "$d.mpi.json") == loss ]] || fail "4x4:NBRK: not the loss the tier solve finds"
[[ $(checked_value "$d.proof") == loss ]] || fail "4x4:NBRK: check-proof did not prove a loss"
echo "4x4:NBRK: a loss, merged certificate accepted"

# 4. Bad input, before any MPI.
for args in "--mpi --checkpoint $work/c.ckpt" "--mpi-split-plies 2" "--mpi --mpi-split-plies 0"; do
  status=0
  # shellcheck disable=SC2086 # the words of $args are the arguments
  "$drop16" prove --variant 3x3:NBK $args --quiet >/dev/null 2>"$work/err" || status=$?
  ((status == 2)) && [[ $(wc -l <"$work/err") == 1 ]] || fail "prove $args: status $status"
done
status=0
"$mpirun" --oversubscribe --allow-run-as-root -np 1 "$drop16" prove --variant 3x3:NBK --mpi \
  --quiet >/dev/null 2>"$work/err" || status=$?
((status != 0)) && grep -q "at least 2" "$work/err" || fail "--mpi on one rank: status $status"
echo "--mpi with --checkpoint, --mpi-split-plies without --mpi or out of range, one rank: refused"
