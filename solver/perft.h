// perft(d): the number of move sequences of exactly d plies (RULES.md). The last ply is counted in
// bulk (count_moves) instead of being made move by move, which is where most of the speed is.
#pragma once

#include <cstdint>

#include "solver/game_concept.h"

namespace solver {

template <PerftGame G>
std::uint64_t perft(const G& game, typename G::Position& p, int depth) {
  if (depth == 0) return 1;
  if (depth == 1) return game.count_moves(p);
  typename G::MoveList moves;
  game.generate(p, moves);
  std::uint64_t nodes = 0;
  for (int i = 0; i < moves.size(); ++i) {
    const auto undo = game.make(p, moves[i]);
    nodes += perft(game, p, depth - 1);
    game.unmake(p, moves[i], undo);
  }
  return nodes;
}

}  // namespace solver
