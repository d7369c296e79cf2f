// Retrograde analysis for games of more than two players with cycles: the exact win/draw/loss
// value and distance of every coalition (coalition_game.h states the class of game and what a
// coalition's value is) at every position reachable from given roots, from one exploration.
//
// Positions and coalitions
// The positions are the position graph's (position_graph.h: one node per canonical key, the
// forward index and its reverse, the two-sided labelling of cyclic_retrograde.h walks the same).
// A node stands for its canonical image, players named as there; a link carries the renaming from
// the parent's image to the child's, so coalition S at the parent reaches renamed(S) at the child.
// S and its complement have opposite values and one distance, so the labelling keeps one value
// per split of the players: split u (0 <= u < 2^(n-1) - 1) is coalition u + 1 against the rest, the
// coalitions without the last player standing for their complements. The states are the pairs
// (position, split).
//
// Algorithm: counters of unresolved children, as cyclic_retrograde.h, on (position, split) pairs
// A state's children are its links' (child, renamed split) pairs. Values are kept from the side of
// the split's coalition S; at a state the side choosing is S when the player to move is in S, the
// rest otherwise. Finished positions are valued by the players left (win 0, loss 0, or a draw,
// which is never resolved and so counts as the draws of endless play do) and queued; every other
// state starts with a counter of its links. Taking a resolved child in d, each unresolved parent
// state, its coalition the child's renamed back (the complement's, value turned over, when the
// renamed coalition holds the last player), sees the child's value w for its own coalition: if w
// is what its chooser wants (a win when S chooses, a loss when the rest does) the parent takes w
// in d + 1 at once, the least distance since states leave the queue by levels; else its counter
// drops, and at 0 every child gave w, the last the most distant: the parent takes w in d + 1.
// States never resolved are draws. The argument of cyclic_retrograde.h carries over word for word,
// with "the side to move" read as "the side choosing".
// Splits only meet through renamings, so they fall into classes (closed under the renamings the
// links carry: for a game that renames no one, each split alone; for quarter turns of four
// players, the four single players, the two pairs of neighbours, the pair of opposites), labelled
// one class after the other with counters and queue sized for the largest class.
//
// Memory, counted before each allocation against options.memory_bytes (counted_memory.h)
// - Exploring and reversing: the position graph's (position_graph.h).
// - Labelling: a value per state (4 bytes a position and split), then, for the largest class of c
//   splits, a counter (4) and a queue slot (8) per position and split of the class. All of it is
//   taken before the first step, so a solve that cannot fit is refused before it starts.
// - The kingmaker count: a byte a position. Then the reverse index and the renamings reached are
//   freed; the map, the values and two bytes a position stay for queries.
#pragma once

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "solver/coalition_game.h"
#include "solver/coalition_splits.h"
#include "solver/counted_memory.h"
#include "solver/position_graph.h"
#include "solver/progress.h"
#include "solver/stop_asked.h"
#include "solver/wdl.h"

namespace solver {

// Every split's value at every position of a position graph (packed, wdl.h), from the side of the
// split's coalition, in the names of the position's canonical image.
class CoalitionValues {
 public:
  CoalitionValues(CoalitionSplits splits, std::vector<std::uint32_t> words, int classes)
      : splits_(splits), words_(std::move(words)), classes_(classes) {}
  const CoalitionSplits& splits() const { return splits_; }
  // How many classes of splits were labelled apart.
  int classes() const { return classes_; }
  // Coalition s's value at node id (s valid, in the node's names).
  WdlValue at(std::uint32_t id, std::uint32_t s) const {
    const auto [split, rest] = splits_.of(s);
    const WdlValue v = unpack_wdl(words_[std::uint64_t(id) * splits_.count() + split]);
    return rest ? opposite(v) : v;
  }

