// Spock's board: the shared geometry of a WxH grid of squares: the knight's leaps, the rays of the
// 8 directions (sliders and the Rock's run over friends), the board's symmetries.
#pragma once

#include "rules/common/board_geometry.h"
#include "rules/spock/bitboard.h"

namespace spock {

using common::Direction;
using common::is_positive;
using common::kDirections;
using common::Symmetry;
using Geometry = common::BoardGeometry;
using enum common::Direction;

}  // namespace spock
