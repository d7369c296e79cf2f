// A set of squares, one bit per square: bit (rank * width + file) (rules/common/bitboard.h);
// boards up to 8x8 fit one word.
#pragma once

#include "rules/common/bitboard.h"

namespace spock {

using namespace common::bitboards;

}  // namespace spock
