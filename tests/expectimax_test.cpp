#include "solver/expectimax.h"

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/spock/game.h"
#include "solver/chance.h"
#include "solver/forward_solver.h"
#include "solver/game_value.h"
#include "solver/outcome.h"
#include "solver/turn_order.h"
#include "tests/dice_race_game.h"
#include "tests/rational.h"
#include "tests/three_player_nim.h"

namespace {

using test_support::DiceRaceGame;
using test_support::DieFace;
using test_support::Rational;
using test_support::ThreePlayerNim;

constexpr std::uint64_t kTable = std::uint64_t{64} << 20;

// Today's games plug into the new interface as they are.
static_assert(solver::TurnOrderGame<drop::Game> && solver::TurnOrderGame<spock::Game>);
static_assert(solver::value_kind<drop::Game> == solver::ValueKind::win_loss);
static_assert(solver::value_kind<spock::Game> == solver::ValueKind::win_loss);
static_assert(solver::PointsGame<drop::Game> && !solver::ChanceGame<drop::Game>);
static_assert(solver::value_kind<DiceRaceGame> == solver::ValueKind::points);
static_assert(solver::ChanceGame<DiceRaceGame> && !solver::ChanceGame<ThreePlayerNim>);
static_assert(solver::points_players<ThreePlayerNim> == 3);

// A game whose terminal positions can be drawn says so by its terminal value's type, and is not a
// points game.
struct DrawnEnds {
  struct Position {
    int side_to_move;
  };
  solver::WdlValue terminal_value(const Position&) const { return {}; }
};
static_assert(solver::value_kind<DrawnEnds> == solver::ValueKind::win_draw_loss);
static_assert(solver::TurnOrderGame<DrawnEnds> && !solver::PointsGame<DrawnEnds>);

// --- the dice race, solved a second way ---------------------------------------------------------

// Expected points of the player about to roll, with counter a against the other's b, by a table
// filled bottom-up in order of a + b from the rules alone: no game object, no recursion, values
// from the mover's side (one number) instead of one per player.
class RaceTable {
 public:
  explicit RaceTable(const DiceRaceGame& game) : game_(game), n_(game.start_counter()) {
    roll_.assign(cell(n_ + 1, 0, false), Rational(0));
    decide_.assign(cell(n_ + 1, 0, false) * 7, Rational(0));
    std::int64_t total = 0;
    for (const DieFace& f : game.die()) total += f.weight;
    for (int sum = 2; sum <= 2 * n_; ++sum)
      for (int a = std::max(1, sum - n_); a <= std::min(n_, sum - 1); ++a)
        for (bool rerolled : {true, false}) {  // the first roll's choices need the second's value
          const int b = sum - a;
          Rational e(0);
          for (const DieFace& f : game.die()) {
            const Rational best = decide(a, b, rerolled, f.face);
            decide_[cell(a, b, rerolled) * 7 + f.face] = best;
            e = e + Rational(f.weight) * best;
          }
          roll_[cell(a, b, rerolled)] = e / Rational(total);
        }
  }
  // The mover's expected points before its roll, and after rolling face.
  Rational before_roll(int a, int b, bool rerolled) const { return roll_[cell(a, b, rerolled)]; }
  Rational after_roll(int a, int b, bool rerolled, int face) const {
    return decide_[cell(a, b, rerolled) * 7 + face];
  }
  // Whether taking the roll and rolling again were each strictly better somewhere: else the max
  // would go untested.
  bool choice_matters() const { return roll_was_better_ && again_was_better_; }

