#include "solver/cyclic_retrograde.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "solver/forward_solver.h"
#include "solver/outcome.h"
#include "tests/countdown_game.h"
#include "tests/fixed_point.h"
#include "tests/graph_game.h"

namespace {

using solver::Wdl;
using solver::WdlValue;
using test_support::Graph;
using test_support::GraphGame;
using test_support::random_graph;

constexpr std::uint64_t kPlenty = std::uint64_t{1} << 30;

// Nodes the game reaches from the roots: play stops on terminal nodes.
std::vector<bool> reachable(const Graph& g, const std::vector<int>& roots) {
  std::vector<bool> seen(g.size(), false);
  std::vector<int> stack;
  const auto visit = [&](int v) {
    if (seen[v]) return;
    seen[v] = true;
    stack.push_back(v);
  };
  for (int r : roots) visit(r);
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    if (!g.terminal[v])
      for (int c : g.children[v]) visit(c);
  }
  return seen;
}

std::string text(WdlValue v) {
  return std::string(solver::wdl_name(v.wdl)) + " in " + std::to_string(v.distance);
}

// Better for the side to move: a win beats a draw beats a loss; the quicker win, the slower loss.
bool better(WdlValue a, WdlValue b) {
  if (a.wdl != b.wdl) return a.wdl > b.wdl;
  return a.wdl == Wdl::win ? a.distance < b.distance : a.distance > b.distance;
}

struct Tally {
  std::uint64_t wins = 0, draws = 0, losses = 0;
  int longest_win = 0, longest_loss = 0;
};

// Solves g from the roots and checks every node against the fixed point (fixed_point.h): its
// value (through both copies), whether it was reached (by a search of the graph itself), the
// report's counts, and each move's value for its mover. Returns the tally of the reached nodes'
// values.
Tally check_graph(const Graph& g, const std::vector<int>& roots) {
  const GraphGame game(g);
  std::vector<GraphGame::Position> root_positions;
  for (std::size_t i = 0; i < roots.size(); ++i) root_positions.push_back({roots[i], int(i % 2)});
  const solver::CyclicRetrograde<GraphGame> solved(game, root_positions, {kPlenty, false});
  const test_support::FixedPoint<GraphGame> fixed(game, root_positions);
  const std::vector<bool> reached = reachable(g, roots);
  std::vector<WdlValue> expected(g.size());
  for (int v = 0; v < g.size(); ++v) {
    const auto value = fixed.value(game.canonical_key({v, 0}));
    REQUIRE(value.has_value() == bool(reached[v]));
    if (value) expected[v] = *value;
  }
  Tally tally;
  std::uint64_t positions = 0;
  for (int v = 0; v < g.size(); ++v) {
    INFO("node " << v);
    const auto value = solved.value_of_key(game.canonical_key({v, 0}));
    REQUIRE(value.has_value() == bool(reached[v]));
    if (!reached[v]) continue;
    ++positions;
    INFO("solver: " << text(*value) << ", fixed point: " << text(expected[v]));
    CHECK(*value == expected[v]);
    if (value->wdl == Wdl::win) {
      ++tally.wins;
      tally.longest_win = std::max(tally.longest_win, value->distance);
    } else if (value->wdl == Wdl::loss) {
      ++tally.losses;
      tally.longest_loss = std::max(tally.longest_loss, value->distance);
    } else {
      ++tally.draws;
    }
    for (int copy = 0; copy < 2; ++copy) {
      const auto a = solved.analyze({v, copy});
      CHECK(a.value == expected[v]);
      if (g.terminal[v]) {
        CHECK(a.moves.empty());
        continue;
      }
      REQUIRE(a.moves.size() == g.children[v].size());
      WdlValue best{Wdl::loss, 0};  // what no move at all gives
      for (std::size_t m = 0; m < a.moves.size(); ++m) {
        const WdlValue child = expected[g.children[v][a.moves[m].move]];
        const WdlValue mover = a.moves[m].value;
        if (child.wdl == Wdl::draw) {
          CHECK(mover == WdlValue{Wdl::draw, 0});
        } else {
          CHECK(mover.wdl == (child.wdl == Wdl::win ? Wdl::loss : Wdl::win));
          CHECK(mover.distance == child.distance + 1);
        }
        if (m == 0 || better(mover, best)) best = mover;
      }
      CHECK(best == a.value);  // the best move gives the position's value
    }
  }
  const auto& r = solved.report();
  CHECK(r.positions == positions);
  CHECK(r.wins == tally.wins);
  CHECK(r.draws == tally.draws);
  CHECK(r.losses == tally.losses);
  CHECK(r.longest_win == tally.longest_win);
  CHECK(r.longest_loss == tally.longest_loss);
  return tally;
}

