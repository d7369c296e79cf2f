// drop16 endgame [--variant nardy] --fen F: the value of a small Royal Nardy endgame (a shortened
// board, few checkers, contact allowed) by value iteration over every position reachable from F
// (solver/chance_fixed_point.h): positions, sweeps, residual, time, and White's expected points.
#include <chrono>
#include <iostream>

#include "app/command.h"
#include "app/games.h"
#include "app/resources.h"
#include "solver/chance_fixed_point.h"
#include "solver/progress.h"

namespace nardy {

namespace {

struct EndgameOptions {
  app::PositionOptions position;
  double tolerance = 1e-13;
  std::uint64_t max_positions = 20'000'000;
};

template <typename E>
void run_endgame(const EndgameOptions& o, const registry::GameSetup<typename E::Game>& s) {
  if (!o.position.fen) throw app::UsageError("endgame needs the position: give --fen");
  if (!s.game->keys_fit())
    throw app::UsageError(
        "--fen: this board's positions need " + std::to_string(s.game->key_bits()) +
        " bits, more than the 128-bit exact keys value iteration needs hold (Royal "
        "Nardy: endgames on 12-point boards)");
  const auto start = std::chrono::steady_clock::now();
  std::optional<solver::ChanceFixedPoint<typename E::Game>> fixed;
  double listed = 0;
  int sweeps = 0;
  {
    solver::Progress progress("endgame", 0, "positions", !o.position.quiet);
    try {
      fixed.emplace(*s.game, s.position, o.max_positions, &progress);
    } catch (const std::length_error& e) {
      throw app::UsageError(std::string("--max-positions: ") + e.what());
    }
    listed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    sweeps = fixed->solve(o.tolerance, 100'000, &progress);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nlohmann::ordered_json j;
  j["variant"] = E::variant_name(*s.game);
  j["fen"] = E::fen(*s.game, s.position);
  j["positions"] = fixed->positions();
  j["sweeps"] = sweeps;
  j["residual"] = fixed->residual();
  j["listing_seconds"] = listed;
  j["seconds"] = seconds;
  j["peak_memory_mb"] = solver::peak_memory_mb();
  j["white_points"] = fixed->value(s.position);
  app::print_report(j, o.position.json);
}

void add_endgame(CLI::App& app) {
  auto o = std::make_shared<EndgameOptions>();
  CLI::App* cmd = app.add_subcommand(
      "endgame", "Royal Nardy: value a small endgame (12-point board) by value iteration");
  o->position.variant = std::string(Entry::info.id);
  app::add_position_options(*cmd, o->position);
  cmd->add_option("--tolerance", o->tolerance, "stop when no value moves more than this")
      ->check(CLI::Range(1e-15, 1.0))
      ->capture_default_str();
  cmd->add_option("--max-positions", o->max_positions, "refuse endgames with more positions")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 31))
      ->capture_default_str();
  cmd->callback([cmd, o] { run_endgame<Entry>(*o, app::own_setup<Entry>(*cmd, o->position)); });
}

[[maybe_unused]] const bool kEndgameAdded =
    app::add_game_command({&Entry::info, "endgame", add_endgame});

}  // namespace

}  // namespace nardy
