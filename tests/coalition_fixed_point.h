// The plain fixed point of every coalition's value (coalition_game.h) at every position reachable
// from the roots, with no symmetry at all: the independent check of solver/coalition_retrograde.h.
// It shares nothing with the solver but the game and wdl.h: positions are kept whole, one per raw
// key (fixed_point.h's PlainGraph), every coalition (all 2^n - 2 of them, complements too) is
// valued apart from its own side, and values come from sweeps, not counters, queues, splits or
// renamings.
//
// A finished position (terminal, or without a move) is a win in 0 for S when every player left is
// in S, a loss in 0 when none is, else a draw. Each sweep recomputes every other value from its
// children's values of the sweep before, starting from all draws: when S moves, a win in 1 + the
// least distance of the children S wins if there is one, else a loss in 1 + the greatest when S
// loses every child, else a draw; when another player moves, the same with win and loss swapped.
// As in fixed_point.h, after k sweeps the values are those of the game cut off after k plies (the
// cut a draw), and the sweeps stop when one changes nothing.
#pragma once

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

#include "solver/coalition_game.h"
#include "solver/wdl.h"
#include "tests/fixed_point.h"

namespace test_support {

template <solver::CoalitionGame G>
class CoalitionFixedPoint {
 public:
  using Position = typename G::Position;

  CoalitionFixedPoint(const G& game, const std::vector<Position>& roots)
      : graph_(game, roots, [&](const Position& p) { return game.raw_key(p); }),
        everyone_((1u << game.players()) - 1) {
    const std::size_t n = graph_.positions.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Position& p = graph_.positions[i];
      mover_.push_back(game.player_to_move(p));
      const bool finished = game.is_terminal(p) || graph_.children[i].empty();
      left_.push_back(finished ? std::uint32_t(game.players_left(p)) : 0);
    }
    values_.resize(everyone_);
    for (std::uint32_t s = 1; s < everyone_; ++s) {
      values_[s].assign(n, {solver::Wdl::draw, 0});
      for (bool changed = true; changed; ++sweeps_) {
        std::vector<solver::WdlValue> next(n);
        for (std::size_t i = 0; i < n; ++i) next[i] = fold(s, i);
        changed = next != values_[s];
        values_[s] = std::move(next);
      }
    }
  }

  const std::vector<Position>& positions() const { return graph_.positions; }
  // The index in positions() of the position with this raw key; nullopt if it was not reached.
  std::optional<int> find(const typename G::Key& raw) const { return graph_.find(raw); }
  // Coalition s's value at positions()[i], from s's side.
  solver::WdlValue value(std::size_t i, std::uint32_t s) const { return values_[s][i]; }
  bool finished(std::size_t i) const { return left_[i] != 0; }
  // Not finished, its mover m does not win alone, and after m's moves at least two other players
  // can each force a win alone (coalition_retrograde.h's count_kingmakers, by its definition).
  bool kingmaker(std::size_t i) const {
    const int m = mover_[i];
    if (finished(i) || value(i, 1u << m).wdl == solver::Wdl::win) return false;
    std::uint32_t kings = 0;
    for (int c : graph_.children[i])
      for (std::uint32_t a = 1; a < everyone_; a <<= 1)
        if (a != 1u << m && value(c, a).wdl == solver::Wdl::win) kings |= a;
    return std::popcount(kings) >= 2;
  }
  int sweeps() const { return sweeps_; }

 private:
  solver::WdlValue fold(std::uint32_t s, std::size_t i) const {
    using solver::Wdl;
    if (left_[i]) {
      if (!(left_[i] & ~s)) return {Wdl::win, 0};
      if (!(left_[i] & s)) return {Wdl::loss, 0};
      return {Wdl::draw, 0};
    }
    // What the side choosing wants, and what it fears, from s's side.
    const bool s_moves = s >> mover_[i] & 1;
    const Wdl wanted = s_moves ? Wdl::win : Wdl::loss, feared = s_moves ? Wdl::loss : Wdl::win;
    int quickest_wanted = INT_MAX, slowest_feared = -1;
    bool all_feared = true;
    for (int c : graph_.children[i]) {
      const solver::WdlValue v = values_[s][c];
      if (v.wdl == wanted) quickest_wanted = std::min(quickest_wanted, v.distance);
      if (v.wdl == feared)
        slowest_feared = std::max(slowest_feared, v.distance);
      else
        all_feared = false;
    }
    if (quickest_wanted != INT_MAX) return {wanted, quickest_wanted + 1};
    if (all_feared) return {feared, slowest_feared + 1};
    return {Wdl::draw, 0};
  }

  PlainGraph<G> graph_;  // by raw key
  std::uint32_t everyone_;
  std::vector<int> mover_;
  std::vector<std::uint32_t> left_;                    // players left; 0 if not finished
  std::vector<std::vector<solver::WdlValue>> values_;  // by coalition, then position
  int sweeps_ = 0;
};

}  // namespace test_support
