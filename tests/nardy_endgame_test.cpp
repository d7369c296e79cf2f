// Value iteration over every reachable position (solver/chance_fixed_point.h) on Royal Nardy:
// on races, where every line ends, it gives expectimax's values (rules/nardy/solve/two_sided.h);
// on a small endgame with contact, where hits make play cycle, it converges, its values satisfy
// expectimax's equations one and two plies deep, and the colour-swapped position is worth the
// opposite.
#include <catch2/catch.hpp>
#include <cmath>

#include "rules/nardy/notation.h"
#include "rules/nardy/solve/two_sided.h"
#include "solver/chance_fixed_point.h"
#include "solver/expectimax.h"

TEST_CASE("nardy endgames: value iteration is expectimax on races", "[nardy]") {
  const nardy::Game g12(12);
  const nardy::bearoff::TwoSidedPlain table(3, 0, 1);
  int checked = 0;
  for (std::size_t w = 0; w < table.boards().size(); w += 7)
    for (std::size_t b = 3; b < table.boards().size(); b += 11) {
      const nardy::Position p =
          nardy::bearoff::race_position(table.boards()[w], table.boards()[b], 0, 1);
      solver::ChanceFixedPoint<nardy::Game> fixed(g12, p, 1'000'000);
      fixed.solve(1e-14, 1000);
      CHECK(std::abs(fixed.value(p) - table.value(w, b)) < 1e-12);
      ++checked;
    }
  CHECK(checked > 50);
}

TEST_CASE("nardy endgames: a contact endgame converges to a consistent fixed point", "[nardy]") {
  // 12 points; White's plain checkers on its 8 and 3, Black's on its 8 and 3 (White's 5 and 10):
  // each side must pass the other, and blots get hit.
  const auto s = nardy::parse_fen("././P/./p/././P/./p/./. 0/0 13/13 0/0 w -");
  solver::ChanceFixedPoint<nardy::Game> fixed(s.game, s.position, 2'000'000);
  const int sweeps = fixed.solve(1e-13, 10'000);
  CHECK(sweeps > 2);
  CHECK(fixed.residual() <= 1e-13);
  const double v = fixed.value(s.position);
  CHECK(std::abs(v) < 1);  // one point for the winner (the loser has borne off), no gammons
  // The same position with the colours swapped, Black to roll, is worth the opposite.
  const nardy::Position swapped = nardy::Game::swapped(s.position);
  solver::ChanceFixedPoint<nardy::Game> mirror(s.game, swapped, 2'000'000);
  mirror.solve(1e-13, 10'000);
  CHECK(std::abs(mirror.value(swapped) + v) < 1e-10);
  // Some play of White's first roll already hits, so checkers go back and play can cycle.
  bool bar_seen = false;
  nardy::Position p = s.position;
  for (const auto& w : nardy::all_rolls()) {
    p.dice = w.roll;
    nardy::MoveList plays;
    s.game.generate(p, plays);
    for (const auto& m : plays)
      for (int k = 0; k < m.count; ++k) bar_seen |= m.steps[k].hit;
  }
  CHECK(bar_seen);
  // Expectimax one and two plies deep with the fixed point at its horizon gives it back.
  const auto horizon = [&](const nardy::Position& q) {
    const double x = fixed.value(q);
    return std::array<double, 2>{x, -x};
  };
  for (int depth : {1, 2, 3}) {
    solver::Expectimax<nardy::Game, double, decltype(horizon)> search(
        s.game, std::uint64_t{64} << 20, horizon);
    CHECK(std::abs(search.value(s.position, depth)[0] - v) < 1e-10);
  }
}
