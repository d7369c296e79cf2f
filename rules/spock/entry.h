// Spock's registry entry (rules/game_entry.h, listed in rules/registry.h). Two kinds of variant:
//   spock                the game on the board the FEN gives (3x3 to 8x8), by default the 5x5 start
//   spock:WxH:BLUE/red   a row of Spock's ladder (material.h): every placement of those pieces on
//                        the empty board, either side to move, and everything reachable from
//                        them; a position of it needs a FEN, on the row's board. A row is a whole
//                        variant: its tables hold all of it.
#pragma once

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/common/text.h"
#include "rules/game_entry.h"
#include "rules/spock/game.h"
#include "rules/spock/key.h"
#include "rules/spock/material.h"
#include "rules/spock/notation.h"

namespace spock {

struct Entry {
  using Game = spock::Game;

  static constexpr std::string_view kName = "spock";

  static constexpr registry::GameInfo info{
      .id = kName,
      .title = "Spock",
      .variants = "spock, spock:WxH:BLUE/red",
      .example = "spock:3x3:RK/rk",
      .about =
          "rock-paper-scissors-lizard-Spock pieces, play can cycle, endless play is a draw "
          "(docs/games/spock.md); spock is the game on the FEN's board (3x3 to 8x8, "
          "by default the 5x5 start), spock:WxH:BLUE/red a row of its ladder, every "
          "placement of those pieces (e.g. spock:3x3:RK/rk)",
      .family = registry::ValueFamily::win_draw_loss,
      .commands = registry::kCyclicGameCommands,
      .solvers = registry::kCyclicGameSolvers,
      // Keyed for every row (any board, any pieces); loopy tiers (solve --format loopy-tiers) for
      // the rows its tier space indexes, in a few bytes a position where the keyed table's
      // solve takes some 140 (tablebase/LOOPY.md).
      .tables = {registry::TableFormat::keyed, registry::TableFormat::loopy_tiers},
      .views = {registry::View::diagram, registry::View::page},
      .drawing = registry::PageDrawing::lettered_discs,
      .whole_variants = "a ladder row (--variant spock:WxH:BLUE/red)",
  };
  // The sides by index, as the page and answers name them (the side to move).
  static constexpr std::array<std::string_view, 2> kPlayers = {"blue", "red"};
  // The packing of the keys its tables store (key.h).
  static constexpr std::uint32_t kKeyFormat = spock::kKeyFormat;

  static bool claims(std::string_view text) { return common::names_game(text, kName); }
  static std::string normalized(std::string_view variant) {
    return is_row(variant) ? parse_material(variant).name() : std::string(kName);
  }
  // A row's position needs a FEN on the row's board; plain spock's board is the FEN's.
  static registry::GameSetup<Game> setup(std::string_view variant,
                                         const std::optional<std::string>& fen) {
    if (is_row(variant)) {
      const Material m = parse_material(variant);
      if (!fen)
        throw ParseError("--variant " + std::string(variant) +
                         " names every placement of its pieces; give one with --fen");
      Setup parsed = spock::parse_fen(*fen);
      check_board(m, parsed.game);
      return {std::make_unique<Game>(parsed.game), parsed.position};
    }
    Setup parsed = spock::parse_fen(fen ? *fen : spock::start_fen());
    return {std::make_unique<Game>(parsed.game), parsed.position};
  }
  // Where the explorer opens a variant: the 5x5 start, or a row's pieces on the back ranks.
  static std::string start_fen(std::string_view variant) {
    if (!is_row(variant)) return spock::start_fen();
    const Material m = parse_material(variant);
    return to_fen(Game(m.width, m.height), row_start(m));
  }

  // --- whole variants (a ladder row): what its tables hold ---
  // Whether the variant has a position of its own (plain spock: the start), so that a solve of it
  // without tables starts there; a row's positions are all its placements.
  static bool has_start(std::string_view variant) { return !is_row(variant); }
  // How many positions a whole variant starts from; none for plain spock, which names a game.
  static std::optional<std::uint64_t> root_count(std::string_view variant) {
    if (!is_row(variant)) return std::nullopt;
    return placement_count(parse_material(variant));
  }
  // The game a whole variant is played on, and the positions it starts from.
  static std::unique_ptr<Game> whole_game(std::string_view variant) {
    const Material m = parse_material(variant);
    return std::make_unique<Game>(m.width, m.height);
  }
  static std::vector<Position> roots(std::string_view variant) {
    return placements(parse_material(variant));
  }

  static std::string variant_name(const Game&) { return std::string(kName); }
  static std::string fen(const Game& g, const Position& p) { return to_fen(g, p); }
  // A position of this game's board (the FEN's must be the same).
  static Position parse_fen(const Game& g, std::string_view text) {
    const Setup parsed = spock::parse_fen(text);
    if (!(parsed.game == g))
      throw ParseError("FEN: a " + board_name(parsed.game) + " board, not " + board_name(g));
    return parsed.position;
  }
  static std::string move_text(const Game& g, Move m) { return move_name(g, m); }
  static Move parse_move(const Game& g, const Position& p, std::string_view text) {
    return spock::parse_move(g, p, text);
  }
  static std::string diagram(const Game& g, const Position& p) { return board_diagram(g, p); }

  // The board the explorer page draws: its size, the side to move (blue or red) and each
  // occupied square's piece letter (Blue upper case); no hands.
  static nlohmann::ordered_json position_json(const Game& game, const Position& p) {
    nlohmann::ordered_json j;
    j["width"] = game.width();
    j["height"] = game.height();
    j["side_to_move"] = p.side_to_move == kBlue ? "blue" : "red";
    nlohmann::ordered_json board = nlohmann::ordered_json::object();
    for (int sq = 0; sq < game.geometry().squares(); ++sq)
      if (const auto piece = p.piece_on(sq))
        board[square_name(game, sq)] = std::string(1, piece_letter(piece->type, piece->color));
    j["board"] = board;
    return j;
  }

 private:
  static bool is_row(std::string_view variant) { return variant != kName; }
  // A row's positions are on its board: those of other boards are not in its table, even when
  // their keys happen to be (keys pack squares by index, whatever the board).
  static void check_board(const Material& m, const Game& game) {
    if (game.width() != m.width || game.height() != m.height)
      throw ParseError("--fen: a " + board_name(game) + " board, not " + m.name() + "'s");
  }
  static std::string board_name(const Game& g) {
    return std::to_string(g.width()) + "x" + std::to_string(g.height());
  }
};

}  // namespace spock
