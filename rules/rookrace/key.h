// A rook race position packed into 128 bits (rules/common/key128.h), exactly, on every board:
//   bits 6b .. 6b+5   block b (blocks numbered rank-major from a1): 3 bits for the key's own
//                     side's pawn in it, 3 for the other side's, each 0 (none) or 1 + its square
//                     within the block (1 + 2 * rank bit + file bit). A block never holds two
//                     pawns of one colour, so this is every pawn. Up to 16 blocks: 96 bits.
//   bits 96, 102      the own and the other rook's squares, 6 bits each
//   bits 108, 110     the own and the other block counters, 2 bits each
//   bits 112, 119     the own and the other reserves, 7 bits each (at most 127 pawns)
//   bit 127           the side to move (raw and symmetric keys; canonical keys leave it 0)
// "Own" is White in raw keys and the side to move in canonical ones.
#pragma once

#include <cstdint>

#include "rules/common/key128.h"

namespace rookrace {

// The version of the packing above, for keys saved to files; bump it with any change.
inline constexpr std::uint32_t kKeyFormat = 1;

using Key = common::Key;
using Key128 = common::Key128;

}  // namespace rookrace
