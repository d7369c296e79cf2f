// The bounded forward search for games with cycles (solver/cyclic_search.h) against the plain fixed
// point (tests/fixed_point.h), which shares nothing with it but the game: on graph games with
// cycles, self-loops and draws, and on every position of small Spock ladder rows. For every depth
// bound D the search must give the exact value and distance of each position whose true distance
// is at most D, and "nothing forced within D" for every other one, draws included.
#include "solver/cyclic_search.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "rules/spock/material.h"
#include "rules/spock/notation.h"
#include "tests/fixed_point.h"
#include "tests/graph_game.h"

namespace {

using solver::Wdl;
using solver::WdlValue;
using test_support::Graph;
using test_support::GraphGame;

constexpr std::uint64_t kPlenty = std::uint64_t{1} << 30;

// What a search bounded to d plies must say of a position whose true value is v.
std::optional<WdlValue> within(WdlValue v, int d) {
  if (v.wdl == Wdl::draw || v.distance > d) return std::nullopt;
  return v;
}

std::string text(std::optional<WdlValue> v) {
  if (!v) return "nothing forced";
  return std::string(solver::wdl_name(v->wdl)) + " in " + std::to_string(v->distance);
}

int longest(const std::vector<std::pair<GraphGame::Key, WdlValue>>& values) {
  int n = 0;
  for (const auto& [key, v] : values) n = std::max(n, v.distance);
  return n;
}

// Checks solve and analyze on both copies of every node the fixed point reached, at every bound
// from 0 to two past the longest distance, with one search (its table shared by all questions)
// and, for analyze, a fresh one each time.
void check_graph(const Graph& g, const std::vector<int>& roots) {
  const GraphGame game(g);
  std::vector<GraphGame::Position> root_positions;
  for (int r : roots) root_positions.push_back({r, 0});
  const test_support::FixedPoint<GraphGame> truth(game, root_positions);
  const auto values = truth.values();
  const int top = longest(values) + 2;
  solver::CyclicSearch<GraphGame> shared(game, kPlenty);
  for (const auto& [key, value] : values) {
    const int node = int(key.lo);
    for (int copy = 0; copy < 2; ++copy) {
      const GraphGame::Position p{node, copy};
      for (int d = 0; d <= top; ++d) {
        INFO("node " << node << " copy " << copy << " bound " << d << ", truth " << text(value));
        const auto r = shared.solve(p, {d, 0});
        INFO("search: " << text(r.value));
        CHECK(r.value == within(value, d));
        CHECK(r.stop == solver::SearchStop::none);
        CHECK(r.depth == (r.value ? r.value->distance : d));
        solver::CyclicSearch<GraphGame> fresh(game, kPlenty);
        const auto a = fresh.analyze(p, {d, 0});
        CHECK(a.value == within(value, d));
        if (g.terminal[node]) {
          CHECK(a.moves.empty());
          continue;
        }
        REQUIRE(a.moves.size() == g.children[node].size());
        for (const auto& m : a.moves) {
          const WdlValue child = *truth.value(game.canonical_key({g.children[node][m.move], 0}));
          CHECK(m.value == within(solver::mover_value(child), d));
        }
      }
    }
  }
}

// A graph with each case a bounded search must get right.
Graph hand_graph(std::vector<int>& roots) {
  Graph g;
  const int terminal = g.add_node(true);
  const int wins_at_once = g.add_node();
  g.add_edge(wins_at_once, terminal);
  const int self_loop = g.add_node();  // passes for ever: a draw
  g.add_edge(self_loop, self_loop);
  const int loop_and_win = g.add_node();  // the loop does not hide the win
  g.add_edge(loop_and_win, loop_and_win);
  g.add_edge(loop_and_win, terminal);
  const int repeat_rather_than_lose = g.add_node();
  g.add_edge(repeat_rather_than_lose, repeat_rather_than_lose);
  g.add_edge(repeat_rather_than_lose, wins_at_once);
  const int cycle_a = g.add_node(), cycle_b = g.add_node();  // a 2-cycle whose b may leave it
  g.add_edge(cycle_a, cycle_b);
  g.add_edge(cycle_b, cycle_a);
  const int lost_in_two = g.add_node();
  g.add_edge(lost_in_two, wins_at_once);
  g.add_edge(cycle_b, lost_in_two);   // so a is lost in 4 and b wins in 3, through the cycle
  const int no_moves = g.add_node();  // not marked terminal, but stuck: lost
  const int terminal_with_moves = g.add_node(true);
  g.add_edge(terminal_with_moves, wins_at_once);
  // A long forced win through cycles, down to the terminal node.
  const int ladder_top = add_cycle_ladder(g, terminal, 12);
  roots = {wins_at_once, self_loop, loop_and_win,        repeat_rather_than_lose,
           cycle_a,      no_moves,  terminal_with_moves, ladder_top};
  return g;
}

Graph random_graph(std::mt19937& rng) {
  Graph g;
  const int n = 1 + int(rng() % 30);
  const bool local = rng() % 2;  // edges to nearby nodes: long chains, long distances
  for (int v = 0; v < n; ++v) g.add_node(rng() % 7 == 0);
  for (int v = 0; v < n; ++v)
    for (int e = int(rng() % 4); e > 0; --e)
      g.add_edge(v, local ? std::clamp(v - 3 + int(rng() % 5), 0, n - 1) : int(rng() % n));
  return g;
}

// Every position of a Spock ladder row: the search at the row's longest distance and at the
// position's own distance gives the fixed point's value exactly (draws: nothing forced), and one
// ply short of it nothing (a loss in 0 excepted, which is found at any bound). Returns the number
// of positions checked.
std::size_t check_row(const std::string& row) {
  const spock::Material m = spock::parse_material(row);
  const spock::Game game(m.width, m.height);
  const test_support::FixedPoint<spock::Game> truth(game, spock::placements(m));
  int top = 0;
  for (const auto& [key, v] : truth.values()) top = std::max(top, v.distance);
  solver::CyclicSearch<spock::Game> search(game, kPlenty);
  std::uint64_t wrong = 0, draws = 0, decisive = 0;
  for (const auto& [key, v] : truth.values()) {
    const spock::Position p = game.from_key(key);
    const auto full = search.solve(p, {top, 0});
    // Just short of the distance (a draw: half way to the longest), where nothing is forced yet.
    const int short_bound = v.wdl == Wdl::draw ? top / 2 : std::max(0, v.distance - 1);
    const auto short_of = search.solve(p, {short_bound, 0});
    // At the distance itself, found (a draw: at the longest), by this search and, for some
    // positions, by a fresh one with nothing in its table.
    const int exact_bound = v.wdl == Wdl::draw ? top : v.distance;
    const auto exact = search.solve(p, {exact_bound, 0});
    const auto alone = (draws + decisive) % 50 == 0
                           ? solver::CyclicSearch<spock::Game>(game, kPlenty).solve(p, {top, 0})
                           : full;
    const bool ok = full.value == within(v, top) && full.stop == solver::SearchStop::none &&
                    short_of.value == within(v, short_bound) &&
                    exact.value == within(v, exact_bound) && alone.value == full.value;
    if (!ok && wrong++ < 5)
      FAIL_CHECK(row << " " << spock::to_fen(game, p) << ": truth " << text(v) << ", search "
                     << text(full.value) << " within " << top << ", " << text(short_of.value)
                     << " within " << short_bound << ", " << text(exact.value) << " within "
                     << exact_bound << ", alone " << text(alone.value));
    (v.wdl == Wdl::draw ? draws : decisive)++;
  }
  CHECK(wrong == 0);
  CHECK(draws > 0);  // the row holds both kinds
  CHECK(decisive > 0);
  return truth.size();
}

}  // namespace

