// Text forms of positions and moves, exactly as RULES.md gives them:
//   FEN   "4/4/4/4[NNBBRRQKnnbbrrqk] w"  (ranks from the top; trailing "- - 0 1" ignored)
//   move  "N@b3" (drop; upper-case letter for either side) or "a1c2" (capture)
// Parsers throw ParseError with a message that names the fault and where it is.
#pragma once

#include <string>
#include <string_view>

#include "rules/drop/game.h"

namespace drop {

std::string square_name(const Geometry& g, int sq);
std::string to_fen(const Game& game, const Position& p);
Position parse_fen(const Game& game, std::string_view fen);

std::string move_name(const Geometry& g, Move m);
// Parses a move and checks that it is legal in p.
Move parse_move(const Game& game, const Position& p, std::string_view text);

// The position as a board diagram with both hands, for people.
std::string board_diagram(const Game& game, const Position& p);

}  // namespace drop
