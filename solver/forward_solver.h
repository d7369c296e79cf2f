// Forward solver: memoized negamax over win/loss with exact DTE, for any position of any keyed
// game. It needs no tables and has no cut, so it is the plain independent check of the tier
// solver's tables (verify) and of the DTE search (dte_search.h, what solve runs), and serve's
// search within its time limit. The transposition table keys on canonical_key (exact, so a
// collision can never change a value) and stores the DTE, which carries the value (outcome.h), in
// a full int: a variant may last longer than a byte's 255 plies (hands of up to 75 pieces).
// Exact DTE needs every child of every node (fastest win = least over all losing children), so
// there is no alpha-beta cut: the game is a DAG of at most ~31 plies and memoization is what pays.
// An optional probe (for example a tablebase) answers positions before the search expands them.
// Class of game: two players taking turns (TwoPlayerGame), win/loss, acyclic, keyed.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>

#include "solver/capped_map.h"
#include "solver/game_concept.h"
#include "solver/move_analysis.h"
#include "solver/outcome.h"
#include "solver/turn_order.h"

namespace solver {

// The default probe knows nothing.
struct NoProbe {
  template <typename Position>
  std::optional<int> operator()(const Position&) const {
    return std::nullopt;
  }
};

template <KeyedGame G, typename Probe = NoProbe>
requires TwoPlayerGame<G>
class ForwardSolver {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using Analysis = MoveAnalysis<Move>;

  ForwardSolver(const G& game, std::uint64_t memory_bytes, Probe probe = {})
      : game_(game), probe_(std::move(probe)), table_(memory_bytes) {
    if (!game.keys_fit())
      throw std::invalid_argument("this variant's positions do not fit exact 128-bit keys");
  }

  // Keys the table on exact positions instead of canonical forms, so positions that differ by a
  // symmetry or a colour swap are solved apart: the plain baseline of bench/solve_bench.cpp.
  void use_raw_keys() { raw_keys_ = true; }

  // DTE of p (p is restored on return).
  int dte(Position& p) {
    typename G::MoveList moves;
    game_.generate(p, moves);
    if (moves.empty()) return 0;
    if (const auto known = probe_(p)) return *known;
    const auto key = raw_keys_ ? game_.raw_key(p) : game_.canonical_key(p);
    if (const int* stored = table_.find(key)) return *stored;
    DteFold fold;
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      fold.add(dte(p));
      game_.unmake(p, moves[i], undo);
    }
    table_[key] = fold.dte();
    return fold.dte();
  }

  // The position's DTE and what every move gives the side that plays it.
  Analysis analyze(const Position& p) {
    return analyze_moves(game_, p, [this](Position& child) { return dte(child); });
  }

  std::uint64_t positions_stored() const { return table_.size(); }
  // Forgets every solved position and frees the table (its values are exact: only time is lost).
  void clear() { table_.clear(); }
  std::uint64_t table_bytes() const { return table_.bytes(); }

 private:
  const G& game_;
  Probe probe_;
  CappedMap<typename G::Key, int> table_;
  bool raw_keys_ = false;
};

}  // namespace solver