TEST_CASE("cyclic search: a hand-made graph with cycles, self-loops and draws", "[cyclic-search]") {
  std::vector<int> roots;
  const Graph g = hand_graph(roots);
  check_graph(g, roots);
}

TEST_CASE("cyclic search: random graphs agree with the fixed point at every bound",
          "[cyclic-search]") {
  for (unsigned seed = 1; seed <= 200; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    const Graph g = random_graph(rng);
    std::vector<int> roots;
    for (int k = 1 + int(rng() % 3); k > 0; --k) roots.push_back(int(rng() % g.size()));
    check_graph(g, roots);
  }
}

TEST_CASE("cyclic search: every position of small Spock rows agrees with the fixed point",
          "[cyclic-search][spock]") {
  CHECK(check_row("spock:3x3:RK/rk") > 8000);
  CHECK(check_row("spock:3x3:PK/lk") > 8000);
  CHECK(check_row("spock:4x3:RK/rk") > 70000);
  CHECK(check_row("spock:3x3:RSK/rk") > 190000);
}

// Short forced results on the standard 5x5 board, checked by hand:
// - From the start, Blue's Spock leaping onto its own Rock on a2 (c1a2) loses in 2: Red's Paper
//   a5 slides south over its Rock on a4 and takes the Spock on a2, Blue's only one; c1e2 alike.
// - After 1. a1a3 e4e3 2. a3b3, Blue's Paper stands on b3, a knight's leap from Red's Spock on
//   c5, and Red wins in 3: c5b3 takes the Paper and leaves a second Red Spock on c5; the Spock
//   on b3 threatens Blue's only Spock on c1, which can take it (c1b3, and c5 takes back), or leap
//   onto its Rocks on a2 or e2 (Red's Papers on a5 and e5 take it there), and nothing else of
//   Blue's reaches b3. Red has no win in 1 (nothing of Red's reaches c1).
// - The designer's case, a Red Paper on b3 (or d3) with Blue to move: the same blow by Blue,
//   c1b3 (c1d3) wins in 3 (the colour mirror of the above, so the distance is the same).
TEST_CASE("cyclic search: short forced results on the 5x5 board, checked by hand",
          "[cyclic-search][spock]") {
  const auto start = spock::parse_fen(spock::start_fen());
  solver::CyclicSearch<spock::Game> search(start.game, kPlenty);
  const auto opening = search.analyze(start.position, {4, 0});
  int decided = 0;
  for (const auto& m : opening.moves) {
    const std::string name = spock::move_name(start.game, m.move);
    if (name == "c1a2" || name == "c1e2") {
      CHECK(m.value == WdlValue{Wdl::loss, 2});
      ++decided;
    }
  }
  CHECK(decided == 2);
  CHECK_FALSE(opening.value.has_value());

  const auto b3 = spock::parse_fen("psksp/rrrr1/1P2r/RRRRR/1SKSP b");
  CHECK(search.solve(b3.position, {9, 0}).value == WdlValue{Wdl::win, 3});
  CHECK_FALSE(search.solve(b3.position, {2, 0}).value.has_value());
  const auto a = solver::CyclicSearch<spock::Game>(b3.game, kPlenty).analyze(b3.position, {3, 0});
  CHECK(a.value == WdlValue{Wdl::win, 3});
  for (const auto& m : a.moves) {
    INFO(spock::move_name(b3.game, m.move) << ": " << text(m.value));
    if (spock::move_name(b3.game, m.move) == "c5b3")
      CHECK(m.value == WdlValue{Wdl::win, 3});
    else
      CHECK((!m.value || m.value->wdl == Wdl::loss));
  }

  for (const auto& [fen, blow] : {std::pair{"1sksp/rrrrr/1p3/RRRRR/PSKSP w", "c1b3"},
                                  std::pair{"psks1/rrrrr/3p1/RRRRR/PSKSP w", "c1d3"}}) {
    INFO(fen);
    const auto s = spock::parse_fen(fen);
    const auto r = solver::CyclicSearch<spock::Game>(s.game, kPlenty).analyze(s.position, {3, 0});
    CHECK(r.value == WdlValue{Wdl::win, 3});
    for (const auto& m : r.moves)
      if (spock::move_name(s.game, m.move) == blow) CHECK(m.value == WdlValue{Wdl::win, 3});
  }
}

