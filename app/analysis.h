// The contract's analysis object (tablebase/analysis_json.h) of a win/loss analysis, shared by
// solve, query and verify of tier tables: Tablebase's or the forward solvers', a DTE and each
// move's outcome, in the one shape every front end prints.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "rules/registry.h"
#include "tablebase/analysis_json.h"

namespace app {

// From any analysis with `dte` and `moves[i].{move, outcome}`, named as E's text forms name them.
template <typename E, typename Analysis>
nlohmann::ordered_json analysis_json(const typename E::Game& game,
                                     const typename E::Game::Position& p, const Analysis& a) {
  std::vector<tablebase::MoveValue> moves;
  for (const auto& m : a.moves)
    moves.push_back({registry::move_text<E>(game, p, m.move), tablebase::wdl_of(m.outcome)});
  return tablebase::analysis_json(E::variant_name(game), E::fen(game, p),
                                  tablebase::wdl_of_dte(a.dte), moves);
}

}  // namespace app
