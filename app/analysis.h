// The contract's analysis object, shared by solve, query, verify and serve:
//   {"variant", "fen", "value": "win"|"loss", "dte", "moves": [{"move", "value", "dte"}, ...]}
// `value` is for the side to move; a move's value is what it gives the side that plays it.
#pragma once

#include <nlohmann/json.hpp>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "solver/outcome.h"

namespace app {

// From any analysis with `dte` and `moves[i].{move, outcome}` (ForwardSolver's or Tablebase's).
template <typename Analysis>
nlohmann::ordered_json analysis_json(const drop::Game& game, const drop::Position& p,
                                     const Analysis& a) {
  nlohmann::ordered_json j;
  j["variant"] = game.variant().name();
  j["fen"] = drop::to_fen(game, p);
  j["value"] = solver::is_win(a.dte) ? "win" : "loss";
  j["dte"] = a.dte;
  j["moves"] = nlohmann::ordered_json::array();
  for (const auto& m : a.moves)
    j["moves"].push_back({{"move", drop::move_name(game.geometry(), m.move)},
                          {"value", m.outcome.win ? "win" : "loss"},
                          {"dte", m.outcome.dte}});
  return j;
}

}  // namespace app
