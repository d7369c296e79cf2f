// A set of cells of an N x N grid (N <= 8), one bit per cell: bit (row * N + column), both
// counted from 0 at the bottom left, so cell "cr" of the rule book is bit (r - 1) * N + (c - 1).
#pragma once

#include <bit>
#include <cstdint>

namespace nevsky {

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
inline Bitboard cell_bit(int cell) {
  return Bitboard{1} << cell;
}
// Removes and returns the lowest cell of a non-empty set.
inline int pop_lsb(Bitboard& b) {
  const int cell = lsb(b);
  b &= b - 1;
  return cell;
}

}  // namespace nevsky
