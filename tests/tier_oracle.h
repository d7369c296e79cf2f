// Drop 16 endgame tables solved in memory as the oracle of a proof search (solver/proof_search.h,
// solver/dfpn_search.h), and the check the two searches' tests make with it: with the tables the
// search agrees with itself without them and with the forward solver, and searches less.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/forward_solver.h"
#include "solver/outcome.h"
#include "solver/proof_search.h"
#include "tablebase/tier_solver.h"
#include "tests/test_support.h"

namespace test_support {

inline solver::Proof proof_of(bool win) {
  return win ? solver::Proof::kWin : solver::Proof::kLoss;
}

// Endgame tables solved in memory, deciding positions of at most max_pieces pieces in play.
struct TierOracle {
  const drop::TierSpace* space;
  const tablebase::TierSolver<drop::TierSpace>* tiers;
  int max_pieces;
  std::optional<bool> operator()(const drop::Position& p) const {
    if (p.pieces_in_play() > max_pieces) return std::nullopt;
    return solver::is_win(tiers->dte(space->locate(p)));
  }
};

// The tiers of `game` up to 4 pieces in play, solved in memory; oracle() reads them.
struct SolvedEndgameTiers {
  static constexpr int kMaxPieces = 4;
  drop::TierSpace space;
  tablebase::TierSolver<drop::TierSpace> tiers;

  explicit SolvedEndgameTiers(const drop::Game& game)
      : space(game, true, kMaxPieces), tiers(space, options()) {
    tiers.run();
  }
  TierOracle oracle() const { return TierOracle{&space, &tiers, kMaxPieces}; }

 private:
  static tablebase::TierSolveOptions options() {
    tablebase::TierSolveOptions options;
    options.memory_bytes = std::uint64_t{1} << 30;
    return options;
  }
};

// Checks a search given the endgame tables as its oracle (with_tables) against the same search
// without them (plain) and the forward solver: on the start, the forward solver's value, reached
// through the tables and in fewer nodes than plain, which agrees; on 30 random positions, the
// forward solver's value.
template <typename PlainSearch, typename TablesSearch>
void check_search_with_tables(const drop::Game& game, PlainSearch& plain, TablesSearch& with_tables,
                              std::mt19937_64& rng) {
  solver::ForwardSolver<drop::Game> reference(game, 1ull << 30);
  drop::Position start = game.start();
  CHECK(with_tables.prove(start) == proof_of(solver::is_win(reference.dte(start))));
  CHECK(with_tables.stats().oracle_hits > 0);
  CHECK(plain.prove(start) == with_tables.prove(start));
  CHECK(with_tables.stats().nodes < plain.stats().nodes);
  for (int n = 0; n < 30; ++n) {
    drop::Position p = random_position(game, rng, 2 + int(rng() % 5));
    INFO(drop::to_fen(game, p));
    drop::Position copy = p;
    CHECK(with_tables.prove(p) == proof_of(solver::is_win(reference.dte(copy))));
  }
}

}  // namespace test_support
