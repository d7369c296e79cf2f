// A position's win/draw/loss analysis (solver::WdlAnalysis: its value and every move's) from any
// source of values by canonical key: a table file (wdl_table.h) or a solver in memory. The same
// rule as solver/cyclic_retrograde.h's analyze: a terminal position has no moves played, and a
// move's value is mover_value of its child's.
#pragma once

#include <optional>

#include "solver/cyclic_retrograde.h"
#include "solver/game_concept.h"
#include "solver/wdl.h"

namespace tablebase {

// probe(canonical key) -> std::optional<solver::WdlValue>. nullopt when the position or one of its
// children is not known to the probe.
template <solver::KeyedGame G, typename Probe>
std::optional<solver::WdlAnalysis<typename G::Move>> analyze_wdl(const G& game,
                                                                 typename G::Position p,
                                                                 Probe&& probe) {
  const std::optional<solver::WdlValue> own = probe(game.canonical_key(p));
  if (!own) return std::nullopt;
  solver::WdlAnalysis<typename G::Move> a{*own, {}};
  if (game.is_terminal(p)) return a;
  typename G::MoveList moves;
  game.generate(p, moves);
  for (int i = 0; i < moves.size(); ++i) {
    const auto undo = game.make(p, moves[i]);
    const std::optional<solver::WdlValue> child = probe(game.canonical_key(p));
    game.unmake(p, moves[i], undo);
    if (!child) return std::nullopt;
    a.moves.push_back({moves[i], solver::mover_value(*child)});
  }
  return a;
}

}  // namespace tablebase
