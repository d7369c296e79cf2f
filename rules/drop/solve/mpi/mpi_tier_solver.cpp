#include "rules/drop/solve/mpi/mpi_tier_solver.h"

#include <cstdint>
#include <string>

#include "mpi/mpi_link.h"
#include "tablebase/directory_lock.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_schedule.h"

namespace drop {

namespace {

using tablebase::TierSolveOptions;

}  // namespace

std::optional<DistributedReport> solve_tiers_mpi(const drop::TierSpace& space,
                                                 const TierSolveOptions& options,
                                                 std::uint64_t split_entries) {
  const mpi_solve::Session session;
  TierSolveOptions rank_options = options;
  rank_options.show_progress = false;  // rank 0 shows the run's progress
  tablebase::TierSolver<drop::TierSpace> solver(space, rank_options);
  const mpi_solve::TierWork work{
      [&](int t, tablebase::TierTeam* team, mpi_solve::RankReport& rank) {
        const int folds = solver.solve_tier(t, team).group_folds;
        rank.group_folds += folds;
        return mpi_solve::bytes_of(std::int32_t(folds));  // what rank 0 hears: its group folds
      },
      [&](int t) { return space.tier_name(t); }};
  if (session.rank() != 0) {
    mpi_solve::solve_assigned(work, session.rank(), session.team());
    return std::nullopt;
  }
  const auto start = std::chrono::steady_clock::now();
  DistributedReport result;
  tablebase::TierSolveReport& report = result.tiers;
  report.tiers = space.tier_count();
  for (int t = 0; t < space.tier_count(); ++t) {
    report.positions += space.tier_positions(t);
    report.stored += space.tier_size(t);
  }
  report.planned_bytes =
      tablebase::planned_memory(space, options.value_only, split_entries, session.size());
  const auto prepare = [&] {
    mpi_solve::TierRun run = mpi_solve::locked_run(space.variant_name(), options.dir,
                                                   report.planned_bytes, options.memory_bytes);
    std::vector<char> finished(space.tier_count(), 0);
    for (int t = 0; t < space.tier_count(); ++t) {
      run.sizes.push_back(space.tier_size(t));
      finished[t] = tablebase::tier_files_present(options.dir, space.variant_name(),
                                                  space.tier_name(t), options.value_only);
    }
    run.schedule = std::make_unique<tablebase::TierSchedule>(space, finished);
    report.tiers_resumed = run.schedule->finished_count();
    run.split_entries = split_entries;
    run.finished = [&](int, std::string_view said) {
      report.tiers_solved += 1;
      report.group_folds += mpi_solve::value_of<std::int32_t>(said);
    };
    return run;
  };
  result.ranks =
      mpi_solve::manage_tiers(prepare, work, {options.show_progress, options.stop_requested},
                              session.size(), session.team());
  for (int t = 0; t < space.tier_count(); ++t) {
    const auto sizes = tablebase::tier_file_sizes(options.dir, space.tier_name(t));
    report.value_bytes += sizes.value_bytes;
    report.dte_bytes += sizes.dte_bytes;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace drop
