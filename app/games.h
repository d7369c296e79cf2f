// Which game a --variant names, for the `drop16` commands: rules/game_by_name.h maps the names (it
// is shared with the Python module); here are the command's setups and the text forms, overloads
// one per game, so that commands serving every game are templates over the game calling
// with_game.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "app/command.h"
#include "rules/game_by_name.h"

namespace app {

using games::kNardyVariant;
using games::kSpockVariant;
using games::names_nardy;
using games::names_spock;

GameSetup<spock::Game> make_spock_setup(const PositionOptions& o);

// Calls f(GameSetup<G>&) for the game the options name; f returns nothing. `command` names the
// caller in the message refusing Royal Nardy, which it does not serve.
template <typename F>
void with_game(const PositionOptions& o, std::string_view command, F&& f) {
  if (names_nardy(o.variant))
    throw UsageError(std::string(command) + " serves the games without dice; " +
                     game_commands(o.variant));
  games::with_game(o.variant, o.fen, std::forward<F>(f));
}

using games::diagram_text;
using games::fen_text;
using games::move_text;
using games::parse_move_text;
using games::variant_name;

}  // namespace app