 private:
  CoalitionSplits splits_;
  std::vector<std::uint32_t> words_;  // id * splits + split
  int classes_;
};

// The labelling above over a reversed position graph of a coalition game; reads the graph's links
// and link counts, and leaves them for the caller to free. Throws StopAsked when `stop_requested`
// (asked every 4096 states) says to stop.
template <CoalitionGame G>
CoalitionValues label_coalitions(const PositionGraph<G>& graph, CountedMemory& memory,
                                 bool show_progress,
                                 const std::function<bool()>& stop_requested = {}) {
  using Id = typename PositionGraph<G>::Id;
  const CoalitionSplits splits(graph.players());
  const int count = splits.count();
  const std::uint64_t n = graph.positions();
  const auto& renamings = graph.renamings();
  // step[r * count + u]: for a link under renaming r into the child's split u, the parent's split
  // (low 7 bits) and whether the parent's coalition is that split's rest (bit 7).
  std::vector<std::uint8_t> step(renamings.size() * count);
  std::vector<int> root(count);  // the splits' classes, by union-find
  std::iota(root.begin(), root.end(), 0);
  const auto find = [&](int u) {
    while (root[u] != u) u = root[u] = root[root[u]];
    return u;
  };
  for (std::size_t r = 0; r < renamings.size(); ++r)
    for (int u = 0; u < count; ++u) {
      const auto [s, rest] = splits.of(renamings[r].inverse().rename(splits.coalition(u)));
      step[r * count + u] = std::uint8_t(s | int(rest) << 7);
      root[find(u)] = find(s);
    }
  std::vector<std::vector<int>> classes;
  std::vector<int> local(count);  // a split's index in its class
  for (int u = 0; u < count; ++u) {
    std::vector<int>* cls = nullptr;
    for (auto& c : classes)
      if (find(c.front()) == find(u)) cls = &c;
    if (!cls) cls = &classes.emplace_back();
    local[u] = int(cls->size());
    cls->push_back(u);
  }
  std::uint64_t widest = 0;
  for (const auto& c : classes) widest = std::max<std::uint64_t>(widest, c.size());
  if (n * widest >= PositionGraph<G>::kMaxPositions)  // a distance is below a class's states
    throw std::length_error("the coalition labelling handles at most 2^30 states a class");

  std::vector<std::uint32_t> values =
      memory.counted<std::uint32_t>(n * count, kPackedDraw, "the coalitions' values");
  std::vector<std::uint32_t> remaining =
      memory.counted<std::uint32_t>(n * widest, 0, "the coalitions' counters");
  std::vector<std::uint64_t> queue;  // id << 7 | the split's index in its class
  memory.take(n * widest * sizeof(std::uint64_t), "the coalitions' queue");
  queue.reserve(n * widest);

  Progress progress("coalitions", n * count, "states", show_progress);
  const std::vector<std::uint32_t>& links = graph.link_counts();
  const auto parents_at = graph.parent_offsets();
  const auto parents = graph.parents();
  const auto parent_renamings = graph.parent_renamings();
  for (const auto& cls : classes) {
    const std::uint64_t width = cls.size();
    queue.clear();
    for (std::uint64_t id = 0; id < n; ++id) {
      const std::uint32_t left = graph.players_left(Id(id));
      for (std::uint64_t j = 0; j < width; ++j) {
        const std::uint32_t s = splits.coalition(cls[j]);
        remaining[id * width + j] = links[id];
        if (!left) continue;
        if ((left & ~s) && (left & s)) continue;  // a drawn end: never resolved
        values[id * count + cls[j]] = pack_wdl({left & s ? Wdl::win : Wdl::loss, 0});
        queue.push_back(id << 7 | j);
      }
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      if (head % 4096 == 0) check_stop(stop_requested);
      const Id c = Id(queue[head] >> 7);
      const int u = cls[queue[head] & 127];
      const WdlValue v = unpack_wdl(values[std::uint64_t(c) * count + u]);
      for (std::uint64_t k = parents_at[c]; k < parents_at[c + 1]; ++k) {
        const std::uint64_t p = parents[k];
        const int r = PositionGraph<G>::kRenames ? parent_renamings[k] : 0;
        const std::uint8_t to = step[r * count + u];
        const int s = to & 127;
        std::uint32_t& parent = values[p * count + s];
        if (parent != kPackedDraw) continue;
        const Wdl w = to >> 7 ? opposite(v).wdl : v.wdl;  // the child's value for s
        const bool s_chooses = splits.coalition(s) >> graph.mover(Id(p)) & 1;
        if ((w == Wdl::win) == s_chooses || --remaining[p * width + local[s]] == 0) {
          parent = pack_wdl({w, v.distance + 1});
          queue.push_back(p << 7 | std::uint64_t(local[s]));
        }
      }
      progress.advance();
      progress.add_to_rate(1);
    }
    progress.advance(n * width - queue.size());  // the draws
  }
  memory.release(queue);
  memory.release(remaining);
  return {splits, std::move(values), int(classes.size())};
}

// Kingmaker positions, counted once per canonical position: positions not finished whose player
// to move m cannot force its own win alone ({m} against the rest is not a win) but can choose
// among at least two opponents which one can: the players a != m such that {a} can force a win
// after some move of m are two or more. (After one move at most one player can force a win alone,
// as two disjoint coalitions cannot both; m is never among them, or m would win by that move.)
// Needs the graph's reverse index and a byte per position.
template <CoalitionGame G>
std::uint64_t count_kingmakers(const PositionGraph<G>& graph, const CoalitionValues& values,
                               CountedMemory& memory) {
  using Id = typename PositionGraph<G>::Id;
  const std::uint64_t n = graph.positions();
  const int players = graph.players();
  const auto& renamings = graph.renamings();
  const auto parents_at = graph.parent_offsets();
  const auto parents = graph.parents();
  const auto parent_renamings = graph.parent_renamings();
  // kings[p]: the players who can force a win alone after one of p's moves, in p's names.
  std::vector<std::uint8_t> kings = memory.counted<std::uint8_t>(n, 0, "the kingmakers' kings");
  for (std::uint64_t c = 0; c < n; ++c) {
    std::uint32_t winners = 0;
    for (int a = 0; a < players; ++a)
      if (values.at(Id(c), 1u << a).wdl == Wdl::win) winners |= 1u << a;
    if (!winners) continue;
    for (std::uint64_t k = parents_at[c]; k < parents_at[c + 1]; ++k) {
      const int r = PositionGraph<G>::kRenames ? parent_renamings[k] : 0;
      kings[parents[k]] |= std::uint8_t(renamings[r].inverse().rename(winners));
    }
  }
  std::uint64_t kingmakers = 0;
  for (std::uint64_t p = 0; p < n; ++p) {
    const int m = graph.mover(Id(p));
    if (graph.players_left(Id(p)) || values.at(Id(p), 1u << m).wdl == Wdl::win) continue;
    kingmakers += std::popcount(kings[p] & ~(1u << m)) >= 2;
  }
  memory.release(kings);
  return kingmakers;
}

struct CoalitionSolveOptions {
  std::uint64_t memory_bytes = std::uint64_t{1} << 30;
  bool show_progress = false;
  std::function<bool()> stop_requested =
      {};  // asked now and then: true stops the solve (StopAsked)
};

struct CoalitionSolveReport {
  std::uint64_t positions = 0;  // distinct canonical positions reached from the roots
  std::uint64_t moves = 0;      // moves generated in positions not finished
  std::uint64_t links = 0;      // distinct (position, child, renaming) triples
  int players = 0;
  std::uint64_t renamings = 0;          // distinct player renamings on links (the identity too)
  std::uint64_t coalition_classes = 0;  // classes of splits labelled apart
  std::vector<CoalitionTally> splits;   // one per split, named by its coalition without the last
  // By coalition (bit q for player q, named as at the roots): its longest forced win over the
  // positions reached, -1 if it forces a win at none (and for the empty coalition and everyone).
  std::vector<int> longest_wins;
  std::uint64_t kingmakers = 0;  // count_kingmakers
  std::uint64_t peak_bytes = 0;  // the most the counted arrays held at once
  double explore_seconds = 0, solve_seconds = 0;
};

template <CoalitionGame G>
class CoalitionRetrograde {
 public:
  using Position = typename G::Position;
  using Key = typename G::Key;

