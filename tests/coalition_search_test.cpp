// The forward search per coalition (solver/coalition_search.h) against the plain fixed point
// (tests/coalition_fixed_point.h) on every position of tiny rows: every coalition's win and loss
// with its exact distance found within the row's longest distance, draws left undecided, a
// search cut shorter deciding exactly the values within its depth, and a claimed value (as verify
// checks a table's) accepted when true and refused, with the answer that tells, when not; and a
// question past its node budget left open.
#include "solver/coalition_search.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/nevsky/game.h"
#include "rules/nevsky/variant.h"
#include "tests/coalition_check.h"
#include "tests/coalition_fixed_point.h"
#include "tests/ring_game.h"

namespace {

using solver::Wdl;
using test_support::wdl_text;

constexpr std::uint64_t kPlenty = std::uint64_t{1} << 28;

// refutation() at p for coalition s (of everyone's bits), whose true value is `truth`, with draws
// checked to d plies: the true value accepted (a forced one when it lies within d; a draw always,
// nothing being forced at any depth), and refused with the answer that tells: the value one ply
// longer or shorter, a draw claimed for a result forced within d, a win or loss claimed for a draw.
template <solver::CoalitionGame G>
void check_claims(solver::CoalitionSearch<G>& search, const typename G::Position& p,
                  std::uint32_t everyone, std::uint32_t s, solver::WdlValue truth, int d) {
  INFO("coalition " << s << ", value " << wdl_text(truth) << ", searched to " << d);
  const std::uint32_t rest = everyone & ~s;
  if (truth.wdl == Wdl::draw) {
    CHECK(!search.refutation(p, s, truth, d));
    CHECK(search.refutation(p, s, {Wdl::win, d}, d) == solver::CoalitionAnswer{s, d, false});
    CHECK(search.refutation(p, s, {Wdl::loss, 0}, d) == solver::CoalitionAnswer{rest, 0, false});
    return;
  }
  if (truth.distance > d) return;
  const std::uint32_t winner = truth.wdl == Wdl::win ? s : rest;
  CHECK(!search.refutation(p, s, truth, d));
  CHECK(search.refutation(p, s, {truth.wdl, truth.distance + 1}, d) ==
        solver::CoalitionAnswer{winner, truth.distance, true});
  if (truth.distance > 0)
    CHECK(search.refutation(p, s, {truth.wdl, truth.distance - 1}, d) ==
          solver::CoalitionAnswer{winner, truth.distance - 1, false});
  CHECK(search.refutation(p, s, {Wdl::draw, 0}, d) == solver::CoalitionAnswer{winner, d, true});
}

// Searches every position reached from the roots to `depth` plies (the row's longest distance when
// none is given) with one search object (its table kept across positions: its entries are facts)
// and compares each coalition with the fixed point: a value within the depth found exactly, any
// other value (a draw, or a longer win) left undecided. Returns how many values were decided.
template <solver::CoalitionGame G>
std::uint64_t check_search(const G& game, const std::vector<typename G::Position>& roots,
                           std::optional<int> depth = std::nullopt) {
  const test_support::CoalitionFixedPoint<G> fixed(game, roots);
  const std::uint32_t everyone = (1u << game.players()) - 1;
  int longest = 0;
  const auto& positions = fixed.positions();
  for (std::size_t i = 0; i < positions.size(); ++i)
    for (std::uint32_t s = 1; s < everyone; ++s)
      if (fixed.value(i, s).wdl != Wdl::draw)
        longest = std::max(longest, fixed.value(i, s).distance);
  const int d = depth.value_or(longest);
  INFO("searched to " << d << " plies; the row's longest distance " << longest);

  solver::CoalitionSearch<G> search(game, kPlenty);
  std::uint64_t wrong = 0, decided = 0, undecided = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const solver::CoalitionBounded found = search.analyze(positions[i], {d, 0});
    REQUIRE(found.stop == solver::SearchStop::none);
    // One coalition's claimed value alone, as verify checks a stored one, on some positions.
    if (i % 7 == 0)
      for (std::uint32_t s = 1; s < everyone; ++s)
        check_claims(search, positions[i], everyone, s, fixed.value(i, s), d);
    for (std::uint32_t s = 1; s < everyone; ++s) {
      const solver::WdlValue expected = fixed.value(i, s);
      const bool within = expected.wdl != Wdl::draw && expected.distance <= d;
      const bool right = within ? found.values[s] == expected : !found.values[s];
      if (!right && !wrong++)
        FAIL_CHECK("position " << i << ", coalition " << s << ": search "
                               << (found.values[s] ? wdl_text(*found.values[s]) : "undecided")
                               << ", fixed point " << wdl_text(expected));
      (within ? decided : undecided) += 1;
    }
    // The depth reached is the asked one unless every coalition was decided sooner.
    if (std::any_of(found.values.begin() + 1, found.values.end() - 1,
                    [](const auto& v) { return !v.has_value(); }))
      CHECK(found.depth == d);
  }
  CHECK(wrong == 0);
  CHECK(search.nodes() > 0);
  return decided;
}

}  // namespace

