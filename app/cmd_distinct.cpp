// drop16 distinct: how many different positions exist after each ply, exactly and up to symmetry.
#include <chrono>
#include <iostream>

#include "app/command.h"
#include "app/games.h"
#include "app/resources.h"
#include "solver/distinct_positions.h"

namespace app {

namespace {

struct DistinctOptions {
  PositionOptions position;
  int depth = 0;
  int threads = 1;
  std::uint64_t memory_mb = 0;
};

template <typename G>
void run_distinct(const DistinctOptions& o, const GameSetup<G>& s) {
  const G& game = *s.game;
  if (!game.keys_fit())
    throw UsageError("this variant's positions need " + std::to_string(game.key_bits()) +
                     " bits, more than the 128-bit exact keys hold");
  const std::uint64_t cap = o.memory_mb << 20;
  nlohmann::ordered_json j;
  j["variant"] = variant_name(game);
  j["fen"] = fen_text(game, s.position);
  j["depth"] = o.depth;
  j["memory_mb"] = o.memory_mb;
  j["threads"] = o.threads;
  bool complete = true;
  for (const bool symmetric : {false, true}) {
    const auto start = std::chrono::steady_clock::now();
    const auto counts = solver::count_distinct_positions(
        game, s.position, o.depth, cap, o.threads, !o.position.quiet,
        [&](const typename G::Position& p) {
          return symmetric ? game.symmetric_key(p) : game.raw_key(p);
        });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const char* name = symmetric ? "up_to_symmetry" : "positions";
    j[name] = counts.per_ply;
    j[std::string(name) + "_seconds"] = seconds;
    if (!counts.complete) {
      complete = false;
      j[std::string(name) + "_stopped_at_ply"] = counts.per_ply.size();
    }
  }
  j["complete"] = complete;
  j["peak_memory_mb"] = peak_memory_mb();
  if (o.position.json) {
    std::cout << j.dump() << std::endl;
  } else {
    const auto& raw = j["positions"];
    const auto& sym = j["up_to_symmetry"];
    std::cout << "ply  positions  up_to_symmetry\n";
    for (std::size_t d = 0; d < std::max(raw.size(), sym.size()); ++d) {
      std::cout << d << "  " << (d < raw.size() ? raw[d].dump() : "-") << "  "
                << (d < sym.size() ? sym[d].dump() : "-") << "\n";
    }
  }
  if (!complete)
    throw std::runtime_error("stopped: the next ply needs more than --memory " +
                             std::to_string(o.memory_mb) + " MB (counts above are complete)");
}

}  // namespace

void register_distinct(CLI::App& app) {
  auto o = std::make_shared<DistinctOptions>();
  CLI::App* cmd = app.add_subcommand("distinct",
                                     "count distinct positions after each ply (raw and up to "
                                     "the board's symmetries)");
  add_position_options(*cmd, o->position);
  cmd->add_option("--depth", o->depth, "last ply to count")->required()->check(CLI::Range(0, 64));
  add_threads_option(*cmd, o->threads);
  o->memory_mb = physical_memory_mb() * 3 / 5;
  cmd->add_option("--memory", o->memory_mb, "memory cap in MB (default: 60% of this machine)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30))
      ->capture_default_str();
  cmd->callback(
      [o] { with_game(o->position, "distinct", [&](const auto& s) { run_distinct(*o, s); }); });
}

}  // namespace app
