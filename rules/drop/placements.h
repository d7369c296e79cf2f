// Drops-only play described combinatorially, for counting instead of searching. After k plies of
// drops only, White has dropped ceil(k/2) pieces and Black floor(k/2): a position is a choice of
// which pieces each side dropped plus a colouring of the squares by those pieces (and empties).
// Every such colouring is reachable: each side drops its pieces onto its squares in any order,
// and a drop is always legal while the mover has a piece in hand and an empty square exists.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rules/drop/geometry.h"
#include "rules/drop/position.h"
#include "rules/drop/variant.h"

namespace drop {

// The last ply that drops-only play reaches: every ply needs a piece in the mover's hand and an
// empty square. On Drop 16 it is 16, with the board full and both hands empty.
int last_drop_ply(const Variant& v);

struct DroppedPieces {
  Hand white{}, black{};
};
// Every pair (part of White's hand, part of Black's) that `ply` plies of drops only can have put on
// the board; empty beyond last_drop_ply.
std::vector<DroppedPieces> dropped_after(const Variant& v, int ply);

// Colours of a square in a drops-only position: 0 empty, 1 + t for White's type t, 6 + t Black's.
inline constexpr int kSquareColours = 1 + 2 * kPieceTypes;
inline int square_colour(Piece p) {
  return 1 + p.type + kPieceTypes * p.color;
}
// How many squares have each colour, given what was dropped.
std::vector<int> colour_multiplicities(const Variant& v, const DroppedPieces& d);
// The position after these drops with square sq coloured colours[sq], its side to move the one
// whose turn it is after that many plies.
Position position_from_colours(const Variant& v, const DroppedPieces& d,
                               std::span<const int> colours);

// The board's symmetries as permutations of the squares (image[square]), identity first.
std::vector<std::vector<int>> square_permutations(const Geometry& g);

// The captures a piece of type t on square sq has when every square is occupied: the nearest
// square in each of its directions, or each of its leaps, that is on the board. It depends on type
// and square alone, which makes the capture count of a full board a sum over its squares.
int captures_on_full_board(const Geometry& g, PieceType t, int sq);
// weight[square][colour]: captures_on_full_board of the mover's pieces, 0 for the other colours.
std::vector<std::vector<std::uint32_t>> full_board_capture_weights(const Geometry& g, Color mover);

}  // namespace drop
