// Which game a variant name names, and its position from an optional FEN: the one place in the tree
// that maps a name to a rule set (DESIGN.md), shared by the front ends (app/games.h for the
// `drop16` command, python/ for the Python module) so that they accept the same names.
//   spock          Spock (games/SPOCK.md); the board (3x3 to 8x8) is the one the FEN gives, by
//                  default the 5x5 start
//   spock:WxH:BLUE/red   a row of Spock's ladder (rules/spock/material.h): every placement of
//                  those pieces, so a position of it needs a FEN, on the row's board
//   rookrace, rookrace:NxN:P   the rook race (games/ROOK-RACE.md, rules/rookrace/variant.h): its
//                  start, or the FEN's position, on the variant's board
//   nardy          Royal Nardy (games/ROYAL-NARDY.md), a dice game; the board (24 points, or 12..24
//                  for a shortened one) is the one the FEN gives, by default the start. Its
//                  positions are chance or decision positions, not the alternating games
//                  with_game serves: the front ends that serve it ask names_nardy and call
//                  nardy_setup themselves; with_game refuses it with a message
//   anything else  a member of the Drop 16 family (rules/drop/variant.h)
// Bad text throws std::invalid_argument (the rules' ParseError is one) with a one-line message.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/variant.h"
#include "rules/nardy/game.h"
#include "rules/nardy/notation.h"
#include "rules/rookrace/game.h"
#include "rules/rookrace/notation.h"
#include "rules/rookrace/variant.h"
#include "rules/spock/game.h"
#include "rules/spock/material.h"
#include "rules/spock/notation.h"

namespace games {

inline constexpr std::string_view kSpockVariant = "spock";

inline bool names_spock(std::string_view variant) {
  return variant.substr(0, kSpockVariant.size()) == kSpockVariant &&
         (variant.size() == kSpockVariant.size() || variant[kSpockVariant.size()] == ':');
}

inline constexpr std::string_view kNardyVariant = "nardy";

inline bool names_nardy(std::string_view variant) {
  return variant == kNardyVariant;
}

using rookrace::names_rookrace;

// A game and a position of it. The game is on the heap so that the position's users can keep a
// reference to it while the setup moves.
template <typename G>
struct GameSetup {
  std::unique_ptr<G> game;
  typename G::Position position;
};

inline GameSetup<drop::Game> drop_setup(std::string_view variant,
                                        const std::optional<std::string>& fen) {
  GameSetup<drop::Game> s;
  s.game = std::make_unique<drop::Game>(drop::parse_variant(variant));
  s.position = fen ? drop::parse_fen(*s.game, *fen) : s.game->start();
  return s;
}

// A ladder row's board: positions of other boards are not in its table, even when their keys
// happen to be (keys pack squares by index, whatever the board).
inline void check_spock_board(const spock::Material& m, const spock::Game& game) {
  if (game.width() != m.width || game.height() != m.height)
    throw std::invalid_argument("--fen: a " + std::to_string(game.width()) + "x" +
                                std::to_string(game.height()) + " board, not " + m.name() + "'s");
}

inline GameSetup<spock::Game> spock_setup(std::string_view variant,
                                          const std::optional<std::string>& fen) {
  if (variant != kSpockVariant) {  // a ladder row: its positions are on its board
    const spock::Material m = spock::parse_material(variant);
    if (!fen)
      throw std::invalid_argument("--variant " + std::string(variant) +
                                  " names every placement of its pieces; give one with --fen");
    spock::Setup parsed = spock::parse_fen(*fen);
    check_spock_board(m, parsed.game);
    return {std::make_unique<spock::Game>(parsed.game), parsed.position};
  }
  spock::Setup parsed = spock::parse_fen(fen ? *fen : spock::start_fen());
  return {std::make_unique<spock::Game>(parsed.game), parsed.position};
}

inline GameSetup<nardy::Game> nardy_setup(const std::optional<std::string>& fen) {
  nardy::Setup parsed = nardy::parse_fen(fen ? *fen : nardy::start_fen());
  return {std::make_unique<nardy::Game>(parsed.game), parsed.position};
}

inline GameSetup<rookrace::Game> rookrace_setup(std::string_view variant,
                                                const std::optional<std::string>& fen) {
  GameSetup<rookrace::Game> s;
  s.game = std::make_unique<rookrace::Game>(rookrace::parse_variant(variant));
  s.position = fen ? rookrace::parse_fen(*s.game, *fen) : s.game->start();
  return s;
}

// Calls f(GameSetup<G>&) for the game the variant names; f returns nothing. Royal Nardy is not
// one of these games (see above).
template <typename F>
void with_game(std::string_view variant, const std::optional<std::string>& fen, F&& f) {
  if (names_nardy(variant))
    throw std::invalid_argument(
        "Royal Nardy (--variant nardy) is a dice game: the moves and show commands serve it");
  if (names_rookrace(variant)) {
    auto s = rookrace_setup(variant, fen);
    std::forward<F>(f)(s);
    return;
  }
  if (names_spock(variant)) {
    auto s = spock_setup(variant, fen);
    std::forward<F>(f)(s);
    return;
  }
  auto s = drop_setup(variant, fen);
  std::forward<F>(f)(s);
}

// --- text forms, one overload per game, so that code over any game stays generic ---
inline std::string variant_name(const drop::Game& g) {
  return g.variant().name();
}
inline std::string variant_name(const spock::Game&) {
  return std::string(kSpockVariant);
}
inline std::string variant_name(const rookrace::Game& g) {
  return g.variant().name();
}
inline std::string fen_text(const drop::Game& g, const drop::Position& p) {
  return drop::to_fen(g, p);
}
inline std::string fen_text(const spock::Game& g, const spock::Position& p) {
  return spock::to_fen(g, p);
}
inline std::string fen_text(const rookrace::Game& g, const rookrace::Position& p) {
  return rookrace::to_fen(g, p);
}
inline std::string move_text(const drop::Game& g, drop::Move m) {
  return drop::move_name(g.geometry(), m);
}
inline std::string move_text(const spock::Game& g, spock::Move m) {
  return spock::move_name(g, m);
}
inline std::string move_text(const rookrace::Game& g, rookrace::Move m) {
  return rookrace::move_name(g, m);
}
inline drop::Move parse_move_text(const drop::Game& g, const drop::Position& p,
                                  std::string_view text) {
  return drop::parse_move(g, p, text);
}
inline spock::Move parse_move_text(const spock::Game& g, const spock::Position& p,
                                   std::string_view text) {
  return spock::parse_move(g, p, text);
}
inline rookrace::Move parse_move_text(const rookrace::Game& g, const rookrace::Position& p,
                                      std::string_view text) {
  return rookrace::parse_move(g, p, text);
}
inline std::string diagram_text(const drop::Game& g, const drop::Position& p) {
  return drop::board_diagram(g, p);
}
inline std::string diagram_text(const spock::Game& g, const spock::Position& p) {
  return spock::board_diagram(g, p);
}
inline std::string diagram_text(const rookrace::Game& g, const rookrace::Position& p) {
  return rookrace::board_diagram(g, p);
}

}  // namespace games
