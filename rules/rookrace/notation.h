// Text forms of rook race positions and moves (shared/games/ROOK-RACE.md, refined here):
//   FEN   "7r/8/8/8/8/8/8/R7 [8,8] [-,-] w"
//         - the board, ranks from the top, R/r the rooks and P/p the pawns (White upper case),
//           digits 1-8 counting empty squares; exactly N ranks of N squares for the variant's N
//         - the reserves [White,Black], each 0 to the variant's P
//         - the block counters [White,Black]: '-' when the side's last rook move left its block
//           (or it has made none), '1' or '2' when its last one or two rook moves in a row stayed
//           inside the block its rook stands in (position.h: that is the only block they can have
//           been inside, so it is not written); at '2' the rook must leave the block
//         - the side to move, 'w' or 'b'
//         Fields are separated by any whitespace; nothing may follow the side to move.
//   moves "a1a5" (a rook move; taking the mover's own pawn on the target is implied), "P@c3" (a
//         drop; the letter is upper case for either side, as in Drop 16)
// Parsers throw ParseError with a message that names the fault and where it is.
#pragma once

#include <string>
#include <string_view>

#include "rules/rookrace/game.h"
#include "rules/rookrace/parse_error.h"

namespace rookrace {

// Refuses, besides malformed text, what no play of the variant reaches: not one rook a side, two
// pawns of one colour in a block, a pawn on its own side's starting corner (drops there are
// forbidden and pawns never move), more pawns of a side on the board and in reserve than the
// variant's P, and the side to move's rook on its goal (it won on its own move: play had
// ended). The other rook on its goal is accepted: the side to move has lost (game.h).
Position parse_fen(const Game& game, std::string_view fen);
std::string to_fen(const Game& game, const Position& p);

std::string square_name(const Game& game, int sq);
std::string move_name(const Game& game, Move m);
// Parses a move and checks that it is legal in p.
Move parse_move(const Game& game, const Position& p, std::string_view text);

// The position as a board diagram, top rank first, with the reserves, counters and side to move.
std::string board_diagram(const Game& game, const Position& p);

}  // namespace rookrace
