// A position packed into 128 bits (rules/common/key128.h): 4 bits a square (empty, or one of 10
// coloured pieces), then both hands in mixed radix, then optionally the side to move. Fits boards
// of up to 28 squares with the Drop 16 hands.
#pragma once

#include <cstdint>

#include "rules/common/key128.h"

namespace drop {

// The version of the packing above. Keys saved to files (proof checkpoints) carry it, and a file of
// another version is refused: its keys would name other positions. Bump it with any change to the
// packing.
inline constexpr std::uint32_t kKeyFormat = 1;

using Key = common::Key;
using Key128 = common::Key128;
using common::from_key;
using common::to_key;

}  // namespace drop
