// Drop 16's registry entry (rules/game_entry.h, listed in rules/registry.h): its names, text
// forms, position JSON and capabilities, as the front ends read them.
#pragma once

#include <array>
#include <cctype>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/variant.h"
#include "rules/game_entry.h"

namespace drop {

struct Entry {
  using Game = drop::Game;

  static constexpr registry::GameInfo info{
      .id = "drop16",
      .title = "Drop 16",
      .variants = "drop16, WxH:HAND, WxH:WHITE/black",
      .example = "3x3:NBK",
      .about =
          "a chess-like drop game on a 4x4 board (docs/games/drop16.md); WxH:HAND is a board "
          "of W by H squares (1 to 8) with both hands HAND, e.g. 3x3:NBRK, or 4x3:QK/rnk "
          "with different hands",
      .family = registry::ValueFamily::win_loss,
      .commands = {registry::Command::perft, registry::Command::distinct, registry::Command::moves,
                   registry::Command::show, registry::Command::solve, registry::Command::query,
                   registry::Command::verify, registry::Command::serve},
      .solvers = {registry::Solver::tiers, registry::Solver::dte_search,
                  registry::Solver::proof_search},
      .tables = {registry::TableFormat::tiers},
      .views = {registry::View::diagram, registry::View::page},
      .drawing = registry::PageDrawing::pieces_and_hands,
  };
  // The sides by index, as the page and answers name them (the side to move).
  static constexpr std::array<std::string_view, 2> kPlayers = {"white", "black"};

  // "drop16" and the WxH forms, well formed or not, so that their parser names the fault.
  static bool claims(std::string_view text) {
    return text == "drop16" || (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0])));
  }
  static std::string normalized(std::string_view variant) { return parse_variant(variant).name(); }
  static registry::GameSetup<Game> setup(std::string_view variant,
                                         const std::optional<std::string>& fen) {
    registry::GameSetup<Game> s;
    s.game = std::make_unique<Game>(parse_variant(variant));
    s.position = fen ? drop::parse_fen(*s.game, *fen) : s.game->start();
    return s;
  }

  // Where the explorer opens a variant: its start.
  static std::string start_fen(std::string_view variant) {
    const Game game(parse_variant(variant));
    return to_fen(game, game.start());
  }

  static std::string variant_name(const Game& g) { return g.variant().name(); }
  static std::string fen(const Game& g, const Position& p) { return to_fen(g, p); }
  static Position parse_fen(const Game& g, std::string_view text) {
    return drop::parse_fen(g, text);
  }
  static std::string move_text(const Game& g, Move m) { return move_name(g.geometry(), m); }
  static Move parse_move(const Game& g, const Position& p, std::string_view text) {
    return drop::parse_move(g, p, text);
  }
  static std::string diagram(const Game& g, const Position& p) { return board_diagram(g, p); }

  // The board the explorer page draws: its size, the side to move, each occupied square's piece
  // letter (White upper case) and both hands by piece letter.
  static nlohmann::ordered_json position_json(const Game& game, const Position& p) {
    const Geometry& g = game.geometry();
    nlohmann::ordered_json j;
    j["width"] = g.width();
    j["height"] = g.height();
    j["side_to_move"] = p.side_to_move == kWhite ? "white" : "black";
    nlohmann::ordered_json board = nlohmann::ordered_json::object();
    for (int sq = 0; sq < g.squares(); ++sq)
      if (const auto piece = p.piece_on(sq))
        board[square_name(g, sq)] = std::string(1, piece_letter(piece->type, piece->color));
    j["board"] = board;
    nlohmann::ordered_json hands = nlohmann::ordered_json::object();
    for (const Color c : {kWhite, kBlack}) {
      nlohmann::ordered_json hand = nlohmann::ordered_json::object();
      for (const PieceType t : kAllPieceTypes)
        if (p.hand[c][t]) hand[std::string(1, piece_letter(t))] = p.hand[c][t];
      hands[c == kWhite ? "white" : "black"] = hand;
    }
    j["hands"] = hands;
    return j;
  }
};

}  // namespace drop
