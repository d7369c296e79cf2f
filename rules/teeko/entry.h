// Teeko's registry entry (rules/game_entry.h, listed in rules/registry.h). Every variant
// ("teeko", "teeko:advanced", "teeko:NxN[:advanced]", variant.h) is a whole variant: its tables
// hold everything reachable from the empty board, in the loopy tier space of
// rules/teeko/solve/tier_space.h (tablebase/LOOPY.md), a file a tier.
#pragma once

#include <array>
#include <bit>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game_entry.h"
#include "rules/teeko/game.h"
#include "rules/teeko/notation.h"
#include "rules/teeko/variant.h"

namespace teeko {

struct Entry {
  using Game = teeko::Game;

  static constexpr registry::GameInfo info{
      .id = kVariantName,
      .title = "Teeko",
      .variants = "teeko, teeko:advanced, teeko:NxN[:advanced]",
      .example = "teeko:4x4",
      .about =
          "John Scarne's Teeko, four pieces a side dropped then stepped, four in a line or a "
          "square wins, endless play a draw (docs/games/teeko.md); teeko is 5x5, "
          "teeko:advanced adds the corners of larger squares, teeko:NxN an NxN board (N = 4 to 7)",
      .family = registry::ValueFamily::win_draw_loss,
      .commands = registry::kCyclicGameCommands,
      .solvers = registry::kCyclicGameSolvers,
      .tables = {registry::TableFormat::loopy_tiers},
      .views = {registry::View::diagram, registry::View::page},
      .drawing = registry::PageDrawing::lettered_discs,
      .whole_variants = "every variant (everything reachable from the empty board)",
  };

  // The sides by index, as the page and answers name them (the side to move).
  static constexpr std::array<std::string_view, 2> kPlayers = {"black", "red"};

  static bool claims(std::string_view text) { return names_teeko(text); }
  static std::string normalized(std::string_view variant) { return parse_variant(variant).name(); }
  static registry::GameSetup<Game> setup(std::string_view variant,
                                         const std::optional<std::string>& fen) {
    registry::GameSetup<Game> s;
    s.game = std::make_unique<Game>(parse_variant(variant));
    s.position = fen ? teeko::parse_fen(*s.game, *fen) : s.game->start();
    return s;
  }

  static std::string start_fen(std::string_view variant) {
    const Game game(parse_variant(variant));
    return to_fen(game, game.start());
  }

  // --- whole variants: everything reachable from the empty board ---
  static bool has_start(std::string_view) { return true; }
  static std::optional<std::uint64_t> root_count(std::string_view variant) {
    parse_variant(variant);
    return 1;
  }
  static std::unique_ptr<Game> whole_game(std::string_view variant) {
    return std::make_unique<Game>(parse_variant(variant));
  }
  static std::vector<Position> roots(std::string_view variant) {
    return {Game(parse_variant(variant)).start()};
  }

  static std::string variant_name(const Game& g) { return g.variant().name(); }
  static std::string fen(const Game& g, const Position& p) { return to_fen(g, p); }
  static Position parse_fen(const Game& g, std::string_view text) {
    return teeko::parse_fen(g, text);
  }
  static std::string move_text(const Game& g, Move m) { return move_name(g, m); }
  static Move parse_move(const Game& g, const Position& p, std::string_view text) {
    return teeko::parse_move(g, p, text);
  }
  static std::string diagram(const Game& g, const Position& p) { return board_diagram(g, p); }
  // The board the explorer page draws: a disc a piece, lettered X for Black (the first side,
  // upper case) and o for Red; no hands (a drop is written as its square, and the page plays it
  // by a click on the empty square).
  static nlohmann::ordered_json position_json(const Game& game, const Position& p) {
    nlohmann::ordered_json j;
    j["width"] = game.size();
    j["height"] = game.size();
    j["side_to_move"] = kPlayers[p.side_to_move];
    nlohmann::ordered_json board = nlohmann::ordered_json::object();
    for (const Color c : {kBlack, kRed})
      for (Bitboard b = p.pieces[c]; b; b &= b - 1)
        board[square_name(game, std::countr_zero(b))] = c == kBlack ? "X" : "o";
    j["board"] = board;
    return j;
  }

  // What moves prints at the end: the side that made the pattern has won.
  static std::string end_text(const Game& g, const Position& p) {
    return g.lost_already(p)
               ? std::string(color_name(opposite(p.side_to_move))) + " made four and wins"
               : std::string(color_name(p.side_to_move)) + " cannot move and loses";
  }
};

}  // namespace teeko