 private:
  std::size_t cell(int a, int b, bool rerolled) const {
    return (std::size_t(a) * (n_ + 1) + b) * 2 + rerolled;
  }
  // What the mover gets once its turn ends with its counter at a2 and the other's at b.
  Rational after(int a2, int b) const {
    if (a2 == 0) return Rational(b >= game_.gammon_at() ? 2 : 1);
    return -roll_[cell(b, a2, false)];
  }
  Rational decide(int a, int b, bool rerolled, int face) {
    std::vector<Rational> options;
    if (face <= a) options.push_back(after(a - face, b));
    if (face != 1) options.push_back(after(a - 1, b));
    if (!rerolled && a > 1) {
      const Rational again = roll_[cell(a - 1, b, true)];
      if (face <= a && again < options[0]) roll_was_better_ = true;
      if (face <= a && options[0] < again) again_was_better_ = true;
      options.push_back(again);
    }
    return *std::max_element(options.begin(), options.end());
  }

  const DiceRaceGame& game_;
  int n_;
  std::vector<Rational> roll_, decide_;
  bool roll_was_better_ = false, again_was_better_ = false;
};

template <typename Values>
Values for_mover(int mover, Rational v) {
  Values r;
  r[mover] = v;
  r[1 - mover] = -v;
  return r;
}

std::vector<DiceRaceGame> dice_races() {
  return {DiceRaceGame(8, 5, DiceRaceGame::fair_die()),
          DiceRaceGame(7, 3, {{1, 3}, {2, 1}, {3, 2}, {6, 1}})};  // a loaded die, weights over 7
}

// Every non-terminal position of the race: both counters, the mover, no roll yet or each face,
// before or after rolling again.
template <typename F>
void for_each_position(const DiceRaceGame& game, F&& f) {
  const int n = game.start_counter();
  for (int a = 1; a <= n; ++a)
    for (int b = 1; b <= n; ++b)
      for (int mover = 0; mover < 2; ++mover)
        for (bool rerolled : {false, true}) {
          f(DiceRaceGame::Position{{a, b}, mover, 0, rerolled});
          for (const DieFace& face : game.die())
            f(DiceRaceGame::Position{{a, b}, mover, face.face, rerolled});
        }
}

// The mover-relative table's value of p, for the players.
std::array<Rational, 2> table_value(const RaceTable& table, const DiceRaceGame::Position& p) {
  const int me = p.counter[p.mover], other = p.counter[1 - p.mover];
  const Rational v = p.roll == 0 ? table.before_roll(me, other, p.rerolled)
                                 : table.after_roll(me, other, p.rerolled, p.roll);
  return for_mover<std::array<Rational, 2>>(p.mover, v);
}

}  // namespace

TEST_CASE("game interface: drop is two players in turn, a terminal position lost by the mover",
          "[expectimax]") {
  const drop::Game game(drop::parse_variant("2x2:K"));
  drop::Position p = drop::parse_fen(game, "1k/K1[-] w");
  CHECK(solver::players(game) == 2);
  CHECK(solver::player_to_move(game, p) == 0);
  drop::MoveList moves;
  game.generate(p, moves);
  REQUIRE(moves.size() == 1);
  game.make(p, moves[0]);
  CHECK(solver::player_to_move(game, p) == 1);
  REQUIRE(game.is_terminal(p));
  CHECK(solver::terminal_points(game, p) == std::array<int, 2>{1, -1});
}

TEST_CASE("expectimax: the dice race's values are the bottom-up table's, exactly", "[expectimax]") {
  for (const DiceRaceGame& game : dice_races()) {
    const RaceTable table(game);
    REQUIRE(table.choice_matters());
    solver::Expectimax<DiceRaceGame, Rational> search(game, kTable);
    int checked = 0;
    for_each_position(game, [&](DiceRaceGame::Position p) {
      const auto want = table_value(table, p);
      const auto got = search.value(p);
      CHECK(got[0] == want[0]);
      CHECK(got[1] == want[1]);
      ++checked;
    });
    DiceRaceGame::Position start = game.start();
    const int n = game.start_counter();
    CHECK(search.value(start)[0] == table.before_roll(n, n, false));
    CHECK(checked > 100);
  }
}

