// The coalition solver (solver/coalition_retrograde.h) checked on every position a game reaches
// from given roots against the plain fixed point (coalition_fixed_point.h): the comparison the
// toy games' and Nevsky's tests share.
#pragma once

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "solver/coalition_game.h"
#include "solver/coalition_retrograde.h"
#include "solver/coalition_solve.h"
#include "solver/wdl.h"
#include "tests/coalition_fixed_point.h"

namespace test_support {

inline std::string wdl_text(solver::WdlValue v) {
  return std::string(solver::wdl_name(v.wdl)) + " in " + std::to_string(v.distance);
}

// What the positions checked held, so that a test can say its cases were there.
struct Seen {
  std::uint64_t positions = 0, finished_draws = 0, endless_draws = 0;
  std::uint64_t alone_wins = 0, alone_losses = 0, pair_wins = 0, pair_draws = 0;
  std::uint64_t kingmakers = 0;
  // Positions where some coalition's value differs from its value at the first position of the
  // same symmetry class: there a solver that ignored the renamings would be wrong.
  std::uint64_t renamed_values = 0;
  int longest = 0;
};

// Solves the game from the roots and checks, against the plain fixed point on every position it
// reaches (every raw position, no symmetry), every coalition's value and distance, the winning
// coalitions, each coalition's longest win and the kingmaker count, and the first root's values by
// the entry point (coalition_solve.h); and that the game's canonical forms joined positions and
// renamed players.
template <solver::CoalitionGame G>
Seen check_coalitions(const G& game, const std::vector<typename G::Position>& roots) {
  using Key = typename G::Key;
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return std::size_t(k.mix()); }
  };
  const solver::CoalitionRetrograde<G> solved(game, roots, {std::uint64_t{1} << 30, false});
  const CoalitionFixedPoint<G> fixed(game, roots);
  const std::uint32_t everyone = (1u << game.players()) - 1;
  Seen seen;
  std::uint64_t wrong = 0, wrong_lists = 0;
  std::vector<int> longest(everyone, -1);               // each coalition's, by the fixed point
  std::unordered_set<Key, KeyHash> kingmakers;          // canonical keys
  std::unordered_map<Key, std::size_t, KeyHash> first;  // canonical key -> its first position
  const auto& positions = fixed.positions();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const auto& p = positions[i];
    const Key key = game.canonical_key(p);
    const std::size_t j = first.try_emplace(key, i).first->second;
    for (std::uint32_t s = 1; s < everyone; ++s)
      if (fixed.value(i, s) != fixed.value(j, s)) {
        ++seen.renamed_values;
        break;
      }
    if (fixed.kingmaker(i)) kingmakers.insert(key);
    std::vector<std::uint32_t> winners;
    for (std::uint32_t s = 1; s < everyone; ++s) {
      const solver::WdlValue expected = fixed.value(i, s);
      const auto value = solved.value(p, s);
      if (!value || *value != expected) {
        if (!wrong++)
          FAIL_CHECK("position " << i << ", coalition " << s << ": solver "
                                 << (value ? wdl_text(*value) : "unreached") << ", fixed point "
                                 << wdl_text(expected));
        continue;
      }
      if (expected.wdl == solver::Wdl::win) {
        winners.push_back(s);
        longest[s] = std::max(longest[s], expected.distance);
        seen.longest = std::max(seen.longest, expected.distance);
      }
      const int size = std::popcount(s);
      if (expected.wdl == solver::Wdl::draw) {
        (fixed.finished(i) ? seen.finished_draws : seen.endless_draws) += 1;
        seen.pair_draws += size == 2;
      }
      seen.alone_wins += size == 1 && expected.wdl == solver::Wdl::win;
      seen.alone_losses += size == 1 && expected.wdl == solver::Wdl::loss;
      seen.pair_wins += size == 2 && expected.wdl == solver::Wdl::win;
    }
    wrong_lists += solved.winning_coalitions(p) != winners;
  }
  CHECK(wrong == 0);
  CHECK(wrong_lists == 0);
  const auto& r = solved.report();
  CHECK(r.positions == first.size());
  CHECK(r.positions < positions.size());  // the symmetries joined positions
  CHECK(r.kingmakers == kingmakers.size());
  for (std::uint32_t s = 1; s < everyone; ++s) {
    INFO("coalition " << s);
    const auto solver_longest = solved.longest_win(s);
    CHECK(solver_longest.value_or(-1) == longest[s]);
  }
  std::uint64_t tallied = 0;
  for (const auto& t : r.splits) {
    CHECK(t.wins + t.draws + t.losses == r.positions);
    tallied += t.wins;
  }
  CHECK(tallied > 0);
  CHECK(r.splits.size() == (std::size_t(1) << (game.players() - 1)) - 1);
  CHECK(r.renamings > 1);  // links were renamed
  CHECK(r.peak_bytes >= solved.held_bytes());
  // The entry point for front ends gives the first root's values and winners.
  const solver::CoalitionSolution solution =
      solver::solve_coalitions(game, roots.front(), {std::uint64_t{1} << 30, false});
  const auto root = fixed.find(game.raw_key(roots.front()));
  REQUIRE(root.has_value());
  std::vector<std::uint32_t> root_winners;
  for (std::uint32_t s = 1; s < everyone; ++s) {
    CHECK(solution.root_values[s] == fixed.value(*root, s));
    if (fixed.value(*root, s).wdl == solver::Wdl::win) root_winners.push_back(s);
  }
  CHECK(solution.root_winners == root_winners);
  if (roots.size() == 1) CHECK(solution.report.positions == r.positions);
  seen.positions = positions.size();
  seen.kingmakers = kingmakers.size();
  return seen;
}

}  // namespace test_support
