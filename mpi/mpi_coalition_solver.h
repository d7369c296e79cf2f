// The coalition tier solver over MPI ranks (`mpirun -np N drop16 solve --variant ROW --tables DIR
// --format coalition-tiers --mpi`): rank 0 first finds the row's positions (the space's reach,
// with its threads, or its index read from DIR), then the tiers go to the ranks as the other tier
// solvers' do (mpi_tier_manager.h), each solved whole by the rank that gets it, its children held
// by that rank or read from the files another rank wrote.
//
// The files are the single-process solve's, byte for byte, while every distance fits a byte's
// codes: each tier is solved by the same code from the same children and written at the same
// zstd level, and the index by the same reach. A rank whose tier passes a byte solves it and
// every later tier in two-byte codes, as one process does from that tier on; another rank may
// still write a later tier in bytes where its distances fit them (the files say their width, so
// the values read the same). A run resumes as one process does: the index and the finished tiers
// are read from DIR. --memory and --threads are each rank's.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "mpi/mpi_link.h"
#include "mpi/mpi_tier_manager.h"
#include "tablebase/coalition_tier_solver.h"
#include "tablebase/coalition_widening_solver.h"
#include "tablebase/tier_schedule.h"

namespace mpi_solve {

struct CoalitionDistributedReport {
  // As CoalitionTierSolver::report() gives it, summed over the tiers (peaks: the largest rank's).
  tablebase::CoalitionTierReport tiers;
  std::size_t code_bytes = 1;  // the widest codes any rank solved in
  std::vector<RankReport> ranks;
};

// What a run needs of the front end beside the space and the solver's options.
struct CoalitionRankSetup {
  // Rank 0, inside the run's lock on the options' dir: the space's positions found or its index
  // read (what may refuse the run: a folder of other tables, the reach past --memory).
  std::function<void()> index;
  // Every other rank, before its first tier: the index rank 0 wrote, read.
  std::function<void()> load_index;
  // Each rank, before its first tier in codes of `code_bytes`: the codes' budget left under its
  // --memory by what it holds and the blocks' arrays (`block_work` bytes at most); throws
  // tablebase::MemoryCapError when the row's largest tier alone does not fit.
  std::function<std::uint64_t(std::size_t code_bytes, std::uint64_t block_work)> budget;
};

namespace coalition_detail {

// A tier's solve as sent to rank 0: this header, then its tally by split.
struct TierSaid {
  std::int64_t kingmakers = -1;
  std::uint64_t file_bytes = 0, peak_held_bytes = 0, block_work_bytes = 0;
  std::int32_t code_bytes = 1;
};
static_assert(std::is_trivially_copyable_v<tablebase::CoalitionTierTally>,
              "sent between ranks as bytes");

// A rank's solver: the index read before its first tier (rank 0's found it), then its tiers.
template <tablebase::CoalitionTierSpace S>
class RankSolver {
 public:
  RankSolver(const S& space, const tablebase::CoalitionTierSolveOptions& options,
             const CoalitionRankSetup& setup)
      : setup_(setup), solver_(space, options, setup.budget) {}

  std::string solve(int t) {
    if (!indexed_) setup_.load_index();
    indexed_ = true;
    const tablebase::CoalitionTierSolved solved = solver_.solve_tier(t);
    const tablebase::CoalitionTierReport peaks = solver_.peaks();
    const TierSaid said{solved.kingmakers, solved.file_bytes, peaks.peak_held_bytes,
                        peaks.block_work_bytes, std::int32_t(solver_.code_bytes())};
    std::string text = bytes_of(said);
    text.append(reinterpret_cast<const char*>(solved.splits.data()),
                solved.splits.size() * sizeof(tablebase::CoalitionTierTally));
    return text;
  }

 private:
  const CoalitionRankSetup& setup_;
  bool indexed_ = false;
  tablebase::WideningCoalitionSolver<S> solver_;
};

}  // namespace coalition_detail

// Collective over MPI_COMM_WORLD: every rank calls it with the same space (its index not yet
// read), options and setup; rank 0 runs with `run` (progress shown, a stop asked between tiers). It
// initialises MPI and finalises it before it returns or throws. Rank 0 returns the report; the
// others return nothing and leave every error for rank 0 to report. Rank 0 throws what setup.index
// throws, what the directory's lock throws, and RankFailure for a rank's failed tier.
template <tablebase::CoalitionTierSpace S>
std::optional<CoalitionDistributedReport> solve_coalition_mpi(
    const S& space, const tablebase::CoalitionTierSolveOptions& options,
    const CoalitionRankSetup& setup, const TierRunOptions& run) {
  const Session session;
  CoalitionRankSetup mine = setup;
  if (session.rank() == 0) mine.load_index = [] {};  // setup.index fills rank 0's space
  coalition_detail::RankSolver<S> rank_solver(space, options, mine);
  const TierWork work{
      [&](int t, tablebase::TierTeam*, RankReport&) { return rank_solver.solve(t); },
      [&](int t) { return space.tier_name(t); }};
  if (session.rank() != 0) {
    solve_assigned(work, session.rank(), session.team());
    return std::nullopt;
  }
  CoalitionDistributedReport result;
  tablebase::CoalitionTierReport& report = result.tiers;
  const auto start = std::chrono::steady_clock::now();
  const auto prepare = [&] {
    TierRun run = locked_run(space.variant_name(), options.dir, 0, ~std::uint64_t{0});
    setup.index();
    const int tiers = space.tier_count();
    report = tablebase::empty_coalition_report(space.players(), tiers);
    for (int t = 0; t < tiers; ++t) run.sizes.push_back(space.tier_size(t));
    // No tier is taken as finished here: a tier found on disk still goes to a rank, which tallies
    // it from its file.
    run.schedule =
        std::make_unique<tablebase::TierSchedule>(space, std::vector<char>(std::size_t(tiers), 0));
    run.finished = [&](int t, std::string_view said) {
      using coalition_detail::TierSaid;
      const auto head = value_of<TierSaid>(said);
      said.remove_prefix(sizeof(TierSaid));
      tablebase::CoalitionTierSolved solved{{}, head.kingmakers, head.file_bytes};
      solved.splits.resize(report.splits.size());
      std::memcpy(solved.splits.data(), said.data(),
                  std::min(said.size(), solved.splits.size() * sizeof(solved.splits[0])));
      tablebase::add_tier(report, t, space.tier_size(t), solved);
      report.peak_held_bytes = std::max(report.peak_held_bytes, head.peak_held_bytes);
      report.block_work_bytes = std::max(report.block_work_bytes, head.block_work_bytes);
      result.code_bytes = std::max(result.code_bytes, std::size_t(head.code_bytes));
    };
    return run;
  };
  result.ranks = manage_tiers(prepare, work, run, session.size(), session.team());
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace mpi_solve
