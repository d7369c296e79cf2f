// A board of up to 32 squares as 128 bits, a nibble a square (square i at bits 4i..4i+3): how
// Drop 16's and Spock's keys pack each square's code, built from the four bit planes of the codes
// (plane j: the squares whose code has bit j) with word operations instead of a loop over squares.
#pragma once

#include <array>
#include <cstdint>

#include "rules/common/key128.h"

namespace common {

// Moves bit i of the low 16 bits of x to bit 4i: one bit into each square's nibble.
inline std::uint64_t spread_to_nibbles(std::uint64_t x) {
  x &= 0xFFFF;
  x = (x | x << 24) & 0x000000FF000000FFull;
  x = (x | x << 12) & 0x000F000F000F000Full;
  x = (x | x << 6) & 0x0303030303030303ull;
  x = (x | x << 3) & 0x1111111111111111ull;
  return x;
}

// The nibbles of squares 0..31 from the four bit planes of their codes.
inline Key128 nibble_board(const std::array<std::uint32_t, 4>& planes) {
  std::uint64_t lo = 0, hi = 0;
  for (int j = 0; j < 4; ++j) {
    lo |= spread_to_nibbles(planes[j]) << j;
    hi |= spread_to_nibbles(planes[j] >> 16) << j;
  }
  return Key128(hi) << 64 | lo;
}

}  // namespace common
