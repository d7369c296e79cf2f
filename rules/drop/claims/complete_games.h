// Section 4 of the claims (run.h): complete games counted exactly where the memo fits
// (solver/claims_game_paths.h), and the game's length under perfect play (the forward solver's
// DTE); the same for the small variants, beside Knuth's estimate, to show how the estimator fares.
#pragma once

#include "rules/drop/claims/record.h"
#include "rules/drop/claims/settings.h"
#include "rules/drop/game.h"

namespace solver::claims {

// The complete games from the start, or why they were not counted (section complete_games).
json complete_games(const drop::Game& game, const json& closed, const ClaimsSettings& o);
// Every small variant: its complete games, perfect play and Knuth's estimate (section
// small_variants).
json small_variants(const ClaimsSettings& o);

}  // namespace solver::claims
