// A Spock position packed into 128 bits (rules/common/key128.h): 4 bits a square (0 empty, 1..5
// the key's own side's Rock Scissors Lizard Paper Spock, 6..10 the other side's), then the side to
// move. Exact; fits boards of up to 31 squares.
#pragma once

#include <cstdint>

#include "rules/common/key128.h"

namespace spock {

// The version of the packing above, for keys saved to files; bump it with any change.
inline constexpr std::uint32_t kKeyFormat = 1;

using Key = common::Key;
using Key128 = common::Key128;

}  // namespace spock
