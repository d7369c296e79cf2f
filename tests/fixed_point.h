// The plain fixed point of win/draw/loss values with distances, for any keyed game: the
// independent check of solver/cyclic_retrograde.h on tiny games (graphs here; small boards of
// games with cycles next). It shares nothing with the solver but the game and the rules of
// wdl.h: positions are kept whole (no from_key), looked up in a std::unordered_map, and values
// come from sweeps, not counters or a queue.
//
// Every position reachable from the roots is stored once per canonical key with its children; a
// terminal one or one without moves is a loss in 0. Then each sweep recomputes every value from
// its children's values of the sweep before, starting from "nothing known" (all draws): a win in
// 1 + the least distance of the losing children if there is one, else a loss in 1 + the greatest
// when every child wins, else a draw. After k sweeps the values are those of the game cut off
// after k plies, the cut counting as a draw, so they settle on the exact values: a win or a loss
// once k passes its distance, a draw because no cut-off game decides it. The sweeps stop when one
// changes nothing. Time: a sweep over every move per ply of the longest distance.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/game_concept.h"
#include "solver/wdl.h"

namespace test_support {

// Every position reachable from the roots, one per key_of(p) (the canonical key, or the raw key
// to take no symmetry at all), kept whole, with the index of each move's child in move order; a
// terminal position has none.
template <solver::KeyedGame G>
struct PlainGraph {
  using Position = typename G::Position;
  using Key = typename G::Key;
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return std::size_t(k.mix()); }
  };

  template <typename KeyOf>
  PlainGraph(const G& game, const std::vector<Position>& roots, KeyOf key_of) {
    const auto index_of = [&](const Position& p) {
      const auto [it, added] = index.try_emplace(key_of(p), int(positions.size()));
      if (added) positions.push_back(p);
      return it->second;
    };
    for (const Position& r : roots) index_of(r);
    for (std::size_t i = 0; i < positions.size(); ++i) {
      children.emplace_back();
      Position p = positions[i];
      if (game.is_terminal(p)) continue;
      typename G::MoveList moves;
      game.generate(p, moves);
      for (int m = 0; m < moves.size(); ++m) {
        const auto undo = game.make(p, moves[m]);
        const int child = index_of(p);
        game.unmake(p, moves[m], undo);
        children[i].push_back(child);
      }
    }
  }
  std::optional<int> find(const Key& key) const {
    const auto it = index.find(key);
    if (it == index.end()) return std::nullopt;
    return it->second;
  }

  std::vector<Position> positions;
  std::vector<std::vector<int>> children;
  std::unordered_map<Key, int, KeyHash> index;
};

template <solver::KeyedGame G>
class FixedPoint {
 public:
  using Position = typename G::Position;
  using Key = typename G::Key;

  FixedPoint(const G& game, const std::vector<Position>& roots)
      : graph_(game, roots, [&](const Position& p) { return game.canonical_key(p); }) {
    values_.assign(graph_.positions.size(), {solver::Wdl::draw, 0});
    for (bool changed = true; changed; ++sweeps_) {
      std::vector<solver::WdlValue> next(values_.size(), {solver::Wdl::draw, 0});
      for (std::size_t i = 0; i < values_.size(); ++i) next[i] = fold(graph_.children[i]);
      changed = next != values_;
      values_ = std::move(next);
    }
  }

  // The value of the position with this canonical key; nullopt if it was not reached.
  std::optional<solver::WdlValue> value(const Key& canonical) const {
    const auto i = graph_.find(canonical);
    if (!i) return std::nullopt;
    return values_[*i];
  }
  // Every position's canonical key with its value.
  std::vector<std::pair<Key, solver::WdlValue>> values() const {
    std::vector<std::pair<Key, solver::WdlValue>> out;
    for (const auto& [key, i] : graph_.index) out.emplace_back(key, values_[i]);
    return out;
  }
  std::size_t size() const { return values_.size(); }
  int sweeps() const { return sweeps_; }

 private:
  solver::WdlValue fold(const std::vector<int>& children) const {
    if (children.empty()) return {solver::Wdl::loss, 0};
    int quickest_loss = INT_MAX, slowest_win = -1;
    bool all_win = true;
    for (int c : children) {
      if (values_[c].wdl == solver::Wdl::loss)
        quickest_loss = std::min(quickest_loss, values_[c].distance);
      if (values_[c].wdl == solver::Wdl::win)
        slowest_win = std::max(slowest_win, values_[c].distance);
      else
        all_win = false;
    }
    if (quickest_loss != INT_MAX) return {solver::Wdl::win, quickest_loss + 1};
    if (all_win) return {solver::Wdl::loss, slowest_win + 1};
    return {solver::Wdl::draw, 0};
  }

  PlainGraph<G> graph_;  // by canonical key
  std::vector<solver::WdlValue> values_;
  int sweeps_ = 0;
};

}  // namespace test_support
