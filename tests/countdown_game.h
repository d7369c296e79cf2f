// A toy keyed game for the solvers' tests: a counter n, each move takes 1 or 2 from it, and the
// side that cannot move (n = 0) loses. Its games are as long as n, far longer than any drop
// variant the tests can solve, and every position is reached along many paths, so a solver that
// kept a DTE in too few bits would read a wrong one back from its table.
#pragma once

#include <cstdint>
#include <utility>

#include "rules/common/move_list.h"

namespace test_support {

class CountdownGame {
 public:
  struct Position {
    int n;
  };
  using Move = int;  // how much it takes
  struct Undo {};
  struct Key {
    std::uint64_t lo = 0, hi = 0;
    std::uint64_t mix() const { return lo * 0x9E3779B97F4A7C15ull; }
    friend bool operator==(const Key&, const Key&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.lo, k.hi);
    }
  };
  using MoveList = common::FixedMoveList<Move, 2>;

  void generate(const Position& p, MoveList& out) const {
    out.clear();
    for (int take = 1; take <= 2 && take <= p.n; ++take) out.push(take);
  }
  std::uint64_t count_moves(const Position& p) const { return p.n < 2 ? p.n : 2; }
  Undo make(Position& p, Move m) const {
    p.n -= m;
    return {};
  }
  void unmake(Position& p, Move m, Undo) const { p.n += m; }
  bool is_terminal(const Position& p) const { return p.n == 0; }

  bool keys_fit() const { return true; }
  Key canonical_key(const Position& p) const { return raw_key(p); }
  Key raw_key(const Position& p) const { return {std::uint64_t(p.n), 0}; }
  Key symmetric_key(const Position& p) const { return raw_key(p); }
  Position from_key(Key k) const { return {int(k.lo)}; }
};

}  // namespace test_support