TEST_CASE("cyclic search: a full table is emptied and the answers stay exact",
          "[cyclic-search][spock]") {
  const spock::Material m = spock::parse_material("spock:4x3:RK/rk");
  const spock::Game game(m.width, m.height);
  const test_support::FixedPoint<spock::Game> truth(game, spock::placements(m));
  int top = 0;
  for (const auto& [key, v] : truth.values()) top = std::max(top, v.distance);
  // Room for about a thousand positions: the table fills again and again.
  solver::CyclicSearch<spock::Game> small(game, 64 << 10);
  std::uint64_t wrong = 0, checked = 0;
  for (const auto& [key, v] : truth.values()) {
    if (checked++ % 7) continue;
    const auto r = small.solve(game.from_key(key), {top, 0});
    const bool bad = r.value != within(v, top) || r.stop != solver::SearchStop::none;
    if (bad && wrong++ < 3)
      FAIL_CHECK(spock::to_fen(game, game.from_key(key))
                 << ": truth " << text(v) << ", search " << text(r.value) << " stop "
                 << solver::search_stop_name(r.stop) << " depth " << r.depth);
  }
  CHECK(wrong == 0);
  CHECK(small.table_clears() > 10);
  CHECK(small.table_bytes() <= 64 << 10);
  // A question that alone needs more than the table holds stops the search, without a value.
  const auto start = spock::parse_fen(spock::start_fen());
  solver::CyclicSearch<spock::Game> tiny(start.game, 1 << 10);
  const auto r = tiny.solve(start.position, {9, 0});
  CHECK(r.stop == solver::SearchStop::memory);
  CHECK_FALSE(r.value.has_value());
  CHECK(r.depth < 9);
  const auto a = tiny.analyze(start.position, {9, 0});
  CHECK(a.stop == solver::SearchStop::memory);
  CHECK(a.depth < 9);
}

TEST_CASE("cyclic search: a time limit stops it with the depth it finished",
          "[cyclic-search][spock]") {
  const auto start = spock::parse_fen(spock::start_fen());
  solver::CyclicSearch<spock::Game> search(start.game, kPlenty);
  const auto began = std::chrono::steady_clock::now();
  const auto r = search.solve(start.position, {60, 0.3});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  CHECK(r.stop == solver::SearchStop::time);
  CHECK_FALSE(r.value.has_value());
  CHECK(r.depth >= 3);
  CHECK(r.depth < 60);
  CHECK(seconds < 3);
  // The bounds it proved stay true: a search without a limit agrees to the depth reached.
  CHECK_FALSE(search.solve(start.position, {r.depth, 0}).value.has_value());
}
