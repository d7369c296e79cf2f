// Teeko's tier space (rules/teeko/solve/tier_space.h) under the loopy tier solver, checked
// against what shares none of their code:
// - the space: every entry's position located back to it (or to a twin), every entry's children
//   the rules' moves made and located;
// - the values: the hash-map retrograde (solver/cyclic_retrograde.h) on every position it reaches
//   of the 4x4 rows, with the same counts of reached positions, values and longest distances, on
//   one thread and two; the plain fixed point of tests/fixed_point.h;
// - the tables: written, read back and verified against the children and the forward search.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rules/teeko/game.h"
#include "rules/teeko/notation.h"
#include "rules/teeko/solve/tier_space.h"
#include "tablebase/loopy_tables.h"
#include "tablebase/loopy_tier_solver.h"
#include "tablebase/loopy_verify.h"
#include "tests/fixed_point.h"
#include "tests/loopy_checks.h"
#include "tests/test_support.h"

namespace {

using tablebase::LoopySolveOptions;
using tablebase::LoopyTierSolver;
using teeko::Game;
using teeko::TierSpace;

Game game_of(const char* variant) {
  return Game(teeko::parse_variant(variant));
}

LoopySolveOptions in_memory(int threads = 1) {
  LoopySolveOptions o;
  o.memory_bytes = std::uint64_t{4} << 30;
  o.threads = threads;
  return o;
}

}  // namespace

TEST_CASE("teeko tier space: every entry's position is located at the entry or a twin",
          "[loopy][teeko]") {
  for (const char* v : {"teeko:4x4", "teeko"}) {
    INFO(v);
    const TierSpace space(game_of(v));
    // The 5x5 board's 12 million entries: every 101st.
    const auto c = test_support::check_locate(space, space.game().size() == 4 ? 1 : 101);
    CHECK(c.misplaced == 0);
    CHECK(c.with_twins > 0);  // the empty board is its own image
    CHECK(c.checked > 10000);
  }
}

TEST_CASE("teeko tier space: each entry's children are its moves made and located",
          "[loopy][teeko]") {
  const TierSpace space(game_of("teeko:4x4"));
  CHECK(test_support::children_mislocated(space) == 0);
  // The full board's moves from one entry reach distinct entries (kDistinctInBlock).
  TierSpace::Cursor cursor;
  std::uint64_t repeated = 0;
  for (std::uint64_t i = 0; i < space.tier_size(0); ++i) {
    std::vector<std::uint64_t> children;
    space.for_each_child(cursor, 0, i, [&](tablebase::Location c) { children.push_back(c.index); });
    std::sort(children.begin(), children.end());
    repeated += std::adjacent_find(children.begin(), children.end()) != children.end();
  }
  CHECK(repeated == 0);
}

TEST_CASE("teeko tier space: the unmoves are the full board's moves taken back", "[loopy][teeko]") {
  for (const char* v : {"teeko:4x4", "teeko:4x4:advanced"}) {
    INFO(v);
    test_support::check_unmoves_against_moves(TierSpace(game_of(v)), true);
  }
}

TEST_CASE("teeko loopy solve: unmoves and sweeps give the same codes on every entry",
          "[loopy][teeko]") {
  const TierSpace space(game_of("teeko:4x4"));
  LoopySolveOptions unmoves = in_memory(), sweeps = in_memory();
  unmoves.predecessors = tablebase::LoopyPredecessors::unmoves;
  sweeps.predecessors = tablebase::LoopyPredecessors::sweeps;
  LoopyTierSolver<TierSpace> a(space, unmoves), b(space, sweeps);
  CHECK(a.run().entries == b.run().entries);
  std::uint64_t differ = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
      differ += a.code({t, i}) != b.code({t, i});
  CHECK(differ == 0);
}

TEST_CASE("teeko loopy solve: every reached position as the hash-map retrograde has it",
          "[loopy][teeko][parallel]") {
  for (const char* v : {"teeko:4x4", "teeko:4x4:advanced"})
    for (const int threads : {1, 2}) {
      INFO(v << ", " << threads << " threads");
      const Game g = game_of(v);
      const teeko::Position start = g.start();
      test_support::compare_loopy_with_hashed(
          v, g, std::span(&start, 1), TierSpace(g), in_memory(threads),
          [&](const teeko::Position& p) { return teeko::to_fen(g, p); });
    }
}

TEST_CASE("teeko loopy solve: a plain fixed point over the positions play reaches agrees",
          "[loopy][teeko]") {
  const Game g = game_of("teeko:4x4");
  const test_support::FixedPoint<Game> plain(g, {g.start()});
  const TierSpace space(g);
  LoopyTierSolver<TierSpace> solver(space, in_memory());
  const auto report = solver.run();
  CHECK(report.reached.positions == plain.size());
  std::uint64_t mismatches = 0;
  for (const auto& [key, value] : plain.values())
    mismatches += tablebase::loopy_value(tablebase::loopy_class_code(
                      space, space.locate(g.from_key(key)),
                      [&](tablebase::Location l) { return solver.code(l); })) != value;
  CHECK(mismatches == 0);
  CHECK(report.reached.draws > 0);
  CHECK(plain.sweeps() > 2);  // cycles: the values took sweeps to settle
}

TEST_CASE("teeko loopy tables: written, read back and verified", "[loopy][teeko][tables]") {
  const Game g = game_of("teeko:4x4");
  const TierSpace space(g);
  LoopyTierSolver<TierSpace> reference(space, in_memory());
  const auto expected = reference.run();
  const test_support::TempDir tmp("teeko_tables");
  LoopySolveOptions o = in_memory(2);
  o.dir = tmp.dir;
  const auto written = LoopyTierSolver<TierSpace>(space, o).run();
  CHECK(written.tiers_solved == space.tier_count());
  CHECK(written.reached == expected.reached);
  tablebase::LoopyTables<TierSpace> tables(space, tmp.dir);
  std::uint64_t differ = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      const auto probed = tables.probe(space.unrank(t, i));
      differ += reference.reached({t, i}) &&
                (!probed || *probed != tablebase::loopy_value(reference.code({t, i})));
    }
  CHECK(differ == 0);
  tablebase::LoopyVerifyOptions checks;
  checks.children_samples = 5000;
  checks.search_samples = 50;
  const auto v = tablebase::verify_loopy_tables(
      tables, std::max(expected.reached.longest_win, expected.reached.longest_loss), checks);
  CHECK(v.children_mismatches == 0);
  CHECK(v.search_mismatches == 0);
  CHECK(v.children_checked > 0);
  CHECK(v.searched > 0);
}
