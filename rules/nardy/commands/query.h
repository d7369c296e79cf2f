// drop16 query for a dice game (registry entries with the dice player: Royal Nardy), and serve's
// /api/analyze for one: a rolled position, its dice and its best play with the expected points
// (rules/nardy/solve/advice.h: exact for small plain races and finished games, the player's search
// otherwise, and the answer says which); a finished game gets its points. Needs no --tables.
#pragma once

#include <optional>
#include <string>

#include "app/command.h"
#include "rules/nardy/solve/bearoff.h"

namespace app {

struct NardyQueryOptions {
  std::optional<std::string> roll;  // replaces the FEN's dice
  std::string db;                   // bear-off database file for the player's leaves
  int checkers = 0;                 // or build one of this many checkers in memory
  int depth = 1;                    // the player's own plies
};

// --roll, --db, --checkers, --depth: refused for games without the dice player.
void add_nardy_query_options(CLI::App& cmd, NardyQueryOptions& o);
void run_nardy_query(const PositionOptions& position, const NardyQueryOptions& o);

// The answer as JSON (what `query --json` prints and `serve`'s /api/analyze returns for a dice
// game): variant, fen, board, side, terminal, roll, best_play, expected_points, exact, source and
// every play's value; at the game's end (no roll) terminal is true and points the game's score
// instead; db may be null. Bad input throws std::invalid_argument (ParseError, UsageError).
nlohmann::ordered_json nardy_query_json(const std::string& variant,
                                        const std::optional<std::string>& fen,
                                        const std::optional<std::string>& roll,
                                        const tablebase::nardy_bearoff::OneSided* db, int depth);

}  // namespace app
