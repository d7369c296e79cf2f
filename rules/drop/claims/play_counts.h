// Play with captures, counted exactly as deep as the work limits allow (limits.h): perft per
// depth (hashed when positions fit the exact keys), and distinct positions per ply by
// breadth-first search, raw and up to symmetry.
#pragma once

#include "rules/drop/claims/record.h"
#include "rules/drop/claims/settings.h"
#include "rules/drop/game.h"

namespace solver::claims {

// perft(d) for d = 0, 1, ... while the next depth is predicted to take under kPerftStepSeconds
// (section perft).
json exact_perft(const drop::Game& game, const ClaimsSettings& o);
// Distinct positions per ply, deepened while the next ply's predicted children (from `perft`, or
// the random games' estimate in `probes`) stay within kAllPlayChildBudget and its sets fit
// --memory (section capture_bfs).
json capture_breadth_first(const drop::Game& game, const json& perft, const json& probes,
                           const ClaimsSettings& o);

}  // namespace solver::claims