  // Explores everything reachable from the roots and labels every coalition; throws
  // CyclicMemoryError when the cap is too small (before the labelling starts, if it is that which
  // does not fit), StopAsked when options.stop_requested says to stop.
  CoalitionRetrograde(const G& game, std::span<const Position> roots, CoalitionSolveOptions options)
      : game_(game),
        memory_(options.memory_bytes, "coalition retrograde"),
        graph_(game, roots, memory_, options.show_progress, options.stop_requested),
        splits_(graph_.players()) {
    const auto explored = std::chrono::steady_clock::now();
    graph_.reverse();
    values_.emplace(
        label_coalitions(graph_, memory_, options.show_progress, options.stop_requested));
    report_.kingmakers = count_kingmakers(graph_, *values_, memory_);
    graph_.release_links();
    tally();
    find_longest_wins();
    graph_.release_reached();
    const auto solved = std::chrono::steady_clock::now();
    report_.positions = graph_.positions();
    report_.moves = graph_.moves();
    report_.links = graph_.links();
    report_.players = game.players();
    report_.renamings = graph_.renamings().size();
    report_.coalition_classes = values_->classes();
    report_.peak_bytes = memory_.peak();
    report_.explore_seconds = std::chrono::duration<double>(explored - start_).count();
    report_.solve_seconds = std::chrono::duration<double>(solved - explored).count();
  }

