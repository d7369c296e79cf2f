// Text forms of Royal Nardy positions, rolls and plays.
//
// Position ("FEN"): six fields separated by spaces,
//   POINTS BAR OFF EATEN SIDE ROLL
//   POINTS  the board's points in White's numbering, point 1 first (White's home is 1..6 and it
//           moves down towards 1; Black's home is the last six and it moves up), separated by
//           '/': '.' for an empty point, else counts and letters of one side, plain then royal,
//           P and R for White, p and r for Black, a count of 1 left out ("3P", "R", "2Pr" is
//           not allowed: one side a point). 24 points, or 12..24 for a shortened board.
//   BAR     "W/B": White's and Black's plain checkers on the bar
//   OFF     "W/B": checkers borne off, of either kind
//   EATEN   "W/B": royal checkers each side has lost; a side has 7 - eaten royal checkers
//   SIDE    'w' or 'b', the side to move
//   ROLL    '-' before the roll (a chance position), else the dice "6-5", higher first
// The start (games/ROYAL-NARDY.md: from each side's view 2 royal on its 24-point, 5 royal on its
// 13-point, 3 plain on its 8-point, 5 plain on its 6-point), White to roll:
//   2r/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R 0/0 0/0 0/0 w -
// Each side has at most 8 plain and 7 royal checkers (eaten ones count), 15 in all with the
// borne-off ones; a side to move has checkers left unless some of its royal ones were eaten (its
// last checkers eaten on the opponent's play: the game's end, ROYAL-NARDY.md); a terminal
// position has no roll.
//
// Roll: "6-5" (either order on input).
// Play: the steps in the mover's own numbering, separated by spaces, "13/7 8/5*": from (a point
// or "bar") '/' to (a point or "off"), an 'R' before a royal checker's step ("R13/7"), '*' after
// a step that hits (optional on input: the hit is implied); "pass" when nothing can be played.
// A play is the position it leads to, so any sequence of steps reaching a legal play's position
// names that play; the name printed is the first sequence the generator found.
// Parsers throw ParseError with a one-line message that says what and where.
#pragma once

#include <string>
#include <string_view>

#include "rules/nardy/game.h"
#include "rules/nardy/parse_error.h"

namespace nardy {

struct Setup {
  Game game;
  Position position;
};

Setup parse_fen(std::string_view fen);
std::string to_fen(const Game& game, const Position& p);
std::string start_fen();

Roll parse_roll(std::string_view text);
std::string roll_text(Roll r);

std::string move_name(const Move& m);
// A legal play of p (whose dice are rolled), from its name.
Move parse_move(const Game& game, const Position& p, std::string_view text);

// A finished game's points for people: "the game is over: White 2, Black -2".
std::string end_text(const Game& game, const Position& p);

// The board for people: the far half on top, as backgammon boards are drawn from White's side;
// its last line says who is to roll or play, or the points of a finished game (end_text).
std::string board_diagram(const Game& game, const Position& p);

}  // namespace nardy
