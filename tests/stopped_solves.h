// Stopping a tier solve and resuming it until it finishes, as the checkpoint tests do
// (tablebase_test.cpp, value_only_test.cpp): each run stops where options.stop_requested asks
// (SolveInterrupted) and the next resumes from what it saved.
#pragma once

#include "tablebase/tier_solver.h"

namespace test_support {

// Solves `space` with `options` again and again until a run finishes; after each stopped run,
// calls after_stop() to look at what that run left. Returns the number of runs, the finishing one
// included.
template <typename Space, typename AfterStop>
int solve_until_done(const Space& space, const tablebase::TierSolveOptions& options,
                     AfterStop&& after_stop) {
  int runs = 0;
  for (bool done = false; !done; ++runs) {
    try {
      tablebase::solve_tiers(space, options);
      done = true;
    } catch (const tablebase::SolveInterrupted&) {
      after_stop();
    }
  }
  return runs;
}

}  // namespace test_support
