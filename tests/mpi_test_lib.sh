# Sourced by the MPI tests (tests/mpi_*_test.sh) once they have set $mpirun: how they fail and how
# they start 3 ranks.

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
ranks() {  # mpirun for 3 ranks on this machine, whatever its cores and user
  "$mpirun" --oversubscribe --allow-run-as-root -np 3 "$@"
}
