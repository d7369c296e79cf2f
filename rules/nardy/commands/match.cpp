// drop16 nardy-match: the Royal Nardy player (rules/nardy/solve/player.h) against random legal play
// over N games with seeded dice: the player's mean points a game with its standard error, wins,
// losses, draws and time.
#include <chrono>
#include <iostream>

#include "app/command.h"
#include "app/games.h"
#include "app/resources.h"
#include "rules/nardy/commands/database.h"
#include "rules/nardy/solve/player.h"

namespace nardy {

namespace {

struct MatchOptions {
  std::string variant = std::string(Entry::info.id);
  int games = 100;
  std::uint64_t seed = 1;
  int depth = 1;
  std::string db;
  int checkers = 0;
  bool json = false;
};

void run_match(const CLI::App& cmd, const MatchOptions& o) {
  // The player is Royal Nardy's: the registry says which games have it.
  const auto setup = app::own_setup<Entry>(cmd, {.variant = o.variant});
  const Game& game = *setup.game;
  const auto database = database_of(o.db, o.checkers);
  const player::Player player(game, database ? &*database : nullptr, o.depth);
  const auto start = std::chrono::steady_clock::now();
  const auto m = player::play_match(game, player, o.games, o.seed);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long plies = 0;
  for (const auto& g : m.games) plies += g.plies;
  nlohmann::ordered_json j;
  j["variant"] = o.variant;
  j["games"] = o.games;
  j["seed"] = o.seed;
  j["depth"] = o.depth;
  j["baseline"] = "random";
  j["database_checkers"] = database ? database->index().max_checkers() : 0;
  j["mean_points"] = m.mean;
  j["standard_error"] = m.standard_error;
  j["wins"] = m.wins;
  j["losses"] = m.losses;
  j["draws"] = m.draws;
  j["unfinished"] = m.unfinished;
  j["win_rate"] = double(m.wins) / o.games;
  j["mean_plies"] = double(plies) / o.games;
  j["seconds"] = seconds;
  j["peak_memory_mb"] = solver::peak_memory_mb();
  if (o.json) {
    app::print_json(j);
    return;
  }
  std::cout << "player (depth " << o.depth << ") against random play, " << o.games
            << " games, seed " << o.seed << ": " << m.mean << " +- " << m.standard_error
            << " points a game; " << m.wins << " won, " << m.losses << " lost, " << m.draws
            << " drawn, " << m.unfinished << " unfinished" << std::endl;
}

void add_nardy_match(CLI::App& app) {
  auto o = std::make_shared<MatchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "nardy-match", "Royal Nardy: the player against random play, N games with seeded dice");
  cmd->add_option("--variant", o->variant, "the game, a dice game with a player")
      ->capture_default_str();
  cmd->add_option("--games", o->games, "games to play")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of the dice and of the baseline")
      ->check(app::unsigned_64())
      ->capture_default_str();
  cmd->add_option("--depth", o->depth, "the player's own plies searched")
      ->check(CLI::Range(1, 2))
      ->capture_default_str();
  auto* db = cmd->add_option("--db", o->db, "bear-off database file (drop16 bearoff --build)");
  cmd->add_option("--checkers", o->checkers, "instead: build the database in memory, this many")
      ->check(CLI::Range(1, 15))
      ->excludes(db);
  cmd->add_flag("--json", o->json, "one JSON object on stdout");
  cmd->callback([cmd, o] { run_match(*cmd, *o); });
}

[[maybe_unused]] const bool kNardyMatchAdded =
    app::add_game_command({&Entry::info, "nardy-match", add_nardy_match});

}  // namespace

}  // namespace nardy
