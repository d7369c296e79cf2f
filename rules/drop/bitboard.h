// A set of squares, one bit per square: bit (rank * width + file). Boards up to 8x8 fit one word;
// on Drop 16 only the low 16 bits are used, which costs nothing extra on a 64-bit machine.
#pragma once

#include <bit>
#include <cstdint>

namespace drop {

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

}  // namespace drop