TEST_CASE("expectimax: in doubles the dice race is within 1e-12 of the exact values",
          "[expectimax]") {
  // Each expectation rounds once per outcome; over the race's at most 2 x 8 turns the error stays
  // near 1e-15, so 1e-12 is tight yet safe.
  for (const DiceRaceGame& game : dice_races()) {
    const RaceTable table(game);
    solver::Expectimax<DiceRaceGame> search(game, kTable);
    for_each_position(game, [&](DiceRaceGame::Position p) {
      const auto want = table_value(table, p);
      const auto got = search.value(p);
      for (int k = 0; k < 2; ++k) CHECK(std::abs(got[k] - want[k].to_double()) < 1e-12);
    });
  }
}

namespace {

using RaceValues = std::array<Rational, 2>;

// The plain depth-limited recursion of the contract, without a table.
template <typename Horizon>
RaceValues plain_depth_limited(const DiceRaceGame& g, DiceRaceGame::Position& p, int depth,
                               const Horizon& horizon) {
  if (g.is_terminal(p)) {
    const auto t = g.terminal_value(p);
    return {Rational(t[0]), Rational(t[1])};
  }
  if (depth == 0) return horizon(p);
  if (g.is_chance(p)) {
    RaceValues sum{Rational(0), Rational(0)};
    std::int64_t total = 0;
    for (const DieFace& f : g.die()) {
      g.make_chance(p, f.face);
      const RaceValues child = plain_depth_limited(g, p, depth - 1, horizon);
      g.unmake_chance(p, f.face, {});
      for (int k = 0; k < 2; ++k) sum[k] = sum[k] + Rational(f.weight) * child[k];
      total += f.weight;
    }
    for (Rational& v : sum) v = v / Rational(total);
    return sum;
  }
  DiceRaceGame::MoveList moves;
  g.generate(p, moves);
  RaceValues best{};
  for (int i = 0; i < moves.size(); ++i) {
    const int mover = p.mover;
    const auto u = g.make(p, moves[i]);
    const RaceValues child = plain_depth_limited(g, p, depth - 1, horizon);
    g.unmake(p, moves[i], u);
    if (i == 0 || best[mover] < child[mover]) best = child;
  }
  return best;
}

// A crude horizon: the player nearer to 0 is ahead by the difference of counters over 10.
struct RaceGuess {
  RaceValues operator()(const DiceRaceGame::Position& p) const {
    const Rational d = Rational(p.counter[1] - p.counter[0]) / Rational(10);
    return {d, -d};
  }
};

}  // namespace

TEST_CASE("expectimax: depth-limited values are the plain recursion's, whatever the table holds",
          "[expectimax]") {
  const DiceRaceGame game(5, 3, {{1, 2}, {2, 1}, {4, 1}});
  const std::vector<DiceRaceGame::Position> roots = {game.start(),
                                                     {{5, 3}, 1, 0, false},
                                                     {{2, 4}, 0, 2, false},
                                                     {{1, 1}, 1, 0, true},
                                                     {{4, 5}, 1, 4, false}};
  solver::Expectimax<DiceRaceGame, Rational, RaceGuess> shared(game, kTable);
  // Depths in a scrambled order, so that the shared table meets entries of greater and lesser
  // depths than the one asked, exact and not.
  for (int depth : {3, 7, 0, 12, 1, 5, 9, 2, 30, 6}) {
    solver::Expectimax<DiceRaceGame, Rational, RaceGuess> fresh(game, kTable);
    for (DiceRaceGame::Position p : roots) {
      const RaceValues want = plain_depth_limited(game, p, depth, RaceGuess{});
      CHECK(shared.value(p, depth) == want);
      CHECK(fresh.value(p, depth) == want);
    }
  }
  // Deep enough, the horizon is never reached and the value is the exact one.
  const RaceTable table(game);
  DiceRaceGame::Position start = game.start();
  CHECK(shared.value(start, 40) == table_value(table, start));
  CHECK_FALSE(shared.value(start, 4) == table_value(table, start));
}

