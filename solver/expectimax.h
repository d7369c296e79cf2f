// Expectimax with max^n: the expected points of every player, for games of any number of players
// with chance positions (chance.h) and points (game_value.h), such as Royal Nardy (dice, 1 to 4
// points) or a four-player draughts.
//
// Contract
// - A position's value is one number per player (Values, component i for player i):
//   at a terminal position, the game's points (terminal_points; -1/+1 for a win/loss game);
//   at a chance position, the expectation over its outcomes, each child's values weighted by its
//   weight over the list's total;
//   at a decision position, the values of the child best for the player to move (max^n: each
//   player maximises its own component). Ties go to the first such move in generation order;
//   with more than two players a tie can change the others' values, so the rule is part of the
//   value, and a game that wants another orders its moves accordingly. With two players and
//   zero-sum points this is plain expectimax (and with no chance, negamax on points).
// - value(p) is exact and needs an acyclic game (every line of play ends): on a cycle it would
//   recurse for ever. value(p, depth) looks depth plies ahead, a ply being a move or a chance
//   outcome, and values a non-terminal position at the horizon by the Horizon callable
//   (Values horizon(const Position&)); it is exactly the plain depth-limited recursion, whatever
//   the table holds (see below), and it terminates on cyclic games too. The horizon must value
//   positions of one canonical key alike (up to the rotation below), as the table does.
// - Number is the arithmetic: double by default (weights are exact integers; an expectation is
//   rounded once per term, so the error grows with the tree's depth, about depth x 1e-16
//   relative), or an exact rational type (default and std::int64_t constructible, + * / <),
//   which the tests use to check values exactly.
//
// Why max^n and not the paranoid reduction (one player against the coalition of the others)
// max^n gives every player's value in one search and is exactly expectimax when two players have
// zero-sum points, so one solver serves Royal Nardy and four-player games alike. Paranoid turns
// N players into two, which allows alpha-beta cuts but values a different game (the others are
// assumed to play against one player, not for themselves); a game can still get it from this
// solver by declaring coalition points ({v, -v, -v, -v}). This solver makes no cuts: exact
// expected values need every child (no bound on the points is assumed), and memoization is what
// pays.
//
// Transposition table: keyed on canonical_key, which may identify positions up to symmetries and
// a rotation of the players (drop's colour swap). Values are stored rotated so that component 0
// is the player to move's, and turned back on reading, so the key must identify only positions
// whose values agree up to that rotation. Each entry keeps the depth it was searched to and
// whether its value is exact (no horizon was reached below it): an entry answers a search of the
// same depth, or, if exact, of any greater depth (its whole tree fits). So results never depend
// on the order of searches. The table refuses to outgrow memory_bytes (SearchMemoryError,
// capped_map.h); clear() and go on loses only time.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "solver/capped_map.h"
#include "solver/chance.h"
#include "solver/game_concept.h"
#include "solver/game_value.h"
#include "solver/turn_order.h"

namespace solver {

// The horizon of an exact search, never reached.
struct NoHorizon {};

template <typename G, typename Number = double, typename Horizon = NoHorizon>
requires KeyedGame<G> && PointsGame<G>
class Expectimax {
 public:
  using Position = typename G::Position;
  static constexpr int kPlayers = points_players<G>;
  using Values = std::array<Number, kPlayers>;

  Expectimax(const G& game, std::uint64_t memory_bytes, Horizon horizon = {})
      : game_(game), horizon_(std::move(horizon)), table_(memory_bytes) {
    if (!game.keys_fit())
      throw std::invalid_argument("this variant's positions do not fit exact 128-bit keys");
    if (players(game) != kPlayers)
      throw std::invalid_argument("the game's points are not one per player");
  }

  // Exact values of p (a copy: the search plays on it, and a SearchMemoryError may stop it
  // anywhere).
  Values value(Position p) { return search(p, kNoHorizon).values; }

  // Values of p looking depth >= 0 plies ahead.
  Values value(Position p, int depth) {
    static_assert(!std::is_same_v<Horizon, NoHorizon>, "a depth limit needs a Horizon");
    if (depth < 0 || depth == kNoHorizon) throw std::invalid_argument("depth out of range");
    return search(p, depth).values;
  }

  // Positions visited (table hits, terminal and horizon positions included) since construction.
  std::uint64_t nodes() const { return nodes_; }
  std::uint64_t positions_stored() const { return table_.size(); }
  void clear() { table_.clear(); }

 private:
  static constexpr int kNoHorizon = INT_MAX;

  struct Result {
    Values values;
    bool exact;  // no horizon reached in the tree searched
  };
  struct Entry {
    Values relative;  // component 0 is the player to move's
    int depth;
    bool exact;
  };

  Result search(Position& p, int depth) {
    ++nodes_;
    if (game_.is_terminal(p)) return {numbers(terminal_points(game_, p)), true};
    if constexpr (!std::is_same_v<Horizon, NoHorizon>)
      if (depth == 0) return {horizon_(p), false};
    const auto key = game_.canonical_key(p);
    const int mover = player_to_move(game_, p);
    if (const Entry* e = table_.find(key);
        e && (e->depth == depth || (e->exact && depth > e->depth)))
      return {rotated(e->relative, kPlayers - mover), e->exact};
    const int below = depth == kNoHorizon ? depth : depth - 1;
    Result r;
    if constexpr (ChanceGame<G>)
      r = game_.is_chance(p) ? expectation(p, below) : choice(p, mover, below);
    else
      r = choice(p, mover, below);
    table_[key] = {rotated(r.values, mover), depth, r.exact};
    return r;
  }

  Result choice(Position& p, int mover, int depth) {
    typename G::MoveList moves;
    game_.generate(p, moves);
    if (moves.size() == 0)
      throw std::logic_error("expectimax: a position neither terminal nor chance has no move");
    Result best{filled(Number(0)), true};
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      const Result child = search(p, depth);
      game_.unmake(p, moves[i], undo);
      if (i == 0 || best.values[mover] < child.values[mover]) best.values = child.values;
      best.exact = best.exact && child.exact;
    }
    return best;
  }

  Result expectation(Position& p, int depth) {
    typename G::ChanceList outcomes;
    game_.chances(p, outcomes);
    Result sum{filled(Number(0)), true};
    std::int64_t total = 0;
    for (int i = 0; i < outcomes.size(); ++i) {
      const auto& o = outcomes[i];
      const auto undo = game_.make_chance(p, o.outcome);
      const Result child = search(p, depth);
      game_.unmake_chance(p, o.outcome, undo);
      const Number weight(std::int64_t(o.weight));
      for (int k = 0; k < kPlayers; ++k) sum.values[k] = sum.values[k] + weight * child.values[k];
      sum.exact = sum.exact && child.exact;
      total += std::int64_t(o.weight);
    }
    if (total <= 0) throw std::logic_error("expectimax: a chance position without outcomes");
    const Number whole(total);
    for (Number& v : sum.values) v = v / whole;
    return sum;
  }

  static Values numbers(const points_t<G>& points) {
    Values v;
    for (int k = 0; k < kPlayers; ++k) v[k] = Number(points[k]);
    return v;
  }
  static Values filled(Number x) {
    Values v;
    v.fill(x);
    return v;
  }
  // Component k of the result is component (k + shift) mod N of v.
  static Values rotated(const Values& v, int shift) {
    Values r;
    for (int k = 0; k < kPlayers; ++k) r[k] = v[(k + shift) % kPlayers];
    return r;
  }

  const G& game_;
  Horizon horizon_;
  CappedMap<typename G::Key, Entry> table_;
  std::uint64_t nodes_ = 0;
};

}  // namespace solver
