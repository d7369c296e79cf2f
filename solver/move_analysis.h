// What `solve`, `verify` and `serve` show of a position: its DTE and what every move gives the
// side that plays it, from any function that gives a position's exact DTE. Two players taking
// turns (TwoPlayerGame): a move's outcome is the negation of its child's.
#pragma once

#include <vector>

#include "solver/game_concept.h"
#include "solver/outcome.h"
#include "solver/turn_order.h"

namespace solver {

template <typename Move>
struct MoveAnalysis {
  struct MoveResult {
    Move move;
    MoveOutcome outcome;
  };
  int dte;                        // of the position; is_win(dte) is its value for the side to move
  std::vector<MoveResult> moves;  // in generation order
};

// child_dte(Position&) is the exact DTE of the position it is given (and restores it).
template <PerftGame G, typename ChildDte>
MoveAnalysis<typename G::Move> analyze_moves(const G& game, typename G::Position p,
                                             ChildDte child_dte) requires TwoPlayerGame<G> {
  MoveAnalysis<typename G::Move> a;
  typename G::MoveList moves;
  game.generate(p, moves);
  DteFold fold;
  for (int i = 0; i < moves.size(); ++i) {
    const auto undo = game.make(p, moves[i]);
    const int child = child_dte(p);
    game.unmake(p, moves[i], undo);
    fold.add(child);
    a.moves.push_back({moves[i], move_outcome(child)});
  }
  a.dte = fold.dte();
  return a;
}

}  // namespace solver
