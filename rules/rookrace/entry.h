// The rook race's registry entry (rules/game_entry.h, listed in rules/registry.h). Every variant,
// "rookrace" or "rookrace:NxN:P" (variant.h), is a whole variant: its tables hold everything
// reachable from its start, in the loopy tier space of rules/rookrace/solve/tier_space.h
// (tablebase/LOOPY.md), a file a tier.
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
#include "rules/rookrace/game.h"
#include "rules/rookrace/notation.h"
#include "rules/rookrace/variant.h"

namespace rookrace {

struct Entry {
  using Game = rookrace::Game;

  static constexpr registry::GameInfo info{
      .id = kVariantName,
      .title = "the rook race",
      .variants = "rookrace, rookrace:NxN:P",
      .example = "rookrace:4x4:1",
      .about =
          "two rooks race to each other's corner, pawn drops limited by 2x2 blocks, endless "
          "play is a draw (docs/games/rookrace.md); rookrace is 8x8 with 8 pawns a "
          "side, rookrace:NxN:P an NxN board (N = 2, 4, 6 or 8) with P pawns a side",
      .family = registry::ValueFamily::win_draw_loss,
      .commands = registry::kCyclicGameCommands,
      .solvers = registry::kCyclicGameSolvers,
      .tables = {registry::TableFormat::loopy_tiers},
      .views = {registry::View::diagram, registry::View::page},
      .drawing = registry::PageDrawing::pieces_and_hands,
      .whole_variants = "every variant (everything reachable from its start)",
  };
  // The sides by index, as the page and answers name them (the side to move).
  static constexpr std::array<std::string_view, 2> kPlayers = {"white", "black"};

  static bool claims(std::string_view text) { return names_rookrace(text); }
  static std::string normalized(std::string_view variant) { return parse_variant(variant).name(); }
  static registry::GameSetup<Game> setup(std::string_view variant,
                                         const std::optional<std::string>& fen) {
    registry::GameSetup<Game> s;
    s.game = std::make_unique<Game>(parse_variant(variant));
    s.position = fen ? rookrace::parse_fen(*s.game, *fen) : s.game->start();
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
  // The game a whole variant is played on, and the positions it starts from.
  static std::unique_ptr<Game> whole_game(std::string_view variant) {
    return std::make_unique<Game>(parse_variant(variant));
  }
  static std::vector<Position> roots(std::string_view variant) {
    return {Game(parse_variant(variant)).start()};
  }

  static std::string variant_name(const Game& g) { return g.variant().name(); }
  static std::string fen(const Game& g, const Position& p) { return to_fen(g, p); }
  static Position parse_fen(const Game& g, std::string_view text) {
    return rookrace::parse_fen(g, text);
  }
  static std::string move_text(const Game& g, Move m) { return move_name(g, m); }
  static Move parse_move(const Game& g, const Position& p, std::string_view text) {
    return rookrace::parse_move(g, p, text);
  }
  static std::string diagram(const Game& g, const Position& p) { return board_diagram(g, p); }

  // The board the explorer page draws: rooks and pawns (White upper case), the reserves as hands
  // of pawns (so the page drops them as Drop 16's pieces, "P@c3"), the block counters, the side
  // to move.
  static nlohmann::ordered_json position_json(const Game& game, const Position& p) {
    nlohmann::ordered_json j;
    j["width"] = game.size();
    j["height"] = game.size();
    j["side_to_move"] = p.side_to_move == kWhite ? "white" : "black";
    nlohmann::ordered_json board = nlohmann::ordered_json::object();
    for (const Color c : {kWhite, kBlack}) {
      const bool white = c == kWhite;
      board[square_name(game, p.rook[c])] = white ? "R" : "r";
      for (Bitboard b = p.pawns[c]; b; b &= b - 1)
        board[square_name(game, std::countr_zero(b))] = white ? "P" : "p";
    }
    j["board"] = board;
    nlohmann::ordered_json hands = nlohmann::ordered_json::object();
    for (const Color c : {kWhite, kBlack}) {
      nlohmann::ordered_json hand = nlohmann::ordered_json::object();
      if (p.reserve[c]) hand["P"] = p.reserve[c];
      hands[c == kWhite ? "white" : "black"] = hand;
    }
    j["hands"] = hands;
    j["inside"] = {{"white", p.inside[kWhite]}, {"black", p.inside[kBlack]}};
    return j;
  }
};

}  // namespace rookrace
