// DTE search: the exact DTE of a position by yes/no searches with cuts, what `solve` runs without
// tables. The forward solver (forward_solver.h) takes the min/max over every child of every node;
// here a position is asked "does the side to move win?" (its value, no depth bound), then "does it
// win within d plies?" or "does it lose within d plies?". A yes or a no that one child proves ends
// the node (its siblings are cut off), and the bound d keeps the tree shallow. Asking d = 1, 3,
// 5, ... for a win, d = 2, 4, ... for a loss (a win's DTE is odd, a loss's even), the first yes
// is the DTE.
//
// Value first: the root's value is settled by the unbounded question (a proof search, fewest
// replies first as in proof_search.h), so only the questions of its DTE's parity are asked. Below
// the root the bounded questions are asked directly: settling every node's value first was
// measured to cost more than it spares (most of the work went into values).
//
// Class of game: two players taking turns (TwoPlayerGame), win/loss, acyclic, keyed.
//
// All questions are one on a score: s = M - dte for a win, -(M - dte) for a loss, so larger is
// better for the side to move (the winner hurries, the loser delays), and "s(p) >= v?" holds iff
// some child c has s(c) < w for a w that depends on v alone; v = 0 asks for the value. The table
// keeps a lower and an upper bound of each position's score, which every answer tightens; an
// exact probe (tables) and terminal positions decide a question outright. Before searching any
// child, one cheap pass asks each child whether it is terminal, probed, or already decided by its
// bounds.
//
// Exactness does not rest on the ordering or the table: every answer is a proof over the rules,
// and the tests compare the DTEs with the forward solver's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "solver/capped_map.h"
#include "solver/forward_solver.h"
#include "solver/game_concept.h"
#include "solver/kept_children.h"
#include "solver/move_analysis.h"
#include "solver/outcome.h"
#include "solver/progress.h"
#include "solver/turn_order.h"

namespace solver {

template <KeyedGame G, typename Probe = NoProbe>
requires TwoPlayerGame<G>
class DteSearch {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using Key = typename G::Key;
  using Analysis = MoveAnalysis<Move>;

  DteSearch(const G& game, std::uint64_t memory_bytes, Probe probe = {})
      : game_(game), probe_(std::move(probe)), table_(memory_bytes) {
    if (!game.keys_fit())
      throw std::invalid_argument("this variant's positions do not fit exact 128-bit keys");
  }

  // DTE of p (p is restored on return, unless the probe or the table throws).
  int dte(Position& p) {
    kept_.clear();  // what a search stopped by an exception left
    typename G::MoveList moves;
    game_.generate(p, moves);
    if (moves.empty()) return 0;
    if (const auto known = probe_(p)) return *known;
    const Key key = game_.canonical_key(p);
    const bool win = at_least(p, key, 0);
    for (int d = win ? 1 : 2;; d += 2)  // not terminal: no loss in 0
      if (win ? at_least(p, key, score(d)) : !at_least(p, key, score(d) + 1)) return d;
  }

  // The position's DTE and what every move gives the side that plays it.
  Analysis analyze(const Position& p) {
    return analyze_moves(game_, p, [this](Position& child) { return dte(child); });
  }

  std::uint64_t positions_stored() const { return table_.size(); }
  void clear() { table_.clear(); }
  // Where the search reports the positions it expands (nullptr: nowhere); `progress` outlives it.
  void report_to(Progress* progress) { progress_ = progress; }

 private:
  // M of the score: above every DTE the search can reach (its recursion is one call a ply).
  static constexpr int kM = 1 << 20;
  static constexpr int score(int dte) { return is_win(dte) ? kM - dte : dte - kM; }
  static constexpr int kLowest = score(0), kHighest = score(1);

  // What the searches so far proved of a position's score.
  struct Bounds {
    int lower = kLowest;
    int upper = kHighest;
  };

  // The least score that is at least v: a win's DTE is odd and a loss's even, so "at least v" and
  // "at least this" are the same question, asked and stored once.
  static int rounded_up(int v) {
    const int dte = v > 0 ? kM - v : kM + v;
    return is_win(dte) == (v > 0) ? v : v + 1;
  }

  // Whether s(p) >= v, for p not terminal and not known to the probe, with key its canonical key.
  // v = 0 asks whether p is a win: its children are asked the same (w = 0), with no depth bound.
  bool at_least(Position& p, const Key& key, int v) {
    if (v <= kLowest) return true;
    if (v > kHighest) return false;
    v = rounded_up(v);
    if (const Bounds* b = table_.find(key)) {
      if (b->lower >= v) return true;
      if (b->upper < v) return false;
    }
    if (progress_ && (++expanded_ & 4095) == 0)
      progress_->advance(4096), progress_->add_to_rate(4096);
    const bool yes = some_child_below(p, v > 0 ? -v : v == 0 ? 0 : 2 - v);
    Bounds& b = table_[key];  // found again: the search below may have moved it
    if (yes)
      b.lower = std::max(b.lower, v);
    else
      b.upper = std::min(b.upper, v - 1);
    return yes;
  }

  // Whether some child c of p has s(c) < w (so s(p) >= v for the v that gave w).
  bool some_child_below(Position& p, int w) {
    typename G::MoveList moves;
    game_.generate(p, moves);
    const std::size_t first = kept_.mark();
    bool yes = false;
    // The cheap pass: terminal children (lost at once, s = kLowest < w), probed ones and those
    // whose bounds decide; the others are kept to search.
    for (int i = 0; i < moves.size() && !yes; ++i) {
      const auto undo = game_.make(p, moves[i]);
      const auto replies = std::uint32_t(game_.count_moves(p));
      if (replies == 0) {
        yes = true;
      } else if (const auto known = probe_(p)) {
        yes = score(*known) < w;
      } else {
        const Key key = game_.canonical_key(p);
        yes = kept_.below_or_keep(table_.find(key), w, {moves[i], replies, std::uint32_t(i), key});
      }
      game_.unmake(p, moves[i], undo);
    }
    return kept_.search(first, yes, game_, p,
                        [&](Position& c, const Key& key) { return !at_least(c, key, w); });
  }

  const G& game_;
  Probe probe_;
  CappedMap<Key, Bounds> table_;
  KeptChildren<Move, Key> kept_;  // the children still to search, of every node on the path
  Progress* progress_ = nullptr;
  std::uint64_t expanded_ = 0;
};

}  // namespace solver
