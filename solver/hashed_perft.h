// perft with a transposition table on canonical keys: positions that are reached by different
// move orders, or are mirror images or colour swaps of each other, are counted once per depth.
#pragma once

#include <cstdint>

#include "solver/game_concept.h"
#include "solver/perft.h"
#include "solver/perft_table.h"

namespace solver {

template <KeyedGame G>
std::uint64_t hashed_perft(const G& game, typename G::Position& p, int depth,
                           PerftTable<typename G::Key>& table) {
  // Subtrees of depth 2 are cheaper to recount (bulk counting) than to key, probe and store:
  // hashing them too made hashed perft(6) of Drop 16 2.2x slower on one thread.
  constexpr int kMinHashedDepth = 3;
  if (depth < kMinHashedDepth) return perft(game, p, depth);
  const auto key = game.canonical_key(p);
  if (const auto hit = table.probe(key, depth)) return *hit;
  typename G::MoveList moves;
  game.generate(p, moves);
  std::uint64_t nodes = 0;
  bool overflow = false;  // checked once, after the loop
  for (int i = 0; i < moves.size(); ++i) {
    const auto undo = game.make(p, moves[i]);
    overflow |= __builtin_add_overflow(nodes, hashed_perft(game, p, depth - 1, table), &nodes);
    game.unmake(p, moves[i], undo);
  }
  if (overflow) throw_perft_overflow(depth);
  table.store(key, depth, nodes);
  return nodes;
}

}  // namespace solver
