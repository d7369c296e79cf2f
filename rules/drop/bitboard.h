// A set of squares, one bit per square: bit (rank * width + file) (rules/common/bitboard.h).
// Boards up to 8x8 fit one word; on Drop 16 only the low 16 bits are used, which costs nothing
// extra on a 64-bit machine.
#pragma once

#include "rules/common/bitboard.h"

namespace drop {

using namespace common::bitboards;

}  // namespace drop
