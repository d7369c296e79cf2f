// A Nevsky position packed into 128 bits (rules/common/key128.h), exactly, when it fits:
//   bits 0 .. C-1          the occupied cells (C = N * N cells, bit = cell index)
//   the next n bits        bit 0 of the owner of each occupied cell, n = the number of occupied
//                          cells, in increasing cell order (players 0..3: White, Red, Green,
//                          Black, renamed as the key says below)
//   the next n bits        bit 1 of the owner of each occupied cell
//   the next n bits        whether each occupied cell holds a king
//   bits 126, 127          the player to move
// C + 3n + 2 bits: a variant's keys fit when C + 3 * 4M + 2 <= 128 for its M checkers a player
// (checkers are never added, so the start has the most). That is every variant of 1 or 3 men a
// player, and of 6 men up to 7x7 (the game itself, 6x6, takes 110 bits); not 6 men on 8x8, nor
// 10 men.
// Raw keys name the players as they are; canonical keys rename them to follow the symmetry
// (game.h), so their player to move is always White (0).
#pragma once

#include <cstdint>

#include "rules/common/key128.h"

namespace nevsky {

// The version of the packing above, for keys saved to files; bump it with any change.
inline constexpr std::uint32_t kKeyFormat = 1;

using Key = common::Key;
using Key128 = common::Key128;

}  // namespace nevsky
