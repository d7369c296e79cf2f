// Perft of a plain reference engine (rules/<game>/reference_rules.h), the second implementation
// the engines' counts are checked against: every leaf is played, no bulk counting, the honest
// cost of a generic engine. The engine is found in its Board's namespace (argument-dependent
// lookup): legal_moves(board), a list of moves, and play(board, move), the board after it.
#pragma once

#include <cstdint>

namespace common {

template <typename Board>
std::uint64_t reference_perft(const Board& b, int depth) {
  if (depth == 0) return 1;
  std::uint64_t n = 0;
  for (const auto& m : legal_moves(b)) n += reference_perft(play(b, m), depth - 1);
  return n;
}

}  // namespace common