TEST_CASE("coalition search: toy rings, every position, wins and losses exact, draws undecided",
          "[coalition][coalition-search]") {
  for (const bool pairs : {false, true}) {
    INFO((pairs ? "pairs" : "free-for-all"));
    const test_support::RingGame game(4, 2, pairs);
    CHECK(check_search(game, game.all_positions(1)) > 0);
  }
  const test_support::RingGame three(3, 2, false);
  CHECK(check_search(three, three.all_positions(2)) > 0);
}

TEST_CASE("coalition search: nevsky's 3x3 rows, every position against the fixed point",
          "[coalition][coalition-search][nevsky]") {
  for (const char* row :
       {"nevsky:3x3:1", "nevsky:3x3:1+1", "nevsky:3x3:1:pairs", "nevsky:3x3:1+1:pairs"}) {
    INFO(row);
    const nevsky::Game game(nevsky::parse_variant(row));
    CHECK(check_search(game, {game.start()}) > 0);
  }
}

TEST_CASE("coalition search: a shorter search decides exactly the values within its depth",
          "[coalition][coalition-search][nevsky]") {
  const nevsky::Game game(nevsky::parse_variant("nevsky:3x3:1"));
  const std::uint64_t full = check_search(game, {game.start()});
  const std::uint64_t cut = check_search(game, {game.start()}, 3);
  CHECK(cut > 0);
  CHECK(cut < full);  // some values lie deeper than 3 plies
}

TEST_CASE("coalition search: a table too small stops the search, saying so",
          "[coalition][coalition-search][nevsky]") {
  const nevsky::Game game(nevsky::parse_variant("nevsky:4x4:1"));
  solver::CoalitionSearch<nevsky::Game> search(game, 1024);
  const solver::CoalitionBounded found = search.analyze(game.start(), {40, 0});
  CHECK(found.stop == solver::SearchStop::memory);
  CHECK(search.table_clears() > 0);
  CHECK_THROWS_AS(search.forces_win_within(game.start(), 1, 40), solver::SearchMemoryError);
}

TEST_CASE("coalition search: a question past its node budget is left open, never answered",
          "[coalition][coalition-search][nevsky]") {
  const nevsky::Game game(nevsky::parse_variant("nevsky:3x3:1"));
  const test_support::CoalitionFixedPoint<nevsky::Game> fixed(game, {game.start()});
  int longest = 0;
  for (std::size_t i = 0; i < fixed.positions().size(); ++i)
    for (std::uint32_t s = 1; s < 15; ++s)
      if (fixed.value(i, s).wdl != Wdl::draw)
        longest = std::max(longest, fixed.value(i, s).distance);
  // The start's value for White alone, confirmed by a search of many nodes.
  const std::optional<int> start = fixed.find(game.raw_key(game.start()));
  REQUIRE(start);
  const solver::WdlValue truth = fixed.value(std::size_t(*start), 1);
  solver::CoalitionSearch<nevsky::Game> search(game, kPlenty, false);
  CHECK_THROWS_AS(search.refutation(game.start(), 1, truth, longest, 10),
                  solver::SearchNodeBudgetError);
  const std::uint64_t stopped_after = search.nodes();
  CHECK(stopped_after <= 11);
  // Without a budget, and with one the questions fit in, the claim is confirmed and a wrong one
  // refused.
  CHECK(!search.refutation(game.start(), 1, truth, longest));
  const std::uint64_t needed = search.nodes() - stopped_after;
  CHECK(needed > 10);
  solver::CoalitionSearch<nevsky::Game> fresh(game, kPlenty, false);
  CHECK(!fresh.refutation(game.start(), 1, truth, longest, needed + 1));
  CHECK(truth.wdl != Wdl::draw);  // so that the value one ply longer is wrong
  CHECK(fresh.refutation(game.start(), 1, {truth.wdl, truth.distance + 1}, longest));
}
