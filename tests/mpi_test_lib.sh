# Sourced by the MPI tests (tests/mpi_*_test.sh) once they have set $drop16 and $mpirun: how they fail, how
# they start 3 ranks, and $work, their scratch folder (removed at exit), in memory when it can:
# every tier's files are synced to disk as they are written, which on a busy disk costs more than
# solving small variants.

work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# The same table files in both directories, byte for byte (the lock file is no table): diff -r -q
# compares every pair of files by content, as cmp would, in one process (thousands of cmp
# processes take minutes on a busy machine).
same_tables() {
  diff -r -q --exclude=.lock "$1" "$2" >&2 || fail "$1 and $2 hold different tables"
}
ranks() {  # mpirun for 3 ranks on this machine, whatever its cores and user
  "$mpirun" --oversubscribe --allow-run-as-root -np 3 "$@"
}
# `drop16 solve ARG...` into DIR/single by one process and into DIR/mpi by 3 ranks (one thread
# each), their JSON in DIR.single.json and DIR.mpi.json; the two folders' files must be the same.
solve_single_and_ranks() {  # solve_single_and_ranks DIR ARG...
  local d=$1
  shift
  "$drop16" solve "$@" --tables "$d/single" --threads 1 --json --quiet >"$d.single.json"
  ranks "$drop16" solve "$@" --tables "$d/mpi" --threads 1 --json --quiet --mpi >"$d.mpi.json" ||
    fail "$*: the MPI solve failed"
  same_tables "$d/single" "$d/mpi"
}