// A graph built to hold each case the solver must get right; the comments say what each node is
// for, and the test checks that the fixed point agrees that the case is there.
struct HandGraph {
  Graph g;
  int terminal, wins_at_once, self_loop_only, self_loop_and_win, repeat_rather_than_lose,
      lost_in_two, cycle_a, cycle_b, into_cycle_only, cycle_exit_a, cycle_exit_b,
      terminal_with_moves, no_moves, unreached, ladder_top;
  static constexpr int kLadder = 30;

  HandGraph() {
    terminal = g.add_node(true);
    wins_at_once = g.add_node();
    g.add_edge(wins_at_once, terminal);
    self_loop_only = g.add_node();  // can only pass: a draw by repetition
    g.add_edge(self_loop_only, self_loop_only);
    self_loop_and_win = g.add_node();  // the loop does not hide the win
    g.add_edge(self_loop_and_win, self_loop_and_win);
    g.add_edge(self_loop_and_win, terminal);
    repeat_rather_than_lose = g.add_node();  // passing for ever beats moving into a loss
    g.add_edge(repeat_rather_than_lose, repeat_rather_than_lose);
    g.add_edge(repeat_rather_than_lose, wins_at_once);
    lost_in_two = g.add_node();
    g.add_edge(lost_in_two, wins_at_once);
    g.add_edge(lost_in_two, wins_at_once);  // a repeated edge counts once
    cycle_a = g.add_node();                 // a two-cycle with no way out: draws
    cycle_b = g.add_node();
    g.add_edge(cycle_a, cycle_b);
    g.add_edge(cycle_b, cycle_a);
    into_cycle_only = g.add_node();  // the only move enters the drawn cycle
    g.add_edge(into_cycle_only, cycle_a);
    cycle_exit_a = g.add_node();  // a cycle whose only exit wins: b leaves it to lost_in_two
    cycle_exit_b = g.add_node();
    g.add_edge(cycle_exit_a, cycle_exit_b);
    g.add_edge(cycle_exit_b, cycle_exit_a);
    g.add_edge(cycle_exit_b, lost_in_two);
    terminal_with_moves = g.add_node(true);  // over, whatever its edges say
    g.add_edge(terminal_with_moves, lost_in_two);
    no_moves = g.add_node();   // not marked terminal, but stuck: lost
    unreached = g.add_node();  // no root leads here
    g.add_edge(unreached, terminal);
    // A long forced win through cycles, down to the terminal node.
    ladder_top = add_cycle_ladder(g, terminal, kLadder);
  }
  std::vector<int> roots() const {
    return {wins_at_once,    self_loop_only,         self_loop_and_win,   repeat_rather_than_lose,
            into_cycle_only, cycle_exit_a,           terminal_with_moves, no_moves,
            ladder_top,      repeat_rather_than_lose};
  }
};

}  // namespace

TEST_CASE("wdl: a move's value for its mover comes from the child's", "[cyclic]") {
  CHECK(solver::mover_value({Wdl::loss, 0}) == WdlValue{Wdl::win, 1});
  CHECK(solver::mover_value({Wdl::win, 5}) == WdlValue{Wdl::loss, 6});
  CHECK(solver::mover_value({Wdl::draw, 0}) == WdlValue{Wdl::draw, 0});
  CHECK(solver::wdl_name(Wdl::win) == "win");
  CHECK(solver::wdl_name(Wdl::draw) == "draw");
  CHECK(solver::wdl_name(Wdl::loss) == "loss");
}

TEST_CASE("cyclic retrograde: a hand-made graph with cycles, self-loops and draws", "[cyclic]") {
  const HandGraph h;
  const Tally tally = check_graph(h.g, h.roots());
  // The graph holds the cases it was built for (values from the fixed point).
  const GraphGame game(h.g);
  std::vector<GraphGame::Position> roots;
  for (int r : h.roots()) roots.push_back({r, 0});
  const test_support::FixedPoint<GraphGame> fixed(game, roots);
  const auto v = [&](int node) { return *fixed.value(game.canonical_key({node, 0})); };
  CHECK(v(h.self_loop_only).wdl == Wdl::draw);
  CHECK(v(h.repeat_rather_than_lose).wdl == Wdl::draw);
  CHECK(v(h.into_cycle_only).wdl == Wdl::draw);
  CHECK(v(h.cycle_exit_a).wdl == Wdl::loss);
  CHECK(v(h.cycle_exit_b).wdl == Wdl::win);
  CHECK(v(h.terminal_with_moves) == WdlValue{Wdl::loss, 0});
  CHECK(v(h.ladder_top) == WdlValue{Wdl::loss, 2 * HandGraph::kLadder});
  CHECK(tally.draws >= 5);
  CHECK(tally.longest_loss == 2 * HandGraph::kLadder);
}

