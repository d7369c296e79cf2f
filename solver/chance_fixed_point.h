// Values of a two-player zero-sum chance game whose play may cycle, by value iteration over every
// position reachable from a root. Royal Nardy with contact is such a game: a hit checker goes back
// to the bar and re-enters, so positions repeat, and expectimax.h (acyclic games only) would
// recurse for ever.
//
// Contract
// - The reachable positions (raw keys, exact) are listed once, each with its children: a
//   terminal position keeps player 0's points, a chance position the weighted mean of its
//   outcomes, a decision position the best child for the mover (the largest value for player 0,
//   the smallest for player 1). Values start at 0 and are updated in place, sweep after sweep
//   (Gauss-Seidel), until no value moves by more than the tolerance; solve() returns the sweeps
//   taken, and throws if max_sweeps pass first.
// - What that gives: a fixed point of these equations to within the tolerance (the residual is
//   reported). When every line of play ends it is the game's value, the same as expectimax's
//   (the tests check this on races). With cycles it is the game's value when play ends with
//   probability 1 whatever the players do (the fixed point is then unique); this solver does not
//   prove that. Exact rationals are not attempted: with a cycle the value solves equations
//   rather than summing a finite tree.
// - More than max_positions reachable positions: std::length_error, before memory runs out.
// - A Progress given to the listing and to solve() counts the positions listed, then the sweeps
//   (the positions updated as its rate, the residual as its stage).
#pragma once

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "solver/chance.h"
#include "solver/game_concept.h"
#include "solver/game_value.h"
#include "solver/progress.h"
#include "solver/turn_order.h"

namespace solver {

template <typename G>
requires KeyedGame<G> && PointsGame<G> && ChanceGame<G>
class ChanceFixedPoint {
 public:
  using Position = typename G::Position;

  ChanceFixedPoint(const G& game, const Position& root, std::uint64_t max_positions,
                   Progress* progress = nullptr)
      : game_(game) {
    if (progress) progress->set_stage("listing the positions");
    std::vector<Position> todo = {root};
    index_[game.raw_key(root)] = 0;
    nodes_.push_back({});
    for (std::size_t i = 0; i < todo.size(); ++i) {
      Position p = todo[i];
      nodes_[i].first = std::uint32_t(edges_.size());
      const auto add = [&](const Position& child, std::uint32_t weight) {
        const auto [it, fresh] =
            index_.try_emplace(game.raw_key(child), std::uint32_t(todo.size()));
        if (fresh) {
          if (todo.size() >= max_positions)
            throw std::length_error("more than " + std::to_string(max_positions) +
                                    " reachable positions");
          todo.push_back(child);
          nodes_.push_back({});
        }
        edges_.push_back({it->second, weight});
      };
      if (game.is_terminal(p)) {
        nodes_[i].kind = Kind::terminal;
        nodes_[i].value = double(terminal_points(game, p)[0]);
      } else if (game.is_chance(p)) {
        nodes_[i].kind = Kind::chance;
        typename G::ChanceList outcomes;
        game.chances(p, outcomes);
        for (int k = 0; k < outcomes.size(); ++k) {
          const auto undo = game.make_chance(p, outcomes[k].outcome);
          add(p, std::uint32_t(outcomes[k].weight));
          game.unmake_chance(p, outcomes[k].outcome, undo);
          nodes_[i].total += outcomes[k].weight;
        }
      } else {
        nodes_[i].kind = player_to_move(game, p) == 0 ? Kind::max : Kind::min;
        typename G::MoveList moves;
        game.generate(p, moves);
        for (int k = 0; k < moves.size(); ++k) {
          const auto undo = game.make(p, moves[k]);
          add(p, 0);
          game.unmake(p, moves[k], undo);
        }
      }
      nodes_[i].count = std::uint32_t(edges_.size()) - nodes_[i].first;
      if (progress && (i & 4095) == 4095) progress->advance(4096), progress->add_to_rate(4096);
    }
  }

  std::uint64_t positions() const { return nodes_.size(); }

  int solve(double tolerance, int max_sweeps, Progress* progress = nullptr) {
    for (int sweep = 1; sweep <= max_sweeps; ++sweep) {
      if (progress) progress->set_stage("sweep " + std::to_string(sweep));
      double moved = 0;
      for (Node& n : nodes_) {
        if (n.kind == Kind::terminal) continue;
        const double v = update(n);
        moved = std::max(moved, std::abs(v - n.value));
        n.value = v;
      }
      residual_ = moved;
      if (progress) progress->add_to_rate(nodes_.size());
      if (moved <= tolerance) return sweep;
    }
    throw std::runtime_error("value iteration: no fixed point within " +
                             std::to_string(max_sweeps) + " sweeps");
  }
  // The largest change in the last sweep.
  double residual() const { return residual_; }

  // Player 0's value of a reachable position.
  double value(const Position& p) const {
    const auto it = index_.find(game_.raw_key(p));
    if (it == index_.end()) throw std::invalid_argument("not a position reachable from the root");
    return nodes_[it->second].value;
  }

 private:
  enum class Kind : std::uint8_t { terminal, chance, max, min };
  struct Node {
    Kind kind = Kind::terminal;
    double value = 0;
    std::uint32_t first = 0, count = 0;
    std::uint64_t total = 0;  // a chance position's weights
  };
  struct Edge {
    std::uint32_t to, weight;
  };

  double update(const Node& n) const {
    const Edge* e = &edges_[n.first];
    if (n.kind == Kind::chance) {
      double sum = 0;
      for (std::uint32_t k = 0; k < n.count; ++k) sum += e[k].weight * nodes_[e[k].to].value;
      return sum / double(n.total);
    }
    double best = nodes_[e[0].to].value;
    for (std::uint32_t k = 1; k < n.count; ++k) {
      const double v = nodes_[e[k].to].value;
      best = n.kind == Kind::max ? std::max(best, v) : std::min(best, v);
    }
    return best;
  }

  const G& game_;
  absl::flat_hash_map<typename G::Key, std::uint32_t> index_;
  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  double residual_ = 0;
};

}  // namespace solver
