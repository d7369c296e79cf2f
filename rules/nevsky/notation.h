// Text forms of Nevsky positions and moves (shared/games/NEVSKY.md):
//   position  "wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg w" (the rule book's position string, called FEN
//             here as in the other games): the grid's N rows from the top (row N first), each
//             of N cells left to right, w r g b for White's, Red's, Green's and Black's men and
//             W R G B for their kings, a digit 1-8 for a run of empty cells (never two digits in
//             a row); then, after whitespace, the player to move as w, r, g or b.
//   cells     "cr": column c and row r, from 1 at the bottom left ("61" is the bottom-right corner)
//   moves     "16-26" for a step (a king's slide of several cells too), "25:45:65" for a capture:
//             the start cell, then each cell the piece lands on, one for each checker it takes.
// A position text is read as NEVSKY.md says: the named player's turn comes, so when that player
// has no checkers, or no legal move, the leaving rule is applied from it (Game::give_turn) and the
// position is the one after it. Printing gives the settled position's player to move, so every
// printed text reads back as the same position; a finished game prints the first player holding
// checkers clockwise from the one the turn was passing to.
// A capture may be written by any of its routes; it is printed by one, the least as text (the
// routes of one move all land the same number of times, so this is the least cell, by column
// then row, at the first landing where they differ).
// Parsers throw ParseError with one line that says what is wrong and what is accepted.
#pragma once

#include <string>
#include <string_view>

#include "rules/nevsky/game.h"
#include "rules/nevsky/parse_error.h"

namespace nevsky {

// Refuses, besides malformed text, what no play of the variant reaches: no checker on the board,
// more checkers of a player than the variant's M, a man on its own goal corner (a man that ends a
// move there is crowned).
Position parse_fen(const Game& game, std::string_view fen);
std::string to_fen(const Game& game, const Position& p);

std::string cell_name(const Game& game, int cell);
// The move as text; p is the position it is played from (a capture's route is found on it).
std::string move_name(const Game& game, const Position& p, Move m);
// A legal move of p from its text, by any of its routes.
Move parse_move(const Game& game, const Position& p, std::string_view text);

// The position for people: the grid, top row first, with cell coordinates, the player to move,
// who is out, and the result when the game is over.
std::string board_diagram(const Game& game, const Position& p);
// Who won a finished game: "Red wins", or in pair play "White and Green win".
std::string winners_text(const Game& game, const Position& p);

}  // namespace nevsky
