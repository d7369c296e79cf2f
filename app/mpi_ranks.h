// What `drop16 solve --mpi` prints of its ranks, whichever tier solver they ran (Drop 16's,
// mpi/mpi_tier_solver.h, the loopy one, mpi/mpi_loopy_solver.h, or the coalition one,
// mpi/mpi_coalition_solver.h), and what it says in a build without MPI.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "app/command.h"

#if DROP16_MPI
#include "mpi/mpi_tier_manager.h"
#endif

namespace app {

#if DROP16_MPI
// Runs the MPI solve `solve` (a RankFailure that is bad input, such as a damaged file found by a
// rank, made a UsageError as in one process) and returns what it returns.
template <typename Solve>
auto reporting_rank_failures(const Solve& solve) {
  try {
    return solve();
  } catch (const mpi_solve::RankFailure& e) {
    if (e.exit_status == 2) throw UsageError(e.what());
    throw;
  }
}

inline nlohmann::ordered_json mpi_ranks_json(const std::vector<mpi_solve::RankReport>& ranks) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const mpi_solve::RankReport& r : ranks)
    out.push_back({{"rank", r.rank},
                   {"tiers_solved", r.tiers_solved},
                   {"split_tiers", r.split_tiers},
                   {"group_folds", r.group_folds},
                   {"solve_seconds", r.solve_seconds},
                   {"peak_memory_mb", r.peak_memory_mb},
                   {"messages_sent", r.messages_sent},
                   {"messages_received", r.messages_received},
                   {"bytes_sent", r.bytes_sent},
                   {"bytes_received", r.bytes_received},
                   {"split_bytes_sent", r.split_bytes_sent},
                   {"split_bytes_received", r.split_bytes_received}});
  return out;
}
#endif

// --mpi in a build without MPI: bad input, saying how to get it.
[[noreturn]] inline void refuse_mpi_unbuilt() {
  throw UsageError(
      "--mpi: this drop16 was built without MPI (install OpenMPI with "
      "bash scripts/install-deps.sh, then build again)");
}

}  // namespace app
