// A set of squares (or cells) of a board of at most 64, one bit each, and the operations every
// game's move generation uses on it. Each game numbers its squares itself (rank-major from the
// bottom left in all of them so far). A game takes them into its namespace with
// `using namespace common::bitboards;`.
#pragma once

#include <bit>
#include <cstdint>

namespace common::bitboards {

using Bitboard = std::uint64_t;

inline int popcount(Bitboard b) {
  return std::popcount(b);
}
inline int lsb(Bitboard b) {
  return std::countr_zero(b);
}
inline int msb(Bitboard b) {
  return 63 - std::countl_zero(b);
}
inline Bitboard square_bit(int sq) {
  return Bitboard{1} << sq;
}
// Removes and returns the lowest square of a non-empty set; the usual loop over a set's squares.
inline int pop_lsb(Bitboard& b) {
  const int sq = lsb(b);
  b &= b - 1;
  return sq;
}

}  // namespace common::bitboards
