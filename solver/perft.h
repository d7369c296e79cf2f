// perft(d): the number of move sequences of exactly d plies (RULES.md). The last ply is counted in
// bulk (count_moves) instead of being made move by move, which is where most of the speed is.
// A subtree is counted in 64 bits, checked: parallel_divide adds subtrees up in 128 bits, so a
// count is exact or refused (PerftOverflow), never wrapped.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "solver/game_concept.h"

namespace solver {

// One subtree has 2^64 move sequences or more.
class PerftOverflow : public std::overflow_error {
 public:
  explicit PerftOverflow(int depth)
      : std::overflow_error("a subtree of depth " + std::to_string(depth) +
                            " has 2^64 move sequences or more, beyond the 64-bit subtree counts") {}
};

// Out of line and cold: a throw in the recursion makes GCC stop inlining make() and generate()
// into it, which slows perft down (bench/perft_bench.cpp).
[[noreturn, gnu::cold, gnu::noinline]] void throw_perft_overflow(int depth);

template <PerftGame G>
std::uint64_t perft(const G& game, typename G::Position& p, int depth) {
  if (depth == 0) return 1;
  if (depth == 1) return game.count_moves(p);
  typename G::MoveList moves;
  game.generate(p, moves);
  std::uint64_t nodes = 0;
  bool overflow = false;  // checked once, after the loop
  for (int i = 0; i < moves.size(); ++i) {
    const auto undo = game.make(p, moves[i]);
    overflow |= __builtin_add_overflow(nodes, perft(game, p, depth - 1), &nodes);
    game.unmake(p, moves[i], undo);
  }
  if (overflow) throw_perft_overflow(depth);
  return nodes;
}

}  // namespace solver
