# Sourced by the MPI tests (tests/mpi_*_test.sh) once they have set $mpirun: how they fail, how
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
