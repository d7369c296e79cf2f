// Sections 1-3 of the claims (run.h): drops-only play. Its positions and move sequences in
// closed form, by canonical forms and Burnside's lemma (solver/claims_orbits.h,
// solver/claims_count.h) and cross-checked ply by ply; then enumerated over real positions of the
// engine restricted to drops (rules/drop/drops_only.h), breadth first and by hashed perft, as deep
// as a budget allows.
#pragma once

#include "rules/drop/claims/record.h"
#include "rules/drop/claims/settings.h"
#include "rules/drop/game.h"

namespace solver::claims {

// The closed counts of every drops-only ply (section drop_phase); throws CountOverflow where they
// exceed 2^128.
json drop_phase(const drop::Game& game, const ClaimsSettings& o);
// Distinct drops-only positions per ply by breadth-first search, raw and up to symmetry, against
// the closed counts (section drop_phase_bfs).
json drop_phase_breadth_first(const drop::Game& game, const json& closed, const ClaimsSettings& o);
// Drops-only perft per depth against the closed sequence counts (section drop_phase_perft).
json drop_phase_perft(const drop::Game& game, const json& closed, const ClaimsSettings& o);

}  // namespace solver::claims
