// drop16 moves / show for Royal Nardy: a position with its dice rolled lists its plays (each with
// the position it leads to); one still to roll lists the 21 rolls with their weights and play
// counts; a finished game says so with its points. --roll sets the dice, replacing the FEN's.
#pragma once

#include <optional>
#include <string>

#include "app/command.h"
#include "app/games.h"

namespace app {

// A finished game's points as JSON, "points": {"white": W, "black": B}.
void add_nardy_points(nlohmann::ordered_json& j, const nardy::Game& game, const nardy::Position& p);
// --roll at a finished game: UsageError saying the game is over, with its points.
void refuse_roll_at_end(const nardy::Game& game, const nardy::Position& p);

// What `moves --variant nardy --json` prints (and serve's /api/moves?variant=nardy answers): the
// FEN (with --roll's dice), terminal, and a finished game's points, or a position still to roll's
// 21 rolls with their weights and play counts, or a rolled position's plays ("moves") with the
// position each leads to ("results"). Bad input throws std::invalid_argument.
nlohmann::ordered_json nardy_moves_json(GameSetup<nardy::Game>& s,
                                        const std::optional<std::string>& roll);
void print_nardy_moves(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll,
                       bool json);
void print_nardy_show(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll, bool json);

}  // namespace app
