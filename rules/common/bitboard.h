// A set of squares (or cells) of a board of at most 64, one bit each, and the operations every
// game's move generation uses on it. Each game numbers its squares itself (rank-major from the
// bottom left in all of them so far). A game takes them into its namespace with
// `using namespace common::bitboards;`.
#pragma once

#include <bit>
#include <cstdint>
#ifdef __BMI2__
#include <immintrin.h>
#endif

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

// The bits of x at the squares of mask, packed into the low bits in square order (BMI2's pext).
inline std::uint64_t extract_bits(Bitboard x, Bitboard mask) {
#ifdef __BMI2__
  return _pext_u64(x, mask);
#else
  std::uint64_t out = 0;
  for (std::uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
    if (x & mask & (0 - mask)) out |= bit;
  return out;
#endif
}

// The inverse: the low bits of x spread over the squares of mask (BMI2's pdep).
inline Bitboard deposit_bits(std::uint64_t x, Bitboard mask) {
#ifdef __BMI2__
  return _pdep_u64(x, mask);
#else
  Bitboard out = 0;
  for (std::uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
    if (x & bit) out |= mask & (0 - mask);
  return out;
#endif
}

}  // namespace common::bitboards
