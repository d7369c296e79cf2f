// The verdicts: each of the designer's claims against the exact figures (estimates only where
// nothing exact decides), from the sections' records.
#pragma once

#include <string>
#include <utility>

#include "rules/drop/claims/record.h"
#include "rules/drop/game.h"
#include "solver/exact_count.h"

namespace solver::claims {

// The largest count of move sequences proven exactly: every one of them extends to at least one
// complete game, and distinct prefixes give distinct games.
std::pair<Count, std::string> paths_lower_bound(const json& closed, const json& perft);
// One {claim, verdict, figure} a claim.
json verdicts(const drop::Game& game, const json& closed, const json& perft, const json& games,
              const json& probes);

}  // namespace solver::claims