  const CoalitionSolveReport& report() const { return report_; }
  int players() const { return splits_.players(); }
  // What the counted arrays hold now (after solving: the map, the values, two bytes a position).
  std::uint64_t held_bytes() const { return memory_.held(); }

  // Coalition s's value at p (s a set of p's players, bit q for player q, neither none nor all:
  // std::invalid_argument otherwise), from s's side; nullopt if p was not reached.
  std::optional<WdlValue> value(const Position& p, std::uint32_t s) const {
    if (!splits_.valid(s))
      throw std::invalid_argument("a coalition holds some of the players, not none nor all");
    const auto image = canonical_image(game_, p);
    const auto id = graph_.find(image.key);
    if (!id) return std::nullopt;
    return values_->at(*id, image.renaming.rename(s));
  }

  // Calls f(canonical key, values) for every position reached, in no particular order: values[u]
  // is split u's value (coalition CoalitionSplits::coalition(u) against the rest, from its side)
  // in the names of the key's canonical image, what a table of the solve stores.
  template <typename F>
  void for_each_value(F&& f) const {
    std::vector<WdlValue> values(splits_.count());
    graph_.for_each_key([&](const Key& key, auto id) {
      for (int u = 0; u < splits_.count(); ++u)
        values[u] = values_->at(std::uint32_t(id), splits_.coalition(u));
      f(key, std::span<const WdlValue>(values));
    });
  }

  // The coalitions that can force a win from p (each a set of p's players), in increasing order;
  // std::invalid_argument if p was not reached. A coalition holding one that wins wins too.
  std::vector<std::uint32_t> winning_coalitions(const Position& p) const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t s = 1; s < splits_.everyone(); ++s) {
      const auto v = value(p, s);
      if (!v) throw std::invalid_argument("the position was not reached from the solved roots");
      if (v->wdl == Wdl::win) out.push_back(s);
    }
    return out;
  }

  // The longest forced win of coalition s (players named as at the roots) over the positions
  // reached from the roots; nullopt if s can force a win at none of them.
  std::optional<int> longest_win(std::uint32_t s) const {
    if (!splits_.valid(s))
      throw std::invalid_argument("a coalition holds some of the players, not none nor all");
    if (report_.longest_wins[s] < 0) return std::nullopt;
    return report_.longest_wins[s];
  }

 private:
  void tally() {
    report_.splits = split_tallies(splits_);
    for (std::uint64_t id = 0; id < graph_.positions(); ++id)
      for (int u = 0; u < splits_.count(); ++u) {
        CoalitionTally& t = report_.splits[u];
        const WdlValue v = values_->at(std::uint32_t(id), splits_.coalition(u));
        if (v.wdl == Wdl::win) {
          ++t.wins;
          t.longest_win = std::max(t.longest_win, v.distance);
        } else if (v.wdl == Wdl::loss) {
          ++t.losses;
          t.longest_loss = std::max(t.longest_loss, v.distance);
        } else {
          ++t.draws;
        }
      }
  }

  // Every position reached is its node's image renamed back by one of the node's reached
  // renamings (position_graph.h), so coalition s there is s renamed at the image.
  void find_longest_wins() {
    std::vector<int>& longest = report_.longest_wins;
    longest.assign(splits_.everyone() + 1, -1);
    const auto& renamings = graph_.reached_renamings();
    for (std::uint64_t id = 0; id < graph_.positions(); ++id)
      for (std::uint64_t bits = graph_.reached(std::uint32_t(id)); bits; bits &= bits - 1) {
        const PlayerRenaming r = renamings[std::countr_zero(bits)];
        for (std::uint32_t s = 1; s < splits_.everyone(); ++s) {
          const WdlValue v = values_->at(std::uint32_t(id), r.rename(s));
          if (v.wdl == Wdl::win) longest[s] = std::max(longest[s], v.distance);
        }
      }
  }

  const G& game_;
  CoalitionSolveReport report_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  CountedMemory memory_;
  PositionGraph<G> graph_;  // explored in the constructor's initialisers
  CoalitionSplits splits_;
  std::optional<CoalitionValues> values_;
};

}  // namespace solver
