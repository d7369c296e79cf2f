// drop16 query for a game its dice player answers (registry::Solver::dice_player: Royal Nardy),
// and serve's /api/analyze for one: a rolled position, its dice and its best play with the
// expected points (exact for small plain races and finished games, the player's search otherwise,
// and the answer says which); a finished game gets its points. Needs no --tables.
//
// Declared here for the front ends, for the entry E of a game with the dice player, and defined by
// that game as specializations for its entry (Royal Nardy's rules/nardy/commands/query.cpp), so no
// front end names that game and a game declaring the player without them fails to link.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/command.h"

namespace app {

struct DicePlayerOptions {
  std::optional<std::string> roll;  // replaces the FEN's dice
  std::string db;                   // bear-off database file for the player's leaves
  int checkers = 0;                 // or build one of this many checkers in memory
  int depth = 1;                    // the player's own plies
};

// --roll, --db, --checkers, --depth: refused for games without the dice player.
void add_dice_player_options(CLI::App& cmd, DicePlayerOptions& o);
template <typename E>
void run_dice_player_query(const PositionOptions& position, const DicePlayerOptions& o);

// The answer as JSON (what `query --json` prints, and `serve`'s /api/analyze returns): variant,
// fen, board, side, terminal, roll, best_play, expected_points, exact, source and every play's
// value; at the game's end (no roll) terminal is true and points the game's score instead. The
// player searches `depth` plies, with no database. Bad input throws std::invalid_argument
// (ParseError, UsageError).
template <typename E>
nlohmann::ordered_json dice_player_json(const std::string& variant,
                                        const std::optional<std::string>& fen,
                                        const std::optional<std::string>& roll, int depth);

}  // namespace app
