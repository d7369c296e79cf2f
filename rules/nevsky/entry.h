// Nevsky checkers' registry entry (rules/game_entry.h, listed in rules/registry.h): four players,
// so its value family is a value per coalition of players (NEVSKY.md, "What solved means"), which
// the coalition solver gives for everything reachable from a position. Its moves are written from
// the position they are played from (a capture's route is found on the board), so its move_text
// takes the position; its players' names, by index, are what the front ends print for a player to
// move, a winner or a coalition. The explorer page draws its grid with a colour per player and
// each player's corner (PageDrawing::corner_checkers), and shows every coalition's value of each
// move. A variant's coalition tables (TableFormat::coalitions) hold everything reachable from its
// start, by canonical key (key.h).
#pragma once

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "rules/game_entry.h"
#include "rules/nevsky/game.h"
#include "rules/nevsky/key.h"
#include "rules/nevsky/notation.h"
#include "rules/nevsky/player.h"
#include "rules/nevsky/variant.h"

namespace nevsky {

struct Entry {
  using Game = nevsky::Game;

  static constexpr registry::GameInfo info{
      .id = kVariantName,
      .title = "Nevsky checkers",
      .variants = "nevsky, nevsky:NxN:M[+K][:pairs]",
      .example = "nevsky:3x3:1",
      .about =
          "four players race their checkers to the opposite corner, capturing as in checkers, "
          "flying kings, endless play a draw; solved as a value per coalition of players "
          "(docs/games/nevsky.md); nevsky is 6x6 with 6 men each, nevsky:NxN:M an NxN grid "
          "(3 to 8) with M = 1, 3, 6 or 10 men each, +K of them kings (0 to 3), :pairs pair play",
      .family = registry::ValueFamily::coalition_values,
      .commands = {registry::Command::perft, registry::Command::distinct, registry::Command::moves,
                   registry::Command::show, registry::Command::solve, registry::Command::query,
                   registry::Command::verify, registry::Command::serve},
      .solvers = {registry::Solver::coalition_values},
      .tables = {registry::TableFormat::coalitions, registry::TableFormat::coalition_tiers},
      .views = {registry::View::diagram, registry::View::page},
      .drawing = registry::PageDrawing::corner_checkers,
  };
  // The players by index (Player), in the order of play, as answers name them.
  static constexpr std::array<std::string_view, nevsky::kPlayers> kPlayers = {"white", "red",
                                                                              "green", "black"};
  // The packing of the keys its tables store (key.h).
  static constexpr std::uint32_t kKeyFormat = nevsky::kKeyFormat;

  static bool claims(std::string_view text) { return names_nevsky(text); }
  static std::string normalized(std::string_view variant) { return parse_variant(variant).name(); }
  static registry::GameSetup<Game> setup(std::string_view variant,
                                         const std::optional<std::string>& fen) {
    registry::GameSetup<Game> s;
    s.game = std::make_unique<Game>(parse_variant(variant));
    s.position = fen ? nevsky::parse_fen(*s.game, *fen) : s.game->start();
    return s;
  }

  static std::string variant_name(const Game& g) { return g.variant().name(); }
  static std::string fen(const Game& g, const Position& p) { return to_fen(g, p); }
  static Position parse_fen(const Game& g, std::string_view text) {
    return nevsky::parse_fen(g, text);
  }
  static std::string move_text(const Game& g, const Position& p, Move m) {
    return move_name(g, p, m);
  }
  static Move parse_move(const Game& g, const Position& p, std::string_view text) {
    return nevsky::parse_move(g, p, text);
  }
  static std::string diagram(const Game& g, const Position& p) { return board_diagram(g, p); }

  // --- the page ---
  // Where the page opens a variant: its start.
  static std::string start_fen(std::string_view variant) {
    const Game g(parse_variant(variant));
    return to_fen(g, g.start());
  }
  // The grid the page draws: its size, the player to move, each occupied cell's checker (the
  // position string's letters: men lower case, kings upper case), each player's start corner by
  // index (its goal is the opposite one, its partner's), the players still in, pair play, and a
  // finished game's result.
  static nlohmann::ordered_json position_json(const Game& game, const Position& p) {
    nlohmann::ordered_json j;
    j["width"] = game.size();
    j["height"] = game.size();
    j["side_to_move"] = kPlayers[game.player_to_move(p)];
    nlohmann::ordered_json board = nlohmann::ordered_json::object();
    for (int cell = 0; cell < game.geometry().cells(); ++cell)
      if (const auto piece = p.piece_on(cell))
        board[cell_name(game, cell)] =
            std::string(1, piece->king ? king_letter(piece->player) : man_letter(piece->player));
    j["board"] = board;
    j["corners"] = nlohmann::ordered_json::array();
    j["players_left"] = nlohmann::ordered_json::array();
    for (const Player q : kAllPlayers) {
      j["corners"].push_back(cell_name(game, game.geometry().corner(q)));
      if (game.players_left(p) & player_bit(q)) j["players_left"].push_back(kPlayers[q]);
    }
    j["pairs"] = game.variant().pairs;
    j["result"] = game.is_terminal(p) ? nlohmann::ordered_json(winners_text(game, p))
                                      : nlohmann::ordered_json();
    return j;
  }
  // A finished game's result, for the commands that list its (no) moves.
  static std::string end_text(const Game& g, const Position& p) {
    return "the game is over: " + winners_text(g, p);
  }
};

}  // namespace nevsky
