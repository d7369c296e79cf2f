// A Dobutsu shogi position packed into 128 bits (rules/common/key128.h), exactly:
//   bits 0 .. 47     the 12 squares' cells (position.h), 4 bits each, a1 first
//   bits 48 .. 59    the hands: 2 bits a kind (Chick, Elephant, Giraffe), Sente's then Gote's
//   bit 127          the side to move (raw and symmetric keys; canonical keys leave it 0)
// In canonical keys the side to move is Sente: the board turned half round with the colours
// swapped when Gote is to move.
#pragma once

#include <cstdint>

#include "rules/common/key128.h"

namespace dobutsu {

// The version of the packing above, for keys saved to files; bump it with any change.
inline constexpr std::uint32_t kKeyFormat = 1;

using Key = common::Key;
using Key128 = common::Key128;

}  // namespace dobutsu
