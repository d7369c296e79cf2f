#include "solver/forward_solver.h"

#include <catch2/catch.hpp>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"

namespace {

drop::Game game_of(const char* variant) {
  return drop::Game(drop::parse_variant(variant));
}

}  // namespace

TEST_CASE("DteFold: quickest win through a losing child, else slowest loss", "[forward_solver]") {
  solver::DteFold none;
  CHECK(none.dte() == 0);  // no move: lost at once
  solver::DteFold all_wins;
  all_wins.add(3);
  all_wins.add(7);
  CHECK(all_wins.dte() == 8);  // every child wins for the opponent: delay with the slowest
  solver::DteFold mixed;
  mixed.add(9);
  mixed.add(4);
  mixed.add(2);
  CHECK(mixed.dte() == 3);  // the quickest losing child
  CHECK(solver::is_win(mixed.dte()));
  CHECK_FALSE(solver::is_win(all_wins.dte()));
}

TEST_CASE("forward solver: a capture that leaves the opponent without a move wins at once",
          "[forward_solver]") {
  const drop::Game game = game_of("2x2:K");
  const drop::Position p = drop::parse_fen(game, "1k/K1[-] w");
  solver::ForwardSolver<drop::Game> search(game, 1 << 20);
  const auto a = search.analyze(p);
  CHECK(a.dte == 1);
  REQUIRE(a.moves.size() == 1);
  CHECK(drop::move_name(game.geometry(), a.moves[0].move) == "a1b2");
  CHECK(a.moves[0].outcome.win);
  CHECK(a.moves[0].outcome.dte == 1);
}

TEST_CASE("forward solver: terminal positions are losses in 0", "[forward_solver]") {
  const drop::Game game = game_of("2x2:K");
  const drop::Position p = drop::parse_fen(game, "2/2[-] w");
  solver::ForwardSolver<drop::Game> search(game, 1 << 20);
  const auto a = search.analyze(p);
  CHECK(a.dte == 0);
  CHECK(a.moves.empty());
}

TEST_CASE("forward solver: the best move's outcome is the position's, and images agree",
          "[forward_solver]") {
  const drop::Game game = game_of("3x3:NBK");
  solver::ForwardSolver<drop::Game> search(game, 64 << 20);
  drop::Position p = drop::parse_fen(game, "2n/1K1/3[NBbk] b");
  const auto a = search.analyze(p);
  int best = a.moves[0].outcome.dte;
  bool any_win = false;
  for (const auto& m : a.moves) any_win |= m.outcome.win;
  for (const auto& m : a.moves)
    if (m.outcome.win == any_win)
      best = any_win ? std::min(best, m.outcome.dte) : std::max(best, m.outcome.dte);
  CHECK(solver::is_win(a.dte) == any_win);
  CHECK(a.dte == best);
  for (const auto& s : game.geometry().symmetries()) {
    drop::Position image = game.color_swapped(game.transformed(p, s));
    CHECK(search.dte(image) == a.dte);
  }
}

TEST_CASE("forward solver: raw keys and canonical keys give the same values", "[forward_solver]") {
  const drop::Game game = game_of("3x3:NK");
  solver::ForwardSolver<drop::Game> canonical(game, 64 << 20), raw(game, 64 << 20);
  raw.use_raw_keys();
  drop::Position start = game.start();
  CHECK(raw.dte(start) == canonical.dte(start));
  // Raw keys cannot share images, so they store more positions for the same tree.
  CHECK(raw.positions_stored() > canonical.positions_stored());
  for (const char* fen : {"2n/1K1/3[Nk] b", "k2/1N1/K2[n] w", "3/3/3[NKnk] b"}) {
    drop::Position p = drop::parse_fen(game, fen);
    CHECK(raw.dte(p) == canonical.dte(p));
  }
}

TEST_CASE("forward solver: refuses to outgrow its memory cap", "[forward_solver]") {
  const drop::Game game = game_of("3x3:NBRK");
  solver::ForwardSolver<drop::Game> search(game, 4096);
  drop::Position start = game.start();
  CHECK_THROWS_AS(search.dte(start), solver::SearchMemoryError);
}
