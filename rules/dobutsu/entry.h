// Dobutsu shogi's registry entry (rules/game_entry.h, listed in rules/registry.h). Its one variant
// ("dobutsu") is whole: its tables hold everything reachable from the start, in the loopy tier
// space of rules/dobutsu/solve/tier_space.h (tablebase/LOOPY.md), solved holding only what play
// reaches (tablebase/loopy_compact.h).
#pragma once

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/dobutsu/game.h"
#include "rules/dobutsu/notation.h"
#include "rules/dobutsu/variant.h"
#include "rules/game_entry.h"

namespace dobutsu {

struct Entry {
  using Game = dobutsu::Game;

  static constexpr registry::GameInfo info{
      .id = kVariantName,
      .title = "Dobutsu shogi",
      .variants = "dobutsu",
      .example = "dobutsu",
      .about =
          "Dobutsu shogi (Let's Catch the Lion!), 3x4, lions, giraffes, elephants and chicks, "
          "captures to hand and drops, a Lion caught or a Lion's try ends the game, endless play "
          "a draw (docs/games/dobutsu.md)",
      .family = registry::ValueFamily::win_draw_loss,
      .commands = registry::kCyclicGameCommands,
      .solvers = registry::kCyclicGameSolvers,
      .tables = {registry::TableFormat::loopy_tiers},
      .views = {registry::View::diagram, registry::View::page},
      .drawing = registry::PageDrawing::lettered_discs,
      .whole_variants = "dobutsu (everything reachable from the start)",
  };

  // The sides by index, as the page and answers name them (the side to move).
  static constexpr std::array<std::string_view, 2> kPlayers = {"sente", "gote"};

  static bool claims(std::string_view text) { return names_dobutsu(text); }
  static std::string normalized(std::string_view variant) { return parse_variant(variant).name(); }
  static registry::GameSetup<Game> setup(std::string_view variant,
                                         const std::optional<std::string>& fen) {
    registry::GameSetup<Game> s;
    s.game = std::make_unique<Game>(parse_variant(variant));
    s.position = fen ? dobutsu::parse_fen(*s.game, *fen) : s.game->start();
    return s;
  }

  static std::string start_fen(std::string_view variant) {
    const Game game(parse_variant(variant));
    return to_fen(game, game.start());
  }

  // --- whole variants: everything reachable from the start ---
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
    return dobutsu::parse_fen(g, text);
  }
  static std::string move_text(const Game& g, Move m) { return move_name(g, m); }
  static Move parse_move(const Game& g, const Position& p, std::string_view text) {
    return dobutsu::parse_move(g, p, text);
  }
  static std::string diagram(const Game& g, const Position& p) { return board_diagram(g, p); }
  // The board the explorer page draws: a disc a piece, lettered (Sente upper case), and each
  // side's hand (drops written "C@a3").
  static nlohmann::ordered_json position_json(const Game&, const Position& p) {
    nlohmann::ordered_json j;
    j["width"] = kFiles;
    j["height"] = kRanks;
    j["side_to_move"] = kPlayers[p.side_to_move];
    nlohmann::ordered_json board = nlohmann::ordered_json::object();
    for (int sq = 0; sq < kSquares; ++sq)
      if (p.cell(sq) != kEmpty) board[square_name(sq)] = std::string(1, piece_letter(p.cell(sq)));
    j["board"] = board;
    nlohmann::ordered_json hands = nlohmann::ordered_json::object();
    for (const Color c : {kSente, kGote}) {
      nlohmann::ordered_json hand = nlohmann::ordered_json::object();
      for (int k = 0; k < kHandKinds; ++k)
        if (p.hand[c][k])
          hand[std::string(1, piece_letter(cell_of(kSente, Kind(k))))] = p.hand[c][k];
      hands[std::string(kPlayers[c])] = hand;
    }
    j["hands"] = hands;
    return j;
  }

  // What moves prints at the end.
  static std::string end_text(const Game& g, const Position& p) {
    const Color mover = p.side_to_move, other = opposite(mover);
    if (p.lion(mover) < 0) return std::string(color_name(other)) + " caught the Lion and wins";
    if (g.is_try(p)) return std::string(color_name(other)) + "'s Lion made its try and wins";
    return std::string(color_name(mover)) + " cannot move and loses";
  }
};

}  // namespace dobutsu
