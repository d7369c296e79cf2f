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

void print_nardy_moves(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll,
                       bool json);
void print_nardy_show(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll, bool json);

}  // namespace app
