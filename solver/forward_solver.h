// Forward solver: memoized negamax over win/loss with exact DTE, for any position of any keyed
// game. It needs no tables, so it is both the fallback when none exist and the independent check
// of the tier solver's tables. The transposition table keys on canonical_key (exact, so a
// collision can never change a value) and stores the DTE, which carries the value (outcome.h).
// Exact DTE needs every child of every node (fastest win = least over all losing children), so
// there is no alpha-beta cut: the game is a DAG of at most ~31 plies and memoization is what pays.
// An optional probe (for example a tablebase) answers positions before the search expands them.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/game_concept.h"
#include "solver/outcome.h"

namespace solver {

// The transposition table would outgrow the memory cap the solver was given.
class SearchMemoryError : public std::runtime_error {
 public:
  explicit SearchMemoryError(const std::string& what) : std::runtime_error(what) {}
};

// The default probe knows nothing.
struct NoProbe {
  template <typename Position>
  std::optional<int> operator()(const Position&) const {
    return std::nullopt;
  }
};

template <KeyedGame G, typename Probe = NoProbe>
class ForwardSolver {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;

  struct MoveResult {
    Move move;
    MoveOutcome outcome;
  };
  struct Analysis {
    int dte;  // of the position; is_win(dte) is its value for the side to move
    std::vector<MoveResult> moves;  // in generation order
  };

  ForwardSolver(const G& game, std::uint64_t memory_bytes, Probe probe = {})
      : game_(game), memory_bytes_(memory_bytes), probe_(std::move(probe)) {
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
    if (const auto it = table_.find(key); it != table_.end()) return it->second;
    DteFold fold;
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      fold.add(dte(p));
      game_.unmake(p, moves[i], undo);
    }
    reserve_one();
    table_.emplace(key, std::uint8_t(fold.dte()));
    return fold.dte();
  }

  // The position's DTE and what every move gives the side that plays it.
  Analysis analyze(Position p) {
    Analysis a;
    typename G::MoveList moves;
    game_.generate(p, moves);
    DteFold fold;
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      const int child = dte(p);
      game_.unmake(p, moves[i], undo);
      fold.add(child);
      a.moves.push_back({moves[i], move_outcome(child)});
    }
    a.dte = fold.dte();
    return a;
  }

  std::uint64_t positions_stored() const { return table_.size(); }
  // Forgets every solved position and frees the table (its values are exact: only time is lost).
  void clear() { table_ = decltype(table_)(); }
  std::uint64_t table_bytes() const { return table_.capacity() * kSlotBytes; }

 private:
  // One control byte per slot besides the (key, dte) pair.
  static constexpr std::uint64_t kSlotBytes =
      sizeof(std::pair<const typename G::Key, std::uint8_t>) + 1;

  // absl grows a full table (7/8 load) by doubling, old and new arrays alive together: refuse
  // that growth when it would pass the cap.
  void reserve_one() {
    const std::uint64_t capacity = table_.capacity();
    if (table_.size() + 1 <= capacity - capacity / 8) return;
    if ((3 * capacity + 1) * kSlotBytes > memory_bytes_)
      throw SearchMemoryError("forward search needs more than " +
                              std::to_string(memory_bytes_ >> 20) + " MB for its table after " +
                              std::to_string(table_.size()) + " positions");
  }

  const G& game_;
  std::uint64_t memory_bytes_;
  Probe probe_;
  absl::flat_hash_map<typename G::Key, std::uint8_t> table_;
  bool raw_keys_ = false;
};

}  // namespace solver
