// nevsky_ladder: one row of results/nevsky.md's ladder a variant (`drop16 solve
// --variant V [--json]` gives the same values and counts of one variant). Solves every
// position reachable from each variant's start (solver/coalition_solve.h) and prints, as Markdown,
// what the ladder reports: positions, links and the solve's cost, every coalition's value at the
// start, the kingmaker count and each coalition's longest forced win. Peak resident memory is
// measured from outside (/usr/bin/time -v), one variant a process.
//
//   nevsky_ladder [--memory GB] [--progress] VARIANT...        e.g. nevsky_ladder
//   nevsky:4x4:1+1:pairs
//
// Exit status 2 with one line on stderr for a bad variant or option, 1 when a solve does not fit
// under --memory (the message names what did not).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "rules/nevsky/game.h"
#include "rules/nevsky/parse_error.h"
#include "rules/nevsky/player.h"
#include "rules/nevsky/solve/coalition_tier_space.h"
#include "rules/nevsky/variant.h"
#include "solver/coalition_solve.h"
#include "solver/counted_memory.h"
#include "solver/size_text.h"
#include "solver/wdl.h"
#include "tablebase/coalition_tier_solver.h"

namespace {

// A coalition by its players' letters, in the order of play: "W", "W+G", "R+G+B".
std::string coalition_name(std::uint32_t s) {
  std::string out;
  for (nevsky::Player q : nevsky::kAllPlayers)
    if (s & nevsky::player_bit(q)) {
      if (!out.empty()) out += '+';
      out += char(nevsky::king_letter(q));
    }
  return out;
}

std::string value_text(solver::WdlValue v) {
  std::string out(solver::wdl_name(v.wdl));
  if (v.wdl != solver::Wdl::draw) out += " in " + std::to_string(v.distance);
  return out;
}

// The coalitions in the order the ladder lists them: single players, pairs, threes.
std::vector<std::uint32_t> by_size() {
  std::vector<std::uint32_t> out;
  for (int size = 1; size < nevsky::kPlayers; ++size)
    for (std::uint32_t s = 1; s < nevsky::kEveryone; ++s)
      if (__builtin_popcount(s) == size) out.push_back(s);
  return out;
}

// Wins, draws and losses by split over `what`, and the longest of each.
void print_splits(const char* what, const std::vector<solver::CoalitionTally>& splits) {
  std::printf("Over %s, by split:\n\n", what);
  std::printf("| split | wins | draws | losses | longest win | longest loss |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const auto& t : splits)
    std::printf(
        "| %s vs %s | %llu | %llu | %llu | %d | %d |\n", coalition_name(t.coalition).c_str(),
        coalition_name(nevsky::kEveryone & ~t.coalition).c_str(), (unsigned long long)t.wins,
        (unsigned long long)t.draws, (unsigned long long)t.losses, t.longest_win, t.longest_loss);
  std::printf("\n");
  std::fflush(stdout);
}

void print_row(const std::string& name, const solver::CoalitionSolution& solution) {
  const auto& r = solution.report;
  std::printf("## %s\n\n", name.c_str());
  std::printf(
      "- positions %llu (canonical), links %llu, moves %llu, player renamings %llu, "
      "classes of coalitions labelled apart %llu\n",
      (unsigned long long)r.positions, (unsigned long long)r.links, (unsigned long long)r.moves,
      (unsigned long long)r.renamings, (unsigned long long)r.coalition_classes);
  std::printf("- explore %.2f s, label %.2f s, counted peak %s (%.1f bytes a position)\n",
              r.explore_seconds, r.solve_seconds, solver::size_text(r.peak_bytes).c_str(),
              double(r.peak_bytes) / double(r.positions));
  std::printf("- kingmaker positions %llu\n\n", (unsigned long long)r.kingmakers);
  std::printf("| coalition | value at the start | longest forced win (positions reached) |\n");
  std::printf("|---|---|---|\n");
  for (const std::uint32_t s : by_size()) {
    const int longest = r.longest_wins[s];
    std::printf("| %s | %s | %s |\n", coalition_name(s).c_str(),
                value_text(solution.root_values[s]).c_str(),
                longest < 0 ? "none" : std::to_string(longest).c_str());
  }
  std::printf("\nwinning coalitions at the start:");
  for (const std::uint32_t s : solution.root_winners) std::printf(" %s", coalition_name(s).c_str());
  std::printf("%s\n\n", solution.root_winners.empty() ? " none" : "");
  print_splits("the canonical positions (White to move in each)", r.splits);
}

// The row solved on the coalition tier solver instead: its blocks found from the start, every
// settled position of them solved, held in memory.
void print_tier_row(const nevsky::Game& game, const tablebase::CoalitionTierSolveOptions& options,
                    bool progress) {
  const auto clock = [] { return std::chrono::steady_clock::now(); };
  const auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  nevsky::CoalitionTierSpace space(game.variant());
  const auto start = clock();
  space.discover(options.threads, options.dir, [&](int tiers, std::uint64_t entries) {
    if (progress && tiers % 50 == 0)
      std::fprintf(stderr, "discover: %d of %d tiers, %llu entries\n", tiers, space.tier_count(),
                   (unsigned long long)entries);
  });
  const auto discovered = clock();
  tablebase::CoalitionTierSolver<nevsky::CoalitionTierSpace> solver(space, options);
  solver.solve([&](int tiers, std::uint64_t entries) {
    if (progress && tiers % 50 == 0)
      std::fprintf(stderr, "solve: %d of %d tiers, %llu entries\n", tiers, space.tier_count(),
                   (unsigned long long)entries);
  });
  const auto solved = clock();
  const auto& r = solver.report();
  std::uint64_t blocks = 0, largest = 0;
  int used = 0;
  for (int t = 0; t < space.tier_count(); ++t) {
    blocks += space.block_count(t);
    largest = std::max(largest, space.tier_size(t));
    used += space.block_count(t) > 0;
  }
  std::printf("## %s (coalition tiers)\n\n", game.variant().name().c_str());
  std::printf(
      "- positions %llu (reached, seen from the player to move), blocks %llu (%llu of them "
      "listed), tiers %d (largest %llu positions)\n",
      (unsigned long long)r.positions, (unsigned long long)blocks,
      (unsigned long long)space.sparse_blocks(), used, (unsigned long long)largest);
  std::printf(
      "- discover %.2f s, solve %.2f s; held at most %s of codes, %s of index, %s of "
      "positions found ahead in the reach; tier files %llu bytes, %d read back\n",
      seconds(start, discovered), seconds(discovered, solved),
      solver::size_text(r.peak_held_bytes).c_str(), solver::size_text(space.memory_bytes()).c_str(),
      solver::size_text(space.discovery_peak_bytes()).c_str(), (unsigned long long)r.file_bytes,
      r.tiers_reread);
  // The tier whose solve holds the most: itself and its children.
  std::uint64_t most = 0;
  int at_most = 0;
  for (int t = 0; t < space.tier_count(); ++t) {
    std::uint64_t need = space.tier_size(t);
    for (int c : space.tier_children(t)) need += space.tier_size(c);
    if (need > most) most = need, at_most = t;
  }
  std::uint64_t widest = 0;  // the most positions of the row in one block
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t b = 0; b < space.block_count(t); ++b) {
      const auto range = space.block_range(t, b);
      widest = std::max(widest, range.end - range.begin);
    }
  std::printf("- the largest block holds %llu positions of the row; kingmaker positions %llu\n",
              (unsigned long long)widest, (unsigned long long)r.kingmakers);
  std::printf(
      "- the most a tier's solve needs: %s (%llu positions: %llu its own, %zu child "
      "tiers)\n\n",
      space.tier_name(at_most).c_str(), (unsigned long long)most,
      (unsigned long long)space.tier_size(at_most), space.tier_children(at_most).size());
  const auto at = space.locate(game.start());
  std::printf("| coalition | value at the start |\n|---|---|\n");
  for (const std::uint32_t s : by_size())
    std::printf("| %s | %s |\n", coalition_name(s).c_str(),
                value_text(tablebase::coalition_value(solver.code(at, s))).c_str());
  std::printf("\n");
  print_splits("the positions (seats from the player to move, named as White's)", r.splits);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Solves Nevsky variants by coalitions, one ladder row each (results/nevsky.md)");
  double memory_gb = 8;
  bool progress = false, tiers = false;
  int threads = 2;
  std::string tables;
  double budget_mb = 0;
  std::vector<std::string> variants;
  app.add_option("--memory", memory_gb, "cap on the solver's counted memory, in GB")
      ->check(CLI::Range(0.001, 1024.0));
  app.add_flag("--progress", progress, "progress on stderr");
  app.add_flag("--tiers", tiers, "solve on the coalition tier solver (in memory) instead");
  app.add_option("--threads", threads, "threads of the tier solver")->check(CLI::Range(1, 256));
  app.add_option("--tables", tables, "with --tiers: write the tier files to this folder");
  app.add_option("--budget", budget_mb, "with --tables: the codes held at most, in MB");
  app.add_option("variants", variants, "variants, e.g. nevsky:4x4:3+1:pairs")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "nevsky_ladder: " << e.what() << "\n";
    return 2;
  }
  std::vector<nevsky::Game> games;
  try {
    for (const std::string& v : variants) games.emplace_back(nevsky::parse_variant(v));
  } catch (const nevsky::ParseError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  for (const nevsky::Game& game : games) {
    if (!game.keys_fit()) {
      std::cerr << "variant '" << game.variant().name()
                << "': its positions do not fit 128-bit keys; 1 or 3 men a player, or 6 up to "
                   "7x7\n";
      return 2;
    }
    if (tiers) {
      try {
        tablebase::CoalitionTierSolveOptions options;
        options.threads = threads;
        options.dir = tables;
        if (budget_mb > 0) options.budget_bytes = std::uint64_t(budget_mb * double(1 << 20));
        print_tier_row(game, options, progress);
      } catch (const std::invalid_argument& e) {
        std::cerr << e.what() << "\n";
        return 2;
      }
      continue;
    }
    try {
      const solver::CoalitionSolution solution = solver::solve_coalitions(
          game, game.start(), {std::uint64_t(memory_gb * double(1ull << 30)), progress});
      print_row(game.variant().name(), solution);
    } catch (const solver::CyclicMemoryError& e) {
      std::cerr << game.variant().name() << ": " << e.what() << "\n";
      return 1;
    }
  }
  return 0;
}
