// Royal Nardy's registry entry (rules/game_entry.h, listed in rules/registry.h): one variant,
// "nardy", on the board the FEN gives (24 points, or 12 to 24 for a shortened one), by default the
// start. A dice game: a position still to roll is a chance position whose outcomes are the rolls,
// written "6-5".
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "rules/common/text.h"
#include "rules/game_entry.h"
#include "rules/nardy/game.h"
#include "rules/nardy/notation.h"

namespace nardy {

struct Entry {
  using Game = nardy::Game;

  static constexpr std::string_view kName = "nardy";

  static constexpr registry::GameInfo info{
      .id = kName,
      .title = "Royal Nardy",
      .variants = "nardy",
      .example = "nardy",
      .about =
          "short nardy with 7 royal checkers a side, a dice game scored in points "
          "(docs/games/nardy.md); the board is the FEN's, 24 points or 12 to 24 "
          "for a shortened one",
      .family = registry::ValueFamily::points,
      .commands = {registry::Command::moves, registry::Command::show, registry::Command::query,
                   registry::Command::serve},
      .solvers = {registry::Solver::dice_player, registry::Solver::value_iteration,
                  registry::Solver::race_database},
      .tables = {registry::TableFormat::bearoff},
      .views = {registry::View::diagram, registry::View::page},
      .drawing = registry::PageDrawing::points_and_dice,
      .dice = true,
  };
  // The players, by index, as answers name them ("points": {"white": 2, "black": -2}).
  static constexpr std::array<std::string_view, 2> kPlayers = {"white", "black"};

  static bool claims(std::string_view text) { return common::names_game(text, kName); }
  static std::string normalized(std::string_view variant) {
    if (variant != kName)
      throw ParseError("variant '" + std::string(variant) + "': Royal Nardy has one, 'nardy'");
    return std::string(kName);
  }
  static registry::GameSetup<Game> setup(std::string_view variant,
                                         const std::optional<std::string>& fen) {
    normalized(variant);
    Setup parsed = nardy::parse_fen(fen ? *fen : nardy::start_fen());
    return {std::make_unique<Game>(parsed.game), parsed.position};
  }
  static std::string start_fen(std::string_view) { return nardy::start_fen(); }

  static std::string variant_name(const Game&) { return std::string(kName); }
  static std::string fen(const Game& g, const Position& p) { return to_fen(g, p); }
  // A position of this game's board (the FEN's must have as many points).
  static Position parse_fen(const Game& g, std::string_view text) {
    const Setup parsed = nardy::parse_fen(text);
    if (parsed.game.points() != g.points())
      throw ParseError("FEN: a board of " + std::to_string(parsed.game.points()) + " points, not " +
                       std::to_string(g.points()));
    return parsed.position;
  }
  static std::string move_text(const Game&, const Move& m) { return move_name(m); }
  static Move parse_move(const Game& g, const Position& p, std::string_view text) {
    return nardy::parse_move(g, p, text);
  }
  static std::string diagram(const Game& g, const Position& p) { return board_diagram(g, p); }

  // --- chance: the roll ---
  static std::string chance_text(Roll r) { return roll_text(r); }
  static Roll parse_chance(std::string_view text) { return parse_roll(text); }
  // The roll a decision position was rolled with; none at a chance or terminal position.
  static std::optional<Roll> rolled(const Position& p) {
    return p.dice.rolled() ? std::optional(p.dice) : std::nullopt;
  }
  // The position with these dice instead of its own (a position not over).
  static Position with_roll(Position p, Roll r) {
    p.dice = r;
    return p;
  }
};

}  // namespace nardy
