// drop16 moves / show for Royal Nardy: a position with its dice rolled lists its plays (each with
// the position it leads to); one still to roll lists the 21 rolls with their weights and play
// counts. --roll sets the dice, replacing the FEN's.
#pragma once

#include <optional>
#include <string>

#include "app/command.h"
#include "app/games.h"

namespace app {

void print_nardy_moves(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll,
                       bool json);
void print_nardy_show(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll, bool json);

}  // namespace app
