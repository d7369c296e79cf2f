// The tier solver over MPI ranks (`mpirun -np N drop16 solve --tables DIR --mpi`): rank 0 is the
// manager that hands each tier whose children are all finished to an idle rank
// (tablebase/tier_schedule.h, GamesmanOne's design); every rank, rank 0 too on a thread of its
// own, solves the tiers it gets with the threaded TierSolver and writes their files into DIR,
// which all ranks share (one machine, or a cluster's shared file system). A child tier solved by
// another rank is read from its files, so for whole tiers the messages carry only tier numbers
// and reports.
//
// The files are the single-process solve's, byte for byte: each tier is solved by the same code
// from the same children and written at the same zstd level; only who solves it and when differ.
// Resuming works as for one process: finished tiers are skipped and a tier's checkpoint
// (NAME.partial) is continued by whichever rank gets it.
//
// A tier larger than a threshold is split (tablebase/tier_team.h, Irving's Pentago design for one
// tier): once every rank is idle, all of them solve it together, each its own contiguous part of
// every pass, and after each pass (and each group fold) every part goes from its owner to all
// other ranks (broadcasts), since the next pass reads the entries of the earlier ones. The passes
// move (ranks - 1) x the tier's bytes (an eighth of that for value-only tiers), each group fold
// as much again over the entries it covers. Children in other tiers are finished, so they are
// still read from the shared files. Every rank then holds the whole tier as one process would;
// rank 0 writes its files, and its checkpoint between passes, which is the single-process
// checkpoint (so no per-rank checkpoints: any team, or one process, resumes from it). A rank
// killed in a split tier ends the run through mpirun (OpenMPI aborts the job and names the
// rank); a rerun resumes from the finished tiers and the checkpoint.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "mpi/mpi_tier_manager.h"
#include "rules/drop/solve/tier_space.h"
#include "tablebase/tier_solver.h"

namespace drop {

struct DistributedReport {
  tablebase::TierSolveReport tiers;          // as solve_tiers gives it, summed over ranks
  std::vector<mpi_solve::RankReport> ranks;  // by rank
};

// Collective over MPI_COMM_WORLD: every rank calls it with the same variant, options (its own
// --memory and --threads) and split_entries: tiers of more entries are split over all ranks. It
// initialises MPI and finalises it before it returns or throws. Rank 0 returns the report; the
// others return nothing, and leave every error for rank 0 to report. Rank 0 throws what solve_tiers
// would for the memory plan, the directory's lock or a damaged file it finds, RankFailure for a
// rank's failed tier, and SolveInterrupted when asked to stop; tiers under way on other ranks are
// finished first.
std::optional<DistributedReport> solve_tiers_mpi(
    const drop::TierSpace& space, const tablebase::TierSolveOptions& options,
    std::uint64_t split_entries = mpi_solve::kDefaultSplitEntries);

}  // namespace drop
