// Which game a --variant names: the one place in the tree that maps a name on the command line to
// a rule set (DESIGN.md). Commands that serve every game are templates over the game and call
// with_game; the text forms below are overloads, one per game, so those templates stay generic.
//   --variant spock   Spock (games/SPOCK.md); the board (3x3 to 8x8) is the one --fen gives,
//                     by default the 5x5 start
//   --variant spock:WxH:BLUE/red   a row of Spock's ladder (rules/spock/material.h): every
//                     placement of those pieces; solve solves them all, other commands need --fen
//   anything else     a member of the Drop 16 family (rules/drop/variant.h)
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "app/command.h"
#include "rules/drop/notation.h"
#include "rules/spock/notation.h"

namespace app {

inline constexpr std::string_view kSpockVariant = "spock";

inline bool names_spock(std::string_view variant) {
  return variant.substr(0, kSpockVariant.size()) == kSpockVariant &&
         (variant.size() == kSpockVariant.size() || variant[kSpockVariant.size()] == ':');
}

GameSetup<spock::Game> make_spock_setup(const PositionOptions& o);

// Calls f(GameSetup<G>&) for the game the options name; f returns nothing.
template <typename F>
void with_game(const PositionOptions& o, F&& f) {
  if (names_spock(o.variant)) {
    auto s = make_spock_setup(o);
    std::forward<F>(f)(s);
    return;
  }
  Setup s = make_setup(o);
  std::forward<F>(f)(s);
}

// --- text forms, one overload per game ---
inline std::string variant_name(const drop::Game& g) {
  return g.variant().name();
}
inline std::string variant_name(const spock::Game&) {
  return std::string(kSpockVariant);
}
inline std::string fen_text(const drop::Game& g, const drop::Position& p) {
  return drop::to_fen(g, p);
}
inline std::string fen_text(const spock::Game& g, const spock::Position& p) {
  return spock::to_fen(g, p);
}
inline std::string move_text(const drop::Game& g, drop::Move m) {
  return drop::move_name(g.geometry(), m);
}
inline std::string move_text(const spock::Game& g, spock::Move m) {
  return spock::move_name(g, m);
}
inline drop::Move parse_move_text(const drop::Game& g, const drop::Position& p,
                                  std::string_view text) {
  return drop::parse_move(g, p, text);
}
inline spock::Move parse_move_text(const spock::Game& g, const spock::Position& p,
                                   std::string_view text) {
  return spock::parse_move(g, p, text);
}
inline std::string diagram_text(const drop::Game& g, const drop::Position& p) {
  return drop::board_diagram(g, p);
}
inline std::string diagram_text(const spock::Game& g, const spock::Position& p) {
  return spock::board_diagram(g, p);
}

}  // namespace app
