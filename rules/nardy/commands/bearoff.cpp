// drop16 bearoff [--variant nardy]: builds Royal Nardy's one-sided bear-off database in memory
// (rules/nardy/solve/bearoff.h), or writes it to a file (--build FILE) or loads one (--db FILE,
// rules/nardy/solve/bearoff_file.h), and reports its size, build or load time and probe time; with
// --fen, the side to move's home board: expected rolls, the exact distribution, and with a roll
// the best play.
#include "rules/nardy/solve/bearoff.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <random>

#include "app/command.h"
#include "app/games.h"
#include "app/resources.h"
#include "rules/nardy/solve/bearoff_file.h"
#include "rules/nardy/solve/two_sided.h"
#include "solver/progress.h"
#include "tablebase/table_file.h"

namespace nardy {

namespace {

struct BearoffOptions {
  app::PositionOptions position;
  int checkers = 15;
  int threads = 1;
  int two_sided = 0;  // 0: the one-sided database
  std::string build;  // --build FILE: write the database there
  std::string db;     // --db FILE: load it from there instead of building
  bool checkers_given = false;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Mean nanoseconds of one probe (index, expectation and distribution of a random board).
double probe_nanoseconds(const bearoff::OneSided& db) {
  std::mt19937_64 rng(1);
  constexpr int kProbes = 1'000'000;
  std::vector<bearoff::HomeBoard> boards;
  for (int i = 0; i < 4096; ++i) boards.push_back(db.index().board(rng() % db.size()));
  volatile double sink = 0;  // the look-ups' results are kept, so the loop is not optimised away
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kProbes; ++i) {
    const bearoff::HomeBoard& b = boards[i & 4095];
    sink = sink + db.expected_rolls(b) + double(db.counts(b)[i % (bearoff::kExactRolls + 1)]);
  }
  return seconds_since(start) * 1e9 / kProbes;
}

void describe(const bearoff::OneSided& db, const registry::GameSetup<Game>& s,
              nlohmann::ordered_json& j) {
  const Game& g = *s.game;
  const Position& p = s.position;
  const auto b = bearoff::home_board(g, p, p.side_to_move);
  if (!b)
    throw app::UsageError(
        "--fen: the side to move has checkers outside its home (or two royal ones "
        "on a point); the database holds home boards");
  if (b->checkers() > db.index().max_checkers())
    throw app::UsageError("--fen: " + std::to_string(b->checkers()) +
                          " checkers, more than --checkers");
  j["fen"] = Entry::fen(g, p);
  j["expected_rolls"] = db.expected_rolls(*b);
  nlohmann::ordered_json dist = nlohmann::ordered_json::array();
  const bearoff::Count* c = db.counts(*b);
  for (int n = 0; n <= bearoff::kExactRolls; ++n)
    if (c[n] != 0)
      dist.push_back({{"rolls", n},
                      {"count", bearoff::decimal(c[n])},
                      {"over", "36^" + std::to_string(n)},
                      {"probability", db.probability(*b, n)}});
  j["distribution"] = dist;
  j["tail_count"] = bearoff::decimal(db.tail(*b));
  j["tail_probability"] = double(db.tail(*b)) / double(bearoff::power36(bearoff::kExactRolls));
  if (!p.dice.rolled()) return;
  const bearoff::HomeBoard best = db.best(*b, p.dice);
  MoveList plays;
  g.generate(p, plays);
  for (const Move& m : plays) {
    Position q = p;
    g.make(q, m);
    if (bearoff::home_board(g, q, p.side_to_move) == best) {
      j["best_play"] = Entry::move_text(g, m);
      j["best_play_expected_rolls"] = db.expected_rolls(best);
      return;
    }
  }
  throw std::logic_error("bearoff: the database's play is not one of the engine's");
}

// Every pair of plain home boards of up to N checkers, with the eaten counts of --fen (default
// none): pairs, nodes and time, and White's expected points over all pairs on average.
void run_two_sided(const BearoffOptions& o, const std::optional<registry::GameSetup<Game>>& setup) {
  const std::array<std::uint8_t, 2> eaten =
      setup ? setup->position.eaten : std::array<std::uint8_t, 2>{};
  const auto start = std::chrono::steady_clock::now();
  // The progress ends with the build, before the report.
  const bearoff::TwoSidedPlain table = [&] {
    solver::Progress progress("two-sided", 0, "pairs", !o.position.quiet);
    return bearoff::TwoSidedPlain(o.two_sided, eaten[0], eaten[1], &progress);
  }();
  nlohmann::ordered_json j;
  j["variant"] = o.position.variant;
  j["two_sided_checkers"] = o.two_sided;
  j["eaten"] = {eaten[0], eaten[1]};
  j["boards"] = table.boards().size();
  j["pairs"] = table.pairs();
  j["nodes"] = table.nodes();
  j["seconds"] = seconds_since(start);
  double sum = 0, low = 1e9, high = -1e9;
  for (std::size_t w = 0; w < table.boards().size(); ++w)
    for (std::size_t b = 0; b < table.boards().size(); ++b) {
      const double v = table.value(w, b);
      sum += v, low = std::min(low, v), high = std::max(high, v);
    }
  j["mean_white_points"] = sum / double(table.pairs());
  j["min_white_points"] = low;
  j["max_white_points"] = high;
  j["peak_memory_mb"] = solver::peak_memory_mb();
  app::print_report(j, o.position.json);
}

void run_bearoff(const CLI::App& cmd, const BearoffOptions& o) {
  // The database's home boards are Royal Nardy's: the registry says which games have it.
  auto game = app::own_setup<Entry>(cmd, o.position);
  std::optional<registry::GameSetup<Game>> setup;
  if (o.position.fen) setup = std::move(game);
  if (o.two_sided > 0) return run_two_sided(o, setup);
  if (!o.build.empty() && std::filesystem::exists(o.build))
    throw app::UsageError("--build " + o.build + ": the file exists; remove it or name another");
  nlohmann::ordered_json j;
  j["variant"] = o.position.variant;
  auto start = std::chrono::steady_clock::now();
  std::optional<bearoff::OneSided> loaded;
  if (!o.db.empty()) {
    try {
      loaded.emplace(bearoff::read_one_sided(o.db, o.checkers_given ? o.checkers : -1));
    } catch (const tablebase::TableError& e) {
      throw app::UsageError(std::string("--db ") + e.what());
    }
    j["db"] = o.db;
    j["load_seconds"] = seconds_since(start);
  } else {
    solver::Progress progress("bear-off", 0, "boards", !o.position.quiet);
    loaded.emplace(o.checkers, o.threads, &progress);
    j["threads"] = o.threads;
    j["build_seconds"] = seconds_since(start);
  }
  const bearoff::OneSided& db = *loaded;
  if (!o.build.empty()) {
    start = std::chrono::steady_clock::now();
    bearoff::write_one_sided(o.build, db);
    j["file"] = o.build;
    j["file_bytes"] = std::filesystem::file_size(o.build);
    j["write_seconds"] = seconds_since(start);
  }
  j["checkers"] = db.index().max_checkers();
  j["positions"] = db.size();
  j["bytes"] = db.bytes();
  j["probe_ns"] = probe_nanoseconds(db);
  j["peak_memory_mb"] = solver::peak_memory_mb();
  if (setup) describe(db, *setup, j);
  app::print_report(j, o.position.json);
}

void add_bearoff(CLI::App& app) {
  auto o = std::make_shared<BearoffOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bearoff", "Royal Nardy: build the one-sided bear-off database, and probe a position");
  o->position.variant = std::string(Entry::info.id);
  app::add_position_options(*cmd, o->position);
  cmd->add_option("--checkers", o->checkers, "home boards of up to this many checkers")
      ->check(CLI::Range(0, 15))
      ->capture_default_str();
  app::add_threads_option(*cmd, o->threads);
  cmd->add_option("--two-sided", o->two_sided,
                  "instead: exact race values of every pair of plain home boards of up to this "
                  "many checkers each (eaten counts from --fen)")
      ->check(CLI::Range(1, 6));
  auto* build = cmd->add_option("--build", o->build,
                                "write the one-sided database to this file (never over one)");
  cmd->add_option("--db", o->db, "load the one-sided database from this file instead of building")
      ->excludes(build);
  cmd->callback([cmd, o] {
    o->checkers_given = cmd->count("--checkers") > 0;
    run_bearoff(*cmd, *o);
  });
}

[[maybe_unused]] const bool kBearoffAdded =
    app::add_game_command({&Entry::info, "bearoff", add_bearoff});

}  // namespace

}  // namespace nardy
