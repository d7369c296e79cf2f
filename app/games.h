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

// Throws UsageError: "prove serves Drop 16 only; Spock (--variant spock) has perft, distinct,
// ... and serve" (registry::refusal), `variant` as the user typed it.
[[noreturn]] void refuse_command(registry::Command c, const registry::GameInfo& game,
                                 std::string_view variant);

// The default --variant of a command that only some games have: the first such game's.
inline std::string default_variant_for(registry::Command c) {
  for (const registry::GameInfo& g : registry::kGames)
    if (g.commands.has(c)) return std::string(g.id);
  return registry::default_variant();
}

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
// a logic error here.
template <auto Capability, typename F>
void with_capability(std::string_view variant, F&& f) {
  registry::visit(variant, [&](auto e) {
    if constexpr (decltype(e)::info.has(Capability))
      f(e);
    else
      throw std::logic_error(std::string(decltype(e)::info.title) + " lacks what was asked of it");
  });
}

// For the commands whose code is written for one game's rules (prove, claims and cluster-plan
// read Drop 16's tier space; bearoff and endgame Royal Nardy's databases): the setup, the games
// that declare C refused otherwise. That only a game with rules G declares C is checked when this
// is compiled.
template <registry::Command C, typename G>
GameSetup<G> setup_of(const CLI::App& cmd, const PositionOptions& o) {
  GameSetup<G> out;
  with_entry<C>(cmd, o.variant, [&](auto e) {
    static_assert(std::same_as<typename decltype(e)::Game, G>,
                  "a game declares a command whose code serves another game's rules");
    out = decltype(e)::setup(o.variant, o.fen);
  });
  return out;
}
// The same for a command without options that only some games have.
template <registry::Command C, typename G>
GameSetup<G> setup_of(const PositionOptions& o) {
  return setup_of<C, G>(CLI::App(), o);
}

}  // namespace app
