// drop16 perft: move-sequence counts, plain or hashed, split by root move with --divide.
#include <chrono>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "app/command.h"
#include "app/games.h"
#include "app/resources.h"
#include "solver/exact_count.h"
#include "solver/hashed_perft.h"
#include "solver/parallel_perft.h"
#include "solver/perft.h"

namespace app {

namespace {

struct PerftOptions {
  PositionOptions position;
  int depth = 0;
  int threads = 1;
  std::uint64_t hash_mb = 0;
  bool divide = false;
};

// A count as a JSON number, or past 2^64 (beyond JSON libraries' integers) as a decimal string.
nlohmann::ordered_json count_json(solver::Count n) {
  if (n >> 64) return solver::to_decimal(n);
  return std::uint64_t(n);
}

template <typename E, typename G = typename E::Game>
void run_perft(const PerftOptions& o, const GameSetup<G>& s) {
  const G& game = *s.game;
  if (o.hash_mb && !game.keys_fit())
    throw UsageError("--hash: this variant's positions need " + std::to_string(game.key_bits()) +
                     " bits, more than the 128-bit exact keys hold; use plain perft (no --hash)");
  if (o.hash_mb > physical_memory_mb())
    throw UsageError("--hash " + std::to_string(o.hash_mb) + " MB is more than this machine's " +
                     std::to_string(physical_memory_mb()) + " MB of memory");

  const auto start = std::chrono::steady_clock::now();
  std::optional<solver::PerftTable<typename G::Key>> table;
  if (o.hash_mb) table.emplace(o.hash_mb << 20);
  solver::Progress progress("perft " + std::to_string(o.depth), 0, "nodes", !o.position.quiet);
  solver::Divide<G> divide;
  try {
    divide = solver::parallel_divide(game, s.position, o.depth, o.threads, progress,
                                     [&](typename G::Position& p, int depth) {
                                       return table ? solver::hashed_perft(game, p, depth, *table)
                                                    : solver::perft(game, p, depth);
                                     });
  } catch (const solver::PerftOverflow& e) {
    throw std::runtime_error("perft " + std::to_string(o.depth) + ": " + e.what() +
                             "; count from the positions two plies down instead (--fen)");
  }
  const solver::Count nodes = o.depth == 0 ? 1 : divide.total();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (o.position.json) {
    nlohmann::ordered_json j;
    j["variant"] = E::variant_name(game);
    j["fen"] = E::fen(game, s.position);
    j["depth"] = o.depth;
    j["nodes"] = count_json(nodes);
    j["seconds"] = seconds;
    j["threads"] = o.threads;
    j["hash_mb"] = o.hash_mb;
    j["peak_memory_mb"] = peak_memory_mb();
    if (o.divide) {
      j["divide"] = nlohmann::ordered_json::object();
      for (const auto& [move, count] : divide.per_move)
        j["divide"][registry::move_text<E>(game, s.position, move)] = count_json(count);
    }
    std::cout << j.dump() << std::endl;
    return;
  }
  if (o.divide)
    for (const auto& [move, count] : divide.per_move)
      std::cout << registry::move_text<E>(game, s.position, move) << ": "
                << solver::to_decimal(count) << "\n";
  std::cout << "perft(" << o.depth << ") = " << solver::to_decimal(nodes) << "  (" << seconds
            << " s, " << o.threads << " threads"
            << (o.hash_mb ? ", hash " + std::to_string(o.hash_mb) + " MB" : "") << ")" << std::endl;
}

}  // namespace

void register_perft(CLI::App& app) {
  auto o = std::make_shared<PerftOptions>();
  CLI::App* cmd = app.add_subcommand("perft", "count move sequences of exactly D plies");
  add_position_options(*cmd, o->position);
  cmd->add_option("--depth", o->depth, "plies")->required()->check(CLI::Range(0, 64));
  add_threads_option(*cmd, o->threads);
  cmd->add_option("--hash", o->hash_mb,
                  "transposition table size in MB (0: plain perft); counts stay exact")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 30));
  cmd->add_flag("--divide", o->divide, "also count each root move's subtree");
  cmd->callback([cmd, o] {
    with_game<registry::Command::perft>(
        *cmd, o->position, [&](auto e, const auto& s) { run_perft<decltype(e)>(*o, s); });
  });
}

}  // namespace app
