// Text forms of Teeko positions and moves (shared/games/TEEKO.md):
//   FEN   "2X1X/2OO1/2O2/2XOX/5 o": the board, ranks from the top, X for Black's pieces and O for
//         Red's, digits counting empty squares, exactly N ranks of N squares for the variant's N;
//         then the side to move, 'x' (Black) or 'o' (Red). Fields are separated by any white
//         space; nothing may follow the side to move.
//   moves "c3" (a drop), "c3d4" (a step, to an adjacent square)
// Parsers throw ParseError with a message that names the fault and where it is.
#pragma once

#include <string>
#include <string_view>

#include "rules/teeko/game.h"
#include "rules/teeko/parse_error.h"

namespace teeko {

// Refuses, besides malformed text, what no play reaches: more than four pieces a side, counts
// that do not follow the turns (while fewer than eight pieces stand, Black to move has as many
// pieces as Red and Red to move one fewer than Black), and the side to move standing in a pattern
// (it won on its own move: play had ended). The other side in a pattern is accepted: the side to
// move has lost (game.h).
Position parse_fen(const Game& game, std::string_view fen);
std::string to_fen(const Game& game, const Position& p);

std::string square_name(const Game& game, int sq);
std::string move_name(const Game& game, Move m);
// Parses a move and checks that it is legal in p.
Move parse_move(const Game& game, const Position& p, std::string_view text);

// The position as a board diagram, top rank first, with the pieces in hand and the side to move.
std::string board_diagram(const Game& game, const Position& p);

}  // namespace teeko
