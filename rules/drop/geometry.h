// Drop 16's board: the shared geometry of a WxH grid of squares (leaps, rays, symmetries).
#pragma once

#include "rules/common/board_geometry.h"
#include "rules/drop/bitboard.h"

namespace drop {

using common::Direction;
using common::is_positive;
using common::kDirections;
using common::Symmetry;
using Geometry = common::BoardGeometry;
using enum common::Direction;

}  // namespace drop