TEST_CASE("expectimax: with the exact values at the horizon, every depth gives them",
          "[expectimax]") {
  const DiceRaceGame game(6, 4, DiceRaceGame::fair_die());
  const RaceTable table(game);
  const auto exact = [&](const DiceRaceGame::Position& p) { return table_value(table, p); };
  for (int depth = 0; depth <= 8; ++depth) {
    solver::Expectimax<DiceRaceGame, Rational, decltype(exact)> search(game, kTable, exact);
    for_each_position(game, [&](DiceRaceGame::Position p) {
      CHECK(search.value(p, depth) == table_value(table, p));
    });
  }
}

namespace {

// max^n by brute force over the whole tree: absolute players, no table, first best move kept.
ThreePlayerNim::Points brute_force(const ThreePlayerNim& g, ThreePlayerNim::Position& p) {
  if (g.is_terminal(p)) return g.terminal_value(p);
  ThreePlayerNim::MoveList moves;
  g.generate(p, moves);
  ThreePlayerNim::Points best{};
  for (int i = 0; i < moves.size(); ++i) {
    const int mover = p.mover;
    g.make(p, moves[i]);
    const auto child = brute_force(g, p);
    g.unmake(p, moves[i], {});
    if (i == 0 || child[mover] > best[mover]) best = child;
  }
  return best;
}

}  // namespace

TEST_CASE("max^n: three-player nim is brute force's, ties to the first move", "[expectimax]") {
  for (int most : {2, 3}) {
    const ThreePlayerNim game(most);
    solver::Expectimax<ThreePlayerNim, Rational> search(game, kTable);
    bool tie_decides = false;  // a tie for the mover with different points for the others
    // From the largest pile down, player 1 first, so that the table's entries are made with every
    // player to move and read back with the others.
    for (int pile = 18; pile >= 0; --pile)
      for (int mover : {1, 2, 0}) {
        ThreePlayerNim::Position p{pile, mover};
        const auto want = brute_force(game, p);
        const auto got = search.value(p);
        for (int k = 0; k < 3; ++k) CHECK(got[k] == Rational(want[k]));
        ThreePlayerNim::MoveList moves;
        game.generate(p, moves);
        std::map<int, ThreePlayerNim::Points> by_own;
        for (int i = 0; i < moves.size(); ++i) {
          game.make(p, moves[i]);
          const auto child = brute_force(game, p);
          game.unmake(p, moves[i], {});
          const auto [it, fresh] = by_own.try_emplace(child[mover], child);
          if (!fresh && it->second != child && child[mover] == want[mover]) tie_decides = true;
        }
      }
    CHECK(tie_decides);
  }
}

TEST_CASE("expectimax: on drop, without chance, the forward solver's wins and losses",
          "[expectimax]") {
  for (const char* variant : {"2x2:NK", "3x3:NK", "3x3:NBK"}) {
    const drop::Game game(drop::parse_variant(variant));
    solver::ForwardSolver<drop::Game> forward(game, std::uint64_t{1} << 30);
    solver::Expectimax<drop::Game> points(game, std::uint64_t{1} << 30);
    // Every position reachable from the start.
    std::vector<drop::Position> todo = {game.start()};
    absl::flat_hash_set<drop::Key> seen = {game.raw_key(game.start())};
    int wins = 0, losses = 0;
    while (!todo.empty()) {
      drop::Position p = todo.back();
      todo.pop_back();
      const bool win = solver::is_win(forward.dte(p));
      const auto v = points.value(p);
      const int mover = solver::player_to_move(game, p);
      CHECK(v[mover] == (win ? 1.0 : -1.0));
      CHECK(v[1 - mover] == -v[mover]);
      ++(win ? wins : losses);
      drop::MoveList moves;
      game.generate(p, moves);
      for (int i = 0; i < moves.size(); ++i) {
        const auto u = game.make(p, moves[i]);
        if (seen.insert(game.raw_key(p)).second) todo.push_back(p);
        game.unmake(p, moves[i], u);
      }
    }
    INFO(variant);
    CHECK(wins > 0);
    CHECK(losses > 0);
  }
}
