// Which game a --variant names, for the drop16 commands: the registry (rules/registry.h) finds the
// game's entry, and a command runs as a template over the entry, compiled only for the games that
// declare the command (so no game's code is asked what it cannot do, and Drop 16's perft and tier
// solve run with no dispatch inside their loops). A game that lacks the command is refused with
// one line naming the game and what it supports (exit status 2).
#pragma once

#include <concepts>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "app/command.h"
#include "rules/registry.h"

namespace app {

using registry::GameSetup;

// Throws UsageError: "solve serves Drop 16, ...; Royal Nardy (--variant nardy) has moves, show,
// ... and nardy-match" (refusal), `variant` as the user typed it.
[[noreturn]] void refuse_command(registry::Command c, const registry::GameInfo& game,
                                 std::string_view variant);

// Calls f(E{}) for the entry of the game the variant names, if it declares command C and meets
// every option of cmd given (check_options).
template <registry::Command C, typename F>
void with_entry(const CLI::App& cmd, std::string_view variant, F&& f) {
  registry::visit(variant, [&](auto e) {
    if constexpr (decltype(e)::info.commands.has(C)) {
      check_options(cmd, decltype(e)::info);
      f(e);
    } else {
      refuse_command(C, decltype(e)::info, variant);
    }
  });
}

// Calls f(E{}, GameSetup<E::Game>&) with the game and position the options name, as with_entry.
template <registry::Command C, typename F>
void with_game(const CLI::App& cmd, const PositionOptions& o, F&& f) {
  with_entry<C>(cmd, o.variant, [&](auto e) {
    auto s = decltype(e)::setup(o.variant, o.fen);
    f(e, s);
  });
}

// Calls f(E{}) for the game the variant names, which the caller's dispatch has found to have the
// capability (a Solver, TableFormat, View or Command of rules/game_entry.h): a game without it is
// a logic error here. This is how a family's commands, each in its own file (cmd_solve_cyclic.cpp,
// cmd_solve_coalitions.cpp, ...), take the entry the caller found: handing the entry's type across
// files would need every game to instantiate its families' commands in its own folder (as tier
// tables' are specialized, table_commands.h) or every family compiled into the caller's file, so
// the variant's text goes and is looked up again.
template <auto Capability, typename F>
void with_capability(std::string_view variant, F&& f) {
  registry::visit(variant, [&](auto e) {
    if constexpr (decltype(e)::info.has(Capability))
      f(e);
    else
      throw std::logic_error(std::string(decltype(e)::info.title) + " lacks what was asked of it");
  });
}

// For a game's own command `cmd` (GameCommand), written for E's rules: the setup of the game and
// position the options name, after check_options; the variant of any other game refused naming
// what that game has.
template <typename E>
GameSetup<typename E::Game> own_setup(const CLI::App& cmd, const PositionOptions& o) {
  GameSetup<typename E::Game> out;
  registry::visit(o.variant, [&](auto e) {
    if constexpr (std::same_as<decltype(e), E>) {
      check_options(cmd, E::info);
      out = E::setup(o.variant, o.fen);
    } else {
      throw UsageError(app::refusal(cmd.get_name(), E::info, decltype(e)::info, o.variant));
    }
  });
  return out;
}

}  // namespace app
