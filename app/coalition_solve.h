// `drop16 solve` for the games valued per coalition of players (registry entries with the
// coalition solver, Solver::coalition_values: Nevsky checkers): what the solve command hands over.
#pragma once

#include <cstdint>

#include "app/command.h"

namespace app {

struct CoalitionSolveRequest {
  PositionOptions position;
  std::uint64_t memory_bytes = 0;  // --memory: the process's resident memory stays under it
};

// Solves every position reachable from the asked position (--fen, else the variant's start) for
// every coalition (solver/coalition_solve.h) and prints, for that position, each coalition's value
// and distance, the coalitions that force a win, the counts over the positions reached (with the
// kingmakers and the longest forced win) and the cost. Throws UsageError when the positions'
// keys do not fit, or when the solve does not fit under --memory (the message says how far it
// got).
void run_coalition_solve(const CoalitionSolveRequest& r);

}  // namespace app
