// A set of squares, one bit per square: bit (rank * width + file); boards up to 8x8 fit one word.
#pragma once

#include <bit>
#include <cstdint>

namespace spock {

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
// Removes and returns the lowest square of a non-empty set.
inline int pop_lsb(Bitboard& b) {
  const int sq = lsb(b);
  b &= b - 1;
  return sq;
}

}  // namespace spock