TEST_CASE("cyclic retrograde: random graphs agree with the fixed point", "[cyclic]") {
  Tally all;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    const Graph g = random_graph(rng);
    std::vector<int> roots;
    for (int k = 1 + int(rng() % 3); k > 0; --k) roots.push_back(int(rng() % g.size()));
    const Tally t = check_graph(g, roots);
    all.wins += t.wins, all.draws += t.draws, all.losses += t.losses;
    all.longest_win = std::max(all.longest_win, t.longest_win);
    all.longest_loss = std::max(all.longest_loss, t.longest_loss);
  }
  // The graphs between them hold every kind of value, and some long ones.
  CHECK(all.wins > 600);
  CHECK(all.draws > 300);
  CHECK(all.losses > 600);
  CHECK(all.longest_win >= 7);
  CHECK(all.longest_loss >= 8);
}

TEST_CASE("cyclic retrograde: an acyclic game agrees with the forward solver's DTEs", "[cyclic]") {
  const test_support::CountdownGame game;
  constexpr int kStart = 300;  // games far longer than a byte of distance
  const std::vector<test_support::CountdownGame::Position> roots{{kStart}};
  const solver::CyclicRetrograde<test_support::CountdownGame> solved(game, roots, {kPlenty, false});
  solver::ForwardSolver<test_support::CountdownGame> forward(game, kPlenty);
  for (int n = 0; n <= kStart; ++n) {
    INFO("n = " << n);
    test_support::CountdownGame::Position p{n};
    const int dte = forward.dte(p);
    const auto value = solved.value(p);
    REQUIRE(value.has_value());
    CHECK(value->wdl == (solver::is_win(dte) ? Wdl::win : Wdl::loss));
    CHECK(value->distance == dte);
  }
  CHECK(solved.report().positions == kStart + 1);
  CHECK(solved.report().draws == 0);
  CHECK_FALSE(solved.value({kStart + 1}).has_value());
}

TEST_CASE("cyclic retrograde: refuses to pass the memory cap", "[cyclic]") {
  const HandGraph h;
  const GraphGame game(h.g);
  std::vector<GraphGame::Position> roots;
  for (int r : h.roots()) roots.push_back({r, 0});
  const std::uint64_t peak =
      solver::CyclicRetrograde<GraphGame>(game, roots, {kPlenty, false}).report().peak_bytes;
  // The cap it counted is enough, and it counts at least what building the reverse index holds:
  // per position both offsets and a counter, per link its id each way.
  const solver::CyclicRetrograde<GraphGame> solved(game, roots, {peak, false});
  const auto& r = solved.report();
  CHECK(r.peak_bytes == peak);
  CHECK(r.positions > 0);
  CHECK(peak >= r.positions * (8 + 8 + 4) + r.links * (4 + 4));
  // One byte less fails, and a tiny cap fails early, in the exploration, naming the numbers.
  CHECK_THROWS_AS(solver::CyclicRetrograde<GraphGame>(game, roots, {peak - 1, false}),
                  solver::CyclicMemoryError);
  try {
    solver::CyclicRetrograde<GraphGame>(game, roots, {2000, false});
    FAIL("a cap of 2000 bytes was accepted");
  } catch (const solver::CyclicMemoryError& e) {
    const std::string what = e.what();
    CHECK(what.find("memory cap of") != std::string::npos);
    CHECK(what.find("positions") != std::string::npos);
  }
}

TEST_CASE(
    "cyclic retrograde: a drop variant agrees with the fixed point everywhere and the forward "
    "solver along random games",
    "[cyclic]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::Position start = game.start();
  const solver::CyclicRetrograde<drop::Game> solved(game, {&start, 1}, {kPlenty, false});
  solver::ForwardSolver<drop::Game> forward(game, kPlenty);
  CHECK(solved.report().draws == 0);  // every move of a drop game shrinks it
  // Every position against the fixed point.
  const test_support::FixedPoint<drop::Game> fixed(game, {start});
  CHECK(solved.report().positions == fixed.size());
  std::uint64_t wrong = 0;
  for (const auto& [key, value] : fixed.values()) wrong += solved.value_of_key(key) != value;
  CHECK(wrong == 0);
  std::mt19937 rng(16);
  int checked = 0;
  for (int g = 0; g < 100; ++g) {
    drop::Position p = start;
    for (;;) {
      const auto a = solved.analyze(p);
      const int dte = forward.dte(p);
      INFO("game " << g << " at " << drop::to_fen(game, p));
      CHECK(a.value == WdlValue{solver::is_win(dte) ? Wdl::win : Wdl::loss, dte});
      ++checked;
      if (a.moves.empty()) break;
      for (const auto& m : a.moves) {
        const auto undo = game.make(p, m.move);
        const auto child = solver::move_outcome(forward.dte(p));
        game.unmake(p, m.move, undo);
        CHECK(m.value == WdlValue{child.win ? Wdl::win : Wdl::loss, child.dte});
      }
      game.make(p, a.moves[rng() % a.moves.size()].move);
    }
  }
  CHECK(checked > 500);
}
