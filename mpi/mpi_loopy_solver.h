// The loopy tier solver over MPI ranks (`mpirun -np N drop16 solve --variant ROW --tables DIR
// --format loopy-tiers --mpi`): rank 0 first marks what the roots reach (the whole reach, with its
// threads, while the other ranks wait: the reach marks each tier's children from every parent,
// so its tiers are not independent), then the tiers go to the ranks as Drop 16's do
// (mpi_tier_manager.h), each solved by the rank that gets it, whole or a slice at a time as its
// plan says, with its children read from the shared files.
//
// The files are the single-process solve's, byte for byte: each tier is solved by the same code
// from the same children and reached bits, and written at the same zstd level. The counts are
// each tier's, taken by the rank that solved it and summed by rank 0. A run resumes as one
// process does: the reach from its files, a finished tier's file kept (the rank it goes to counts
// it from the file), a sliced tier's finished slices kept. --memory and --threads are each
// rank's; every rank holds what one process's plan holds.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "mpi/mpi_link.h"
#include "mpi/mpi_tier_manager.h"
#include "solver/process_resources.h"
#include "tablebase/loopy_tier_solver.h"
#include "tablebase/tier_solve_options.h"  // SolveInterrupted

namespace mpi_solve {

struct LoopyDistributedReport {
  tablebase::LoopySolveReport tiers;  // as LoopyTierSolver::run gives it, summed over ranks
  std::vector<RankReport> ranks;      // by rank
};

// Collective over MPI_COMM_WORLD: every rank calls it with the same space and options. It
// initialises MPI and finalises it before it returns or throws. Rank 0 returns the report; the
// others return nothing, and leave every error for rank 0 to report. Rank 0 throws what run()
// would for the memory plan, the directory's lock or a damaged file, and RankFailure for a rank's
// failed tier.
template <tablebase::LoopyTierSpace S>
std::optional<LoopyDistributedReport> solve_loopy_mpi(const S& space,
                                                      const tablebase::LoopySolveOptions& options) {
  using tablebase::LoopySolveReport;
  static_assert(std::is_trivially_copyable_v<LoopySolveReport>, "sent between ranks as bytes");
  const Session session;
  tablebase::LoopySolveOptions rank_options = options;
  rank_options.show_progress = false;  // rank 0 shows the run's progress
  tablebase::LoopyTierSolver<S> rank_solver(space, rank_options);
  const TierWork work{[&](int t, tablebase::TierTeam*, RankReport&) {
                        LoopySolveReport tier;
                        const double cpu = solver::cpu_seconds();
                        rank_solver.solve_tier(t, tier);
                        tier.solve_cpu_seconds = solver::cpu_seconds() - cpu;
                        return bytes_of(tier);
                      },
                      [&](int t) { return space.tier_name(t); }};
  if (session.rank() != 0) {
    solve_assigned(work, session.rank(), session.team());
    return std::nullopt;
  }
  LoopyDistributedReport result;
  LoopySolveReport& report = result.tiers;
  report.tiers = space.tier_count();
  report.planned_bytes = rank_solver.planned_bytes();
  const auto start = std::chrono::steady_clock::now();
  auto reached = start;
  const auto prepare = [&] {
    TierRun run =
        locked_run(space.variant_name(), options.dir, report.planned_bytes, options.memory_bytes);
    const double start_cpu = solver::cpu_seconds();
    if (!tablebase::LoopyTierSolver<S>(space, options).reach_tiers(report))
      throw tablebase::SolveInterrupted("the reach stopped; run again to continue it");
    reached = std::chrono::steady_clock::now();
    report.reach_seconds = std::chrono::duration<double>(reached - start).count();
    report.reach_cpu_seconds = solver::cpu_seconds() - start_cpu;
    for (int t = 0; t < space.tier_count(); ++t) run.sizes.push_back(space.tier_size(t));
    // No tier is taken as finished here: a tier found on disk still goes to a rank, which counts
    // it from its file.
    run.schedule = std::make_unique<tablebase::TierSchedule>(
        space, std::vector<char>(std::size_t(space.tier_count()), 0));
    run.finished = [&](int, std::string_view said) {
      report.add_tiers(value_of<LoopySolveReport>(said));
    };
    return run;
  };
  result.ranks =
      manage_tiers(prepare, work, {options.show_progress, {}}, session.size(), session.team());
  report.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - reached).count();
  return result;
}

}  // namespace mpi_solve
