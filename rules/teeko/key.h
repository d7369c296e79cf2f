// A Teeko position packed into 128 bits (rules/common/key128.h), exactly, on every board:
//   bits 0 .. 48      the key's own side's squares (bit rank * size + file; at most 7x7)
//   bits 64 .. 112    the other side's squares
//   bit 127           the side to move (raw and symmetric keys; canonical keys leave it 0)
// "Own" is Black in raw keys and the side to move in canonical ones.
#pragma once

#include <cstdint>

#include "rules/common/key128.h"

namespace teeko {

// The version of the packing above, for keys saved to files; bump it with any change.
inline constexpr std::uint32_t kKeyFormat = 1;

using Key = common::Key;
using Key128 = common::Key128;

}  // namespace teeko
