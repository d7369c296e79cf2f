// A set of cells of an N x N grid (N <= 8), one bit per cell (rules/common/bitboard.h): bit
// (row * N + column), both counted from 0 at the bottom left, so cell "cr" of the rule book is
// bit (r - 1) * N + (c - 1).
#pragma once

#include "rules/common/bitboard.h"

namespace nevsky {

using namespace common::bitboards;
inline Bitboard cell_bit(int cell) {
  return square_bit(cell);
}

}  // namespace nevsky
