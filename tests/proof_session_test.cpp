// The resumable proof session (rules/drop/solve/proof_session.h) against the forward solver (an
// independent memoized negamax): its value, first moves and certificate (checked by the
// independent checker), a run resumed from its checkpoint, and checkpoints it must refuse.
#include "rules/drop/solve/proof_session.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/move_symmetry.h"
#include "rules/drop/solve/proof_checker.h"
#include "solver/forward_solver.h"
#include "solver/outcome.h"
#include "solver/proof_search.h"
#include "tests/test_support.h"

namespace {

using test_support::TempDir;
using Search = solver::ProofSearch<drop::Game, drop::MoveSymmetry>;
using Table = solver::ProofTable<drop::Key>;

const char* forward_value(const drop::Game& game, drop::Position p) {
  solver::ForwardSolver<drop::Game> forward(game, 1ull << 30);
  return solver::is_win(forward.dte(p)) ? "win" : "loss";
}

drop::ProofSessionResult run(const drop::ProofSessionOptions& o, const drop::Game& game,
                             Table& table, const drop::ProofHistory& history) {
  Search search(game, table, solver::ProofOptions{}, drop::MoveSymmetry(game));
  return drop::run_proof_session(o, game, game.start(), table, search, drop::EndgameOracle{},
                                 history);
}

}  // namespace

TEST_CASE(
    "a proof session proves the start, every first move and a certificate the checker accepts",
    "[proof][session]") {
  const TempDir tmp("drop16_proof_session_test");
  for (const char* variant : {"3x3:NBK", "2x3:NBRK"}) {
    const drop::Game game(drop::parse_variant(variant));
    drop::ProofSessionOptions o;
    o.quiet = true;
    o.all_moves = true;
    std::string file = variant;
    file[3] = '-';  // WxH-HAND
    o.certificate = (tmp / (file + ".cert")).string();
    Table table(4 << 20);
    const auto r = run(o, game, table, {});
    CHECK(drop::proof_name(r.value) == std::string(forward_value(game, game.start())));
    CHECK(r.stopped == nullptr);
    // Every first move's value, for its mover, is the reverse of its child's.
    drop::MoveList moves;
    game.generate(game.start(), moves);
    REQUIRE(r.first.moves.size() == std::size_t(moves.size()));
    std::size_t winning = 0;
    for (int i = 0; i < moves.size(); ++i) {
      drop::Position child = game.start();
      game.make(child, moves[i]);
      const std::string reply = forward_value(game, child);
      CHECK(r.first.moves[i].move == drop::move_name(game.geometry(), moves[i]));
      CHECK(r.first.moves[i].value == std::string(reply == "win" ? "loss" : "win"));
      winning += reply == "loss";
    }
    CHECK(r.first.winning.size() == winning);
    REQUIRE(r.certificate.has_value());
    const drop::ProofCheck check = drop::check_proof(r.certificate->file);
    CHECK(check.win == (r.value == solver::Proof::kWin));
    CHECK(check.positions == r.certificate->positions);
    CHECK(check.fen == drop::to_fen(game, game.start()));
  }
}

TEST_CASE("a proof session resumes from its checkpoint, and refuses another position's",
          "[proof][session]") {
  const TempDir tmp("drop16_proof_session_test");
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  drop::ProofSessionOptions o;
  o.quiet = true;
  o.checkpoint = (tmp / "nbk.ckpt").string();
  Table first_table(4 << 20);
  const auto first =
      run(o, game, first_table, drop::resume_proof(o, game, game.start(), first_table));
  REQUIRE(first.saved_entries > 0);

  Table second_table(4 << 20);
  const drop::ProofHistory history = drop::resume_proof(o, game, game.start(), second_table);
  CHECK(history.resumed_entries == first.saved_entries);
  CHECK(history.nodes > 0);
  const auto second = run(o, game, second_table, history);
  CHECK(second.value == first.value);
  CHECK(drop::proof_name(second.value) == std::string(forward_value(game, game.start())));

  // The same file for another variant's start, and a file that is no checkpoint.
  const drop::Game other(drop::parse_variant("3x3:NK"));
  Table other_table(1 << 20);
  CHECK_THROWS_AS(drop::resume_proof(o, other, other.start(), other_table),
                  drop::ProofCheckpointRefused);
  std::ofstream(o.checkpoint, std::ios::trunc) << "not a checkpoint";
  CHECK_THROWS_AS(drop::resume_proof(o, game, game.start(), other_table),
                  drop::ProofCheckpointRefused);
}
