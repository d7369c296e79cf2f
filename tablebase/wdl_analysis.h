// A position's win/draw/loss analysis (solver::WdlAnalysis: its value and every move's), and its
// value checked against its children's, from any source of values by canonical key: a table file
// (wdl_table.h) or a solver in memory. The same
// rule as solver/cyclic_retrograde.h's analyze: a terminal position has no moves played, and a
// move's value is mover_value of its child's.
#pragma once

#include <optional>

#include "solver/cyclic_retrograde.h"
#include "solver/game_concept.h"
#include "solver/wdl.h"

namespace tablebase {

// Calls child(move, value) for each move of p (none at a terminal position) with the probe's value
// of the position it leads to; false, at once, when the probe does not know one.
template <solver::KeyedGame G, typename Probe, typename Child>
bool for_each_child_value(const G& game, typename G::Position p, Probe&& probe, Child&& child) {
  if (game.is_terminal(p)) return true;
  typename G::MoveList moves;
  game.generate(p, moves);
  for (int i = 0; i < moves.size(); ++i) {
    const auto undo = game.make(p, moves[i]);
    const std::optional<solver::WdlValue> value = probe(game.canonical_key(p));
    game.unmake(p, moves[i], undo);
    if (!value) return false;
    child(moves[i], *value);
  }
  return true;
}

// probe(canonical key) -> std::optional<solver::WdlValue>. nullopt when the position or one of its
// children is not known to the probe.
template <solver::KeyedGame G, typename Probe>
std::optional<solver::WdlAnalysis<typename G::Move>> analyze_wdl(const G& game,
                                                                 const typename G::Position& p,
                                                                 Probe&& probe) {
  const std::optional<solver::WdlValue> own = probe(game.canonical_key(p));
  if (!own) return std::nullopt;
  solver::WdlAnalysis<typename G::Move> a{*own, {}};
  const bool known = for_each_child_value(game, p, probe, [&](const auto& move, auto child) {
    a.moves.push_back({move, solver::mover_value(child)});
  });
  if (!known) return std::nullopt;
  return a;
}

// A stored value checked against its children's stored values (solver::WdlFold): the local
// check of a table of a game with draws, which a bounded forward search cannot make for a draw.
struct WdlChildrenCheck {
  solver::WdlValue stored;         // the probe's value of the position
  solver::WdlValue from_children;  // what its children's values make it
  bool agrees() const { return stored == from_children; }
};

// nullopt when the probe does not know the position or one of its children (as analyze_wdl). A
// terminal position, or one without moves, must be a loss in 0.
template <solver::KeyedGame G, typename Probe>
std::optional<WdlChildrenCheck> check_against_children(const G& game, const typename G::Position& p,
                                                       Probe&& probe) {
  const std::optional<solver::WdlValue> own = probe(game.canonical_key(p));
  if (!own) return std::nullopt;
  solver::WdlFold fold;
  if (!for_each_child_value(game, p, probe, [&](const auto&, auto child) { fold.add(child); }))
    return std::nullopt;
  return WdlChildrenCheck{*own, fold.value()};
}

}  // namespace tablebase
