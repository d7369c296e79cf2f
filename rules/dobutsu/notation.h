// Text forms of Dobutsu shogi positions and moves (shared/games/DOBUTSU.md):
//   FEN   "gle/1c1/1C1/ELG[] w": the ranks from 4 down to 1 separated by '/', digits for runs of
//         empty squares, L G E C H for Sente's Lion, Giraffe, Elephant, Chick and Hen, lower case
//         for Gote's; the hands in brackets right after the board ("[CGe]": Sente holds a Chick
//         and a Giraffe, Gote an Elephant; "[]" when both are empty); then the side to move, 'w'
//         (Sente) or 'b' (Gote). Fields are separated by white space; nothing may follow.
//   moves "b2b3" (a step; a Chick's promotion is implied), "C@a3" (a drop; the letter in either
//         case)
// Parsers throw ParseError with a message that names the fault and where it is.
#pragma once

#include <string>
#include <string_view>

#include "rules/dobutsu/game.h"
#include "rules/dobutsu/parse_error.h"

namespace dobutsu {

// Refuses, besides malformed text, anything but the game's eight pieces (one Lion a side on the
// board, two each of Giraffes, Elephants and Chicks, a Hen counting as a Chick, on the board or in
// hand; a Hen or a Lion in hand). The side to move's Lion may be missing: it was caught, the game
// is over.
Position parse_fen(const Game& game, std::string_view fen);
std::string to_fen(const Game& game, const Position& p);

std::string square_name(int sq);
std::string move_name(const Game& game, Move m);
// Parses a move and checks that it is legal in p.
Move parse_move(const Game& game, const Position& p, std::string_view text);

// The position as a board diagram, rank 4 first, with the hands and the side to move.
std::string board_diagram(const Game& game, const Position& p);

// A piece's letter: upper case for Sente, lower case for Gote.
char piece_letter(Cell cell);

}  // namespace dobutsu
