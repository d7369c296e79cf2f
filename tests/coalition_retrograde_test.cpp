#include "solver/coalition_retrograde.h"

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "solver/cyclic_retrograde.h"
#include "tests/coalition_check.h"
#include "tests/coalition_fixed_point.h"
#include "tests/graph_game.h"
#include "tests/ring_game.h"
#include "tests/sides_as_players.h"
#include "tests/three_player_nim.h"

namespace {

using solver::Wdl;
using solver::WdlValue;
using test_support::check_coalitions;
using test_support::RingGame;
using test_support::Seen;

constexpr std::uint64_t kPlenty = std::uint64_t{1} << 30;

}  // namespace

TEST_CASE("coalition retrograde: three players on a ring, every position against the fixed point",
          "[coalition]") {
  for (const int per_player : {1, 2, 3}) {
    INFO(per_player << " cells a player");
    const RingGame game(3, per_player, false);
    const Seen seen = check_coalitions(game, game.all_positions(per_player == 2 ? 2 : 1));
    // The cases the solver must get right are there.
    if (per_player == 1) CHECK(seen.kingmakers > 0);  // on a ring of 3 cells every step captures
    CHECK(seen.alone_wins > 0);
    CHECK(seen.alone_losses > 0);
    CHECK(seen.pair_wins > 0);
    CHECK(seen.finished_draws > 0);  // stopped with players of both sides left
    CHECK(seen.endless_draws > 0);
    if (per_player > 1) CHECK(seen.longest >= 5);  // every step captures on 3 cells: short games
  }
}

TEST_CASE("coalition retrograde: four players on a ring, free-for-all and pairs, every position",
          "[coalition]") {
  for (const bool pairs : {false, true}) {
    INFO((pairs ? "pairs" : "free-for-all"));
    const RingGame game(4, 2, pairs);
    const Seen seen = check_coalitions(game, game.all_positions(1));
    CHECK(seen.renamed_values > 0);
    CHECK(seen.alone_wins > 0);
    CHECK(seen.pair_wins > 0);
    CHECK(seen.pair_draws > 0);
    CHECK(seen.finished_draws > 0);
    CHECK(seen.endless_draws > 0);
  }
}

TEST_CASE("coalition retrograde: four players on a longer ring, from the start only",
          "[coalition]") {
  const RingGame game(4, 3, false);
  const Seen seen = check_coalitions(game, {game.start(1)});
  CHECK(seen.alone_wins > 0);
  CHECK(seen.endless_draws > 0);
}

TEST_CASE("coalition retrograde: three-player nim, a kingmaker by hand", "[coalition]") {
  // Taking 1 or 2 tokens, the last taker winning: from 4 tokens the mover m loses whatever it does,
  // and chooses who wins: taking 1 leaves 3 to m + 1, whose every move gives m + 2 the last
  // tokens; taking 2 leaves 2, which m + 1 takes. From 3 the player after the mover wins whatever
  // the mover does, and at 1 or 2 the mover takes them: 4 is the only kingmaker.
  const test_support::ThreePlayerNim game(2);
  for (int mover = 0; mover < 3; ++mover) {
    const test_support::ThreePlayerNim::Position four{4, mover};
    const solver::CoalitionRetrograde<test_support::ThreePlayerNim> solved(game, {&four, 1},
                                                                           {kPlenty, false});
    CHECK(solved.report().positions == 5);  // the piles: the mover is renamed away
    CHECK(solved.report().kingmakers == 1);
    const std::uint32_t m = 1u << mover, next = 1u << (mover + 1) % 3,
                        after = 1u << (mover + 2) % 3;
    // No player alone forces a win from 4; any two do: m with m + 1 in 2 plies (m takes 2, m + 1
    // the rest), the others in 3 (the loser delaying).
    std::vector<std::uint32_t> pairs{m | next, m | after, next | after};
    std::sort(pairs.begin(), pairs.end());
    CHECK(solved.winning_coalitions(four) == pairs);
    CHECK(solved.value(four, m | next) == WdlValue{Wdl::win, 2});
    CHECK(solved.value(four, m | after) == WdlValue{Wdl::win, 3});
    CHECK(solved.value(four, next | after) == WdlValue{Wdl::win, 3});
    CHECK(solved.value(four, m) == WdlValue{Wdl::loss, 3});
    // Named as at the root: m + 2 wins in 2 from 3 tokens (m + 1 to move), m + 1 in 1 from 2, and
    // m in 1 from the 1 token that 4, 3, 2 can leave it; the piles alone cannot tell them apart.
    CHECK(solved.longest_win(after) == 2);
    CHECK(solved.longest_win(next) == 1);
    CHECK(solved.longest_win(m) == 1);
  }
  // Against the fixed point, every pile up to 30 and every coalition.
  std::vector<test_support::ThreePlayerNim::Position> roots{{30, 0}, {30, 1}, {30, 2}};
  const solver::CoalitionRetrograde<test_support::ThreePlayerNim> solved(game, roots,
                                                                         {kPlenty, false});
  const test_support::CoalitionFixedPoint<test_support::ThreePlayerNim> fixed(game, roots);
  std::uint64_t wrong = 0;
  std::set<int> kingmakers;  // piles
  for (std::size_t i = 0; i < fixed.positions().size(); ++i) {
    for (std::uint32_t s = 1; s < 7; ++s)
      wrong += solved.value(fixed.positions()[i], s) != fixed.value(i, s);
    if (fixed.kingmaker(i)) kingmakers.insert(fixed.positions()[i].pile);
  }
  CHECK(wrong == 0);
  CHECK(solved.report().kingmakers == kingmakers.size());
  CHECK(kingmakers == std::set<int>{4});  // as the hand's reasoning goes on: 5 and up have none
}

