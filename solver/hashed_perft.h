// perft with a transposition table on canonical keys: positions that are reached by different
// move orders, or are mirror images or colour swaps of each other, are counted once per depth.
#pragma once

#include <cstdint>

#include "solver/game_concept.h"
#include "solver/perft_table.h"

namespace solver {

template <KeyedGame G>
std::uint64_t hashed_perft(const G& game, typename G::Position& p, int depth,
                           PerftTable<typename G::Key>& table) {
  if (depth == 0) return 1;
  if (depth == 1) return game.count_moves(p);
  const auto key = game.canonical_key(p);
  if (const auto hit = table.probe(key, depth)) return *hit;
  typename G::MoveList moves;
  game.generate(p, moves);
  std::uint64_t nodes = 0;
  for (int i = 0; i < moves.size(); ++i) {
    const auto undo = game.make(p, moves[i]);
    nodes += hashed_perft(game, p, depth - 1, table);
    game.unmake(p, moves[i], undo);
  }
  table.store(key, depth, nodes);
  return nodes;
}

}  // namespace solver
