// Text forms of Spock positions and moves (shared/games/SPOCK.md):
//   FEN   "psksp/rrrrr/5/RRRRR/PSKSP w"  (ranks from the top, Blue upper case, side 'w' or 'b');
//         the board's size is the FEN's own, 3..8 files and ranks, and nothing may follow the side
//   move  "c1b3"  (origin and target; a Spock move's transformation is implied)
// Parsers throw ParseError with a message that names the fault and where it is.
#pragma once

#include <string>
#include <string_view>

#include "rules/spock/game.h"
#include "rules/spock/parse_error.h"

namespace spock {

// A game on the FEN's board, and the position on it.
struct Setup {
  Game game;
  Position position;
};

// Refuses, besides malformed text, a position whose side NOT to move has no Spock: that side lost
// on the move before, so play had ended and the position cannot be reached. A side to move
// without a Spock is accepted: it is a lost (terminal) position, reached by taking its last Spock.
Setup parse_fen(std::string_view fen);
std::string to_fen(const Game& game, const Position& p);
// The standard 5x5 start.
std::string start_fen();

std::string square_name(const Game& game, int sq);
std::string move_name(const Game& game, Move m);
// Parses a move and checks that it is legal in p.
Move parse_move(const Game& game, const Position& p, std::string_view text);

// The position as a board diagram, top rank first, for people.
std::string board_diagram(const Game& game, const Position& p);

}  // namespace spock
