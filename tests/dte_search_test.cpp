// The DTE search against the forward solver, an independent method (min/max over every child,
// no cuts): same DTE for the position and for every move, on random positions of small variants,
// with and without endgame tables probed, and on late Drop 16 positions.
#include "solver/dte_search.h"

#include <catch2/catch.hpp>
#include <random>

#include "countdown_game.h"
#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/forward_solver.h"
#include "tablebase/tier_solver.h"
#include "test_support.h"

namespace {

constexpr std::uint64_t kMemory = std::uint64_t{1} << 30;

template <typename A, typename B>
void check_same(const drop::Game& game, const drop::Position& p, const A& a, const B& b) {
  INFO(drop::to_fen(game, p));
  CHECK(a.dte == b.dte);
  REQUIRE(a.moves.size() == b.moves.size());
  for (std::size_t m = 0; m < a.moves.size(); ++m) {
    CHECK(a.moves[m].move == b.moves[m].move);
    CHECK(a.moves[m].outcome.win == b.moves[m].outcome.win);
    CHECK(a.moves[m].outcome.dte == b.moves[m].outcome.dte);
  }
}

// Random positions by play from the start, at plies spread over the game, the start included.
std::vector<drop::Position> positions_of(const drop::Game& game, int count, int max_plies) {
  std::mt19937_64 rng(11);
  std::vector<drop::Position> out{game.start()};
  while (int(out.size()) < count)
    out.push_back(test_support::random_position(game, rng, int(rng() % (max_plies + 1))));
  return out;
}

}  // namespace

TEST_CASE("DTE search: the forward solver's DTEs on small variants", "[dte_search]") {
  for (const char* variant : {"3x3:NBRK", "4x4:NBK", "3x3:NBK/nbrk"}) {
    const drop::Game game(drop::parse_variant(variant));
    // One search for all positions, so later ones also meet bounds stored by earlier ones.
    solver::DteSearch<drop::Game> fast(game, kMemory);
    solver::ForwardSolver<drop::Game> plain(game, kMemory);
    for (const drop::Position& p : positions_of(game, 30, 8))
      check_same(game, p, fast.analyze(p), plain.analyze(p));
    // Fresh: a search that starts from nothing gives the same.
    const drop::Position p = positions_of(game, 2, 8).back();
    solver::DteSearch<drop::Game> fresh(game, kMemory);
    check_same(game, p, fresh.analyze(p), plain.analyze(p));
  }
}

TEST_CASE("DTE search: with endgame tables probed, the search alone's DTEs", "[dte_search]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  // Tables of the positions with at most 4 pieces in play: the search meets them at its leaves.
  const drop::TierSpace space(game, true, 4);
  tablebase::TierSolveOptions options;
  options.memory_bytes = kMemory;
  tablebase::TierSolver<drop::TierSpace> tiers(space, options);
  tiers.run();
  std::uint64_t probes = 0;
  const auto probe = [&](const drop::Position& p) -> std::optional<int> {
    const auto at = space.locate(p);
    if (at.tier < 0) return std::nullopt;
    ++probes;
    return tiers.dte(at);
  };
  solver::DteSearch<drop::Game, decltype(probe)> probed(game, kMemory, probe);
  solver::ForwardSolver<drop::Game> plain(game, kMemory);
  for (const drop::Position& p : positions_of(game, 20, 8))
    check_same(game, p, probed.analyze(p), plain.analyze(p));
  CHECK(probes > 0);
}

TEST_CASE("DTE search: late Drop 16 positions as the forward solver solves them", "[dte_search]") {
  const drop::Game game(drop::parse_variant("drop16"));
  std::mt19937_64 rng(16);
  for (int n = 0; n < 6; ++n) {
    drop::Position p = test_support::random_position(game, rng, 19 + n % 3);
    solver::DteSearch<drop::Game> fast(game, kMemory);
    solver::ForwardSolver<drop::Game> plain(game, kMemory);
    check_same(game, p, fast.analyze(p), plain.analyze(p));
  }
}

TEST_CASE("DTE search: it stores fewer positions than the forward solver visits", "[dte_search]") {
  const drop::Game game(drop::parse_variant("4x4:NBK"));
  solver::DteSearch<drop::Game> fast(game, kMemory);
  solver::ForwardSolver<drop::Game> plain(game, kMemory);
  check_same(game, game.start(), fast.analyze(game.start()), plain.analyze(game.start()));
  CHECK(2 * fast.positions_stored() < plain.positions_stored());
}

TEST_CASE("DTE search: a table over the memory cap is refused", "[dte_search]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  solver::DteSearch<drop::Game> search(game, 4096);
  drop::Position start = game.start();
  CHECK_THROWS_AS(search.dte(start), solver::SearchMemoryError);
}

// A game of hundreds of plies whose positions are reached along many paths: DTEs above 255 must
// come back from the tables as they went in (the forward solver kept them in a byte).
TEST_CASE("both forward searches keep DTEs longer than a byte", "[dte_search][forward_solver]") {
  const test_support::CountdownGame game;
  constexpr int kN = 400;
  // The DTE by the definition, bottom up: n = 0 has no move.
  std::vector<int> expected(kN + 1, 0);
  for (int n = 1; n <= kN; ++n) {
    solver::DteFold fold;
    for (int take = 1; take <= 2 && take <= n; ++take) fold.add(expected[n - take]);
    expected[n] = fold.dte();
  }
  REQUIRE(expected[kN] > 255);
  solver::ForwardSolver<test_support::CountdownGame> plain(game, kMemory);
  solver::DteSearch<test_support::CountdownGame> fast(game, kMemory);
  for (int n : {kN, kN - 1, kN - 2, 300}) {
    test_support::CountdownGame::Position p{n};
    CHECK(plain.dte(p) == expected[n]);
    CHECK(fast.dte(p) == expected[n]);
    CHECK(p.n == n);
  }
}
