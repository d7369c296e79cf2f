// The best play of a rolled Royal Nardy position with its expected points, for `query` and
// `serve`: exact where it can be, the player's estimate (player.h) otherwise, saying which.
//
// Exact: every play's result is finished (the rules' points) or a race of plain checkers only,
// both sides all home with at most kExactRaceCheckers each, valued by solver::Expectimax over the
// rules engine on the 12-point board (as two_sided.h does: every such line ends). Royal
// checkers in a race can pass, repeating positions, which expectimax cannot value, so those races
// get the player's estimate (from the bear-off database, if one is given).
#pragma once

#include <string>
#include <vector>

#include "rules/nardy/game.h"
#include "rules/nardy/solve/bearoff.h"

namespace nardy::advice {

inline constexpr int kExactRaceCheckers = 4;

struct PlayValue {
  nardy::Move move;
  nardy::Position after;
  double value;  // the mover's expected points after it
};

struct Advice {
  std::vector<PlayValue> plays;  // in the rules engine's order
  std::size_t best = 0;          // the first play of the highest value
  bool exact = false;
  std::string source;  // "exact race expectimax" or "player search, depth D[, bear-off database]"
};

// p's dice must be rolled and p not finished; depth 1 or 2 for the player's search.
Advice advise(const nardy::Game& game, const nardy::Position& p, const bearoff::OneSided* db,
              int depth);

}  // namespace nardy::advice