TEST_CASE(
    "coalition retrograde: a two-sided game as two players gives the two-sided values, both "
    "labellings on one exploration",
    "[coalition]") {
  using test_support::Graph;
  using test_support::GraphGame;
  using Sides = test_support::SidesAsPlayers<GraphGame>;
  std::uint64_t compared = 0, draws = 0;
  for (unsigned seed = 1; seed <= 200; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    const Graph g = test_support::random_graph(rng);
    const GraphGame game(g);
    const Sides sides(game);
    std::vector<GraphGame::Position> roots;
    std::vector<Sides::Position> side_roots;
    for (int k = 1 + int(rng() % 3); k > 0; --k) {
      roots.push_back({int(rng() % g.size()), k % 2});
      side_roots.push_back({roots.back(), k % 2});
    }
    // One exploration, labelled for coalitions, then two-sided (which frees the links).
    solver::CountedMemory memory(kPlenty, "test");
    solver::PositionGraph<Sides> graph(sides, side_roots, memory, false);
    graph.reverse();
    const solver::CoalitionValues coalitions = solver::label_coalitions(graph, memory, false);
    const std::vector<std::uint32_t> two = solver::label_sides(graph, memory, false);
    std::uint64_t wrong = 0;
    for (std::uint32_t id = 0; id < graph.positions(); ++id) {
      const int mover = graph.mover(id);
      wrong += coalitions.at(id, 1u << mover) != solver::unpack_wdl(two[id]);
      wrong += coalitions.at(id, 2u >> mover) != solver::opposite(solver::unpack_wdl(two[id]));
    }
    CHECK(wrong == 0);
    // And the solvers' queries, every node with either player to move, against the two-sided
    // solver on the game itself.
    const solver::CyclicRetrograde<GraphGame> two_sided(game, roots, {kPlenty, false});
    const solver::CoalitionRetrograde<Sides> as_players(sides, side_roots, {kPlenty, false});
    CHECK(as_players.report().positions == two_sided.report().positions);
    for (int v = 0; v < g.size(); ++v) {
      const auto expected = two_sided.value({v, 0});
      for (int side = 0; side < 2; ++side) {
        const auto value = as_players.value({{v, 1 - side}, side}, 1u << side);
        REQUIRE(value.has_value() == expected.has_value());
        if (!expected) continue;
        ++compared;
        draws += expected->wdl == Wdl::draw;
        INFO("node " << v << ", player " << side << " to move: coalition solver "
                     << test_support::wdl_text(*value) << ", two-sided "
                     << test_support::wdl_text(*expected));
        CHECK(*value == *expected);
        CHECK(as_players.value({{v, side}, side}, 2u >> side) == solver::opposite(*expected));
      }
    }
    CHECK(as_players.report().kingmakers == 0);  // two players: no third to crown
  }
  CHECK(compared > 2000);
  CHECK(draws > 300);
}

TEST_CASE("coalition retrograde: refuses to pass the memory cap, before the labelling starts",
          "[coalition]") {
  const RingGame game(3, 2, false);
  const std::vector<RingGame::Position> roots = game.all_positions(2);
  const auto peak =
      solver::CoalitionRetrograde<RingGame>(game, roots, {kPlenty, false}).report().peak_bytes;
  const solver::CoalitionRetrograde<RingGame> solved(game, roots, {peak, false});
  const auto& r = solved.report();
  CHECK(r.peak_bytes == peak);
  // The peak holds at least the labelling's arrays: a value per position and split, and for the
  // widest class (the three splits, which the turns join) a counter and a queue slot each.
  CHECK(r.coalition_classes == 1);
  CHECK(peak >= r.positions * 3 * (4 + 4 + 8));
  try {
    solver::CoalitionRetrograde<RingGame>(game, roots, {peak - 1, false});
    FAIL("one byte under the peak was accepted");
  } catch (const solver::CyclicMemoryError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("coalition retrograde needs more than the memory cap of") == 0);
    CHECK(what.find("the coalitions'") != std::string::npos);  // the labelling's arrays
  }
  try {
    solver::CoalitionRetrograde<RingGame>(game, roots, {2000, false});
    FAIL("a cap of 2000 bytes was accepted");
  } catch (const solver::CyclicMemoryError& e) {
    CHECK(std::string(e.what()).find("positions") != std::string::npos);
  }
}

TEST_CASE("coalition retrograde: coalitions are checked", "[coalition]") {
  const RingGame game(3, 2, false);
  const RingGame::Position start = game.start(1);
  const solver::CoalitionRetrograde<RingGame> solved(game, {&start, 1}, {kPlenty, false});
  CHECK_THROWS_AS(solved.value(start, 0), std::invalid_argument);
  CHECK_THROWS_AS(solved.value(start, 0b111), std::invalid_argument);
  CHECK_THROWS_AS(solved.value(start, 0b1000), std::invalid_argument);
  CHECK_THROWS_AS(solved.longest_win(0b111), std::invalid_argument);
  RingGame::Position elsewhere = game.start(2);
  CHECK_FALSE(solved.value(elsewhere, 1).has_value());
  CHECK_THROWS_AS(solved.winning_coalitions(elsewhere), std::invalid_argument);
}
