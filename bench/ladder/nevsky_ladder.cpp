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
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "rules/nevsky/game.h"
#include "rules/nevsky/parse_error.h"
#include "rules/nevsky/player.h"
#include "rules/nevsky/variant.h"
#include "solver/coalition_solve.h"
#include "solver/counted_memory.h"
#include "solver/size_text.h"
#include "solver/wdl.h"

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
  std::printf("Over the canonical positions (White to move in each), by split:\n\n");
  std::printf("| split | wins | draws | losses | longest win | longest loss |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const auto& t : r.splits)
    std::printf(
        "| %s vs %s | %llu | %llu | %llu | %d | %d |\n", coalition_name(t.coalition).c_str(),
        coalition_name(nevsky::kEveryone & ~t.coalition).c_str(), (unsigned long long)t.wins,
        (unsigned long long)t.draws, (unsigned long long)t.losses, t.longest_win, t.longest_loss);
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Solves Nevsky variants by coalitions, one ladder row each (results/nevsky.md)");
  double memory_gb = 8;
  bool progress = false;
  std::vector<std::string> variants;
  app.add_option("--memory", memory_gb, "cap on the solver's counted memory, in GB")
      ->check(CLI::Range(0.001, 1024.0));
  app.add_flag("--progress", progress, "progress on stderr");
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
