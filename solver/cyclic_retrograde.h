// Retrograde analysis for games with cycles and draws: the exact win/draw/loss value and distance
// (wdl.h) of every position reachable from given roots. Class of game: two players taking turns
// (TwoPlayerGame, turn_order.h), win/loss with draws of endless play, keyed (game_concept.h).
//
// Contract
// - Values are for the side to move. A position the game calls terminal (is_terminal: the side to
//   move has lost) is a loss in 0, and so is one without a legal move; its moves, if the game lists
//   any, are not played. Otherwise the position is a win in 1 + the least distance of its losing
//   children if it has one (the winner hurries), a loss in 1 + the greatest distance of its
//   children when every child is a win (the loser delays), and a draw when neither is ever settled:
//   play that can go on for ever without either side being forced to lose. Wins have odd distances
//   and losses even ones, as in outcome.h, but the value is stored apart because draws have none.
// - Positions are those reachable from the roots (one or more), one entry per canonical_key, so
//   mirror images and colour swaps are solved once. Ids are dense, given in breadth-first order.
//   G::Key must be hashable by absl (AbslHashValue), as for the forward solver's table.
//
// Predecessors by a stored forward index
// The exploration plays every move of every position once and stores its children's ids (CSR:
// offsets and ids, each parent's distinct children once); the solver turns that into the reverse
// index (each position's parents) by counting sort. Predecessors could instead come from
// unmoves, generated on the fly with no edges stored, but that takes a retro-move generator per
// game, the exact inverse of its move generator (uncaptures, undrops, which unmoves are legal), a
// second rules implementation to get right and test, which no game here has; so unmoves were not
// tried. The forward index needs only what every KeyedGame already has (generate, make,
// canonical_key), and its reverse is exact by construction. Its price is memory: 4 bytes a link
// each way, and a hash map from key to id, which games with a perfect index (the acyclic tier
// solver's dense ranks, tablebase/SOLVER.md) do without.
//
// Algorithm: counters of unresolved children, resolved positions in order of distance
// Every position starts unresolved with a counter of its distinct children. The positions without
// children are losses in 0 and go into a FIFO queue. Taking position c, resolved at distance d,
// each unresolved parent p is told: if c is a loss, p becomes a win in d + 1; if c is a win, p's
// counter drops by one, and at 0 p becomes a loss in d + 1. Either way p joins the queue. When the
// queue is empty, the positions still unresolved are the draws.
// Why the distances are exact: the queue starts with every position of distance 0 and a position
// taken at distance d only enqueues positions at d + 1, so positions leave the queue by levels,
// in order of distance (breadth-first). A parent turns into a win at the first losing child taken,
// which is the least distant one: 1 + the least. It turns into a loss when its last child is
// taken as a win, which is then the most distant: 1 + the greatest, and only if every child won
// (a losing child never counts down, so a parent that has one never reaches 0). A parent resolved
// once is skipped later, so nothing is overwritten. A position left unresolved has no losing
// child (it would have won) and a child that is not a win (its counter stayed above 0), so an
// unresolved one: from there either side can always move to another unresolved position, and
// neither can force the game to end: a draw. (The tests compare all this with the plain fixed
// point of those rules on every position.)
//
// Speed, against the acyclic tier solver on the same acyclic variant (bench/cyclic_bench.cpp,
// 3x3:NBRK, one thread each, one run): 2.29e6 positions in 12.5 s against 3.54e6 entries (2.67e6
// symmetry classes) in 2.6 s, 5.7x fewer classes a second, on a machine loaded to twice its
// cores. By perf, about half of this solver's time is the hash map (random reads in a 100 MiB
// table), a quarter the canonical keys (the least of the board's 8 images, from the mover's side),
// a tenth page faults, and under a tenth the retrograde itself. The tier solver has no map and no
// stored index: it finds a child's entry by its dense rank (mapping only the rank's prefix to its
// least image), reads one byte, and solves each entry once in a fixed order.
//
// Memory, counted before each allocation against options.memory_bytes
// - Exploring: the key -> id hash map, sizeof(key, id) + 1 control byte a slot (25 bytes with
//   16-byte keys), 8/7 to 16/7 slots a position, and while it doubles the old slots beside the
//   new; per position a raw key (to rebuild the position when its turn to expand comes: from_key
//   need only invert raw_key) and a forward offset (8 bytes); per link a child id (4). Arrays grow
//   by doubling, so each may hold up to twice its length.
// - Solving: the raw keys are freed, then come a counter (4 bytes), a reverse offset (8) and a
//   parent id per link (4), beside the forward index until the reverse one is built; the forward
//   one is then freed, and a value (4) and a queue slot (4) a position follow.
// - After solving, the map and the values stay for queries.
// On 3x3:NBRK from the start (2.29e6 positions, 1.60e7 links) the peak is the reverse index's
// build, 283 MiB: the map 100 MiB, the two index arrays 125, the offsets and counters 58; the
// exploration's own peak, 276 MiB, came when the raw keys doubled at 2.10e6 positions.
// The first allocation that would pass the cap throws CyclicMemoryError naming the numbers, so an
// exploration too big for the cap stops before the solve begins (every array the solve needs is
// allocated before its first step). The report gives the peak counted.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/game_concept.h"
#include "solver/progress.h"
#include "solver/size_text.h"
#include "solver/turn_order.h"
#include "solver/wdl.h"

namespace solver {

// The exploration or the solve would pass the memory cap; the message says how far it got.
class CyclicMemoryError : public std::runtime_error {
 public:
  explicit CyclicMemoryError(const std::string& what) : std::runtime_error(what) {}
};

struct CyclicSolveOptions {
  std::uint64_t memory_bytes = std::uint64_t{1} << 30;
  bool show_progress = false;
};

struct CyclicSolveReport {
  std::uint64_t positions = 0;  // distinct canonical positions reached from the roots
  std::uint64_t moves = 0;      // moves generated in positions that are not terminal
  std::uint64_t links = 0;      // distinct (position, child) pairs: the forward index's length
  std::uint64_t wins = 0, draws = 0, losses = 0;
  int longest_win = 0, longest_loss = 0;  // the greatest distance of each (0 if none)
  std::uint64_t peak_bytes = 0;           // the most the counted arrays held at once
  double explore_seconds = 0, solve_seconds = 0;
};

template <typename Move>
struct WdlAnalysis {
  struct MoveResult {
    Move move;
    WdlValue value;  // for the side that plays it (mover_value of the child's)
  };
  WdlValue value;                 // of the position, for the side to move
  std::vector<MoveResult> moves;  // in generation order; none in a terminal position
};

template <KeyedGame G>
requires TwoPlayerGame<G>
class CyclicRetrograde {
 public:
  using Position = typename G::Position;
  using Key = typename G::Key;
  using Move = typename G::Move;
  using Analysis = WdlAnalysis<Move>;

  // Explores everything reachable from the roots and solves it; throws CyclicMemoryError when the
  // cap is too small.
  CyclicRetrograde(const G& game, std::span<const Position> roots, CyclicSolveOptions options)
      : game_(game), options_(options) {
    if (!game.keys_fit())
      throw std::invalid_argument("this variant's positions do not fit exact 128-bit keys");
    const auto start = std::chrono::steady_clock::now();
    explore(roots);
    const auto explored = std::chrono::steady_clock::now();
    solve();
    const auto solved = std::chrono::steady_clock::now();
    report_.explore_seconds = std::chrono::duration<double>(explored - start).count();
    report_.solve_seconds = std::chrono::duration<double>(solved - explored).count();
  }

  const CyclicSolveReport& report() const { return report_; }

  // The value of the position with this canonical key; nullopt if it was not reached.
  std::optional<WdlValue> value_of_key(const Key& canonical) const {
    const auto it = ids_.find(canonical);
    if (it == ids_.end()) return std::nullopt;
    return unpack(values_[it->second]);
  }
  std::optional<WdlValue> value(const Position& p) const {
    return value_of_key(game_.canonical_key(p));
  }

  // What the counted arrays hold now (after solving: the map and the values).
  std::uint64_t held_bytes() const { return held_; }

  // Calls f(canonical key, value) for every position solved, in no particular order: what a
  // table writer stores.
  template <typename F>
  void for_each_value(F&& f) const {
    for (const auto& [key, id] : ids_) f(key, unpack(values_[id]));
  }

  // The position's value and what each move gives the side that plays it; throws
  // std::invalid_argument for a position that was not reached from the roots.
  Analysis analyze(Position p) const {
    const auto own = value(p);
    if (!own) throw std::invalid_argument("the position was not reached from the solved roots");
    Analysis a{*own, {}};
    if (game_.is_terminal(p)) return a;
    typename G::MoveList moves;
    game_.generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      const auto child = value(p);  // reached: every child of a reached position was
      game_.unmake(p, moves[i], undo);
      a.moves.push_back({moves[i], mover_value(*child)});
    }
    return a;
  }

 private:
  using Id = std::uint32_t;
  // Ids and distances (which are below the number of positions: one level at least a distance)
  // share 32-bit words with the value's two bits.
  static constexpr std::uint64_t kMaxPositions = std::uint64_t{1} << 30;
  // absl's slot: the pair and one control byte.
  static constexpr std::uint64_t kSlotBytes = sizeof(std::pair<const Key, Id>) + 1;
  static constexpr std::uint32_t kUnresolved = std::uint32_t(Wdl::draw);

  static constexpr std::uint32_t pack(Wdl v, int distance) {
    return std::uint32_t(distance) << 2 | std::uint32_t(v);
  }
  static constexpr WdlValue unpack(std::uint32_t word) { return {Wdl(word & 3), int(word >> 2)}; }

  // --- the memory count ---
  void take(std::uint64_t bytes, const char* what) {
    if (held_ + bytes > options_.memory_bytes)
      throw CyclicMemoryError("cyclic retrograde needs more than the memory cap of " +
                              size_text(options_.memory_bytes) + ": " + size_text(held_) +
                              " held at " + std::to_string(positions_seen()) + " positions and " +
                              std::to_string(report_.links) + " links, and " + what +
                              " would take " + size_text(bytes) + " more");
    held_ += bytes;
    report_.peak_bytes = std::max(report_.peak_bytes, held_);
  }
  void give(std::uint64_t bytes) { held_ -= bytes; }
  std::uint64_t positions_seen() const { return std::max<std::uint64_t>(ids_.size(), positions_); }

  // Makes room for one more element, doubling the array (old and new held while it moves).
  template <typename T>
  void make_room(std::vector<T>& v, const char* what) {
    if (v.size() < v.capacity()) return;
    const std::size_t old = v.capacity();
    const std::size_t grown = std::max<std::size_t>(2 * old, 1024);
    take(grown * sizeof(T), what);
    v.reserve(grown);
    give(old * sizeof(T));
  }
  template <typename T>
  void release(std::vector<T>& v) {
    give(v.capacity() * sizeof(T));
    std::vector<T>().swap(v);
  }
  // A counted array of n elements, each `fill`.
  template <typename T>
  std::vector<T> counted(std::size_t n, T fill, const char* what) {
    take(n * sizeof(T), what);
    return std::vector<T>(n, fill);
  }

  // --- exploration ---
  // The id of p's canonical key, given the next one if new (and then p's raw key stored: only
  // then, as it costs a key computation per move).
  Id id_of(const Key& canonical, const Position& p) {
    const std::uint64_t capacity = ids_.capacity();
    const bool may_grow = ids_.size() + 1 > capacity - capacity / 8;
    if (may_grow) {
      if (const auto it = ids_.find(canonical); it != ids_.end()) return it->second;
      // absl doubles a full table, moving the slots from the old array to the new one.
      take((2 * capacity + 1) * kSlotBytes, "the key map's growth");
    }
    const auto [it, added] = ids_.try_emplace(canonical, Id(raw_.size()));
    if (may_grow) give((2 * capacity + 1) * kSlotBytes);
    if (ids_.capacity() != capacity) {  // the new array, counted as it is, replaces the old one
      give(capacity * kSlotBytes);
      take(ids_.capacity() * kSlotBytes, "the key map");
    }
    if (added) {
      if (raw_.size() == kMaxPositions)
        throw std::length_error("cyclic retrograde handles at most 2^30 positions");
      make_room(raw_, "the raw keys");
      raw_.push_back(game_.raw_key(p));
    }
    return it->second;
  }

  void explore(std::span<const Position> roots) {
    Progress progress("explore", 0, "positions", options_.show_progress);
    for (const Position& root : roots) id_of(game_.canonical_key(root), root);
    make_room(offsets_, "the forward offsets");
    offsets_.push_back(0);
    typename G::MoveList moves;
    std::vector<std::pair<Key, Position>> reached;  // this position's children, with their keys
    std::vector<Id> mine;                           // and their ids
    for (Id id = 0; id < raw_.size(); ++id) {
      Position p = game_.from_key(raw_[id]);
      mine.clear();
      if (!game_.is_terminal(p)) {
        game_.generate(p, moves);
        report_.moves += moves.size();
        // Every child's key first, its slot in the map prefetched, then the look-ups: the map
        // is far bigger than the caches, and this way the misses overlap.
        reached.clear();
        for (int i = 0; i < moves.size(); ++i) {
          const auto undo = game_.make(p, moves[i]);
          reached.emplace_back(game_.canonical_key(p), p);
          ids_.prefetch(reached.back().first);
          game_.unmake(p, moves[i], undo);
        }
        for (const auto& [key, child] : reached) mine.push_back(id_of(key, child));
        // Symmetric moves reach one canonical child; one link serves them all.
        std::sort(mine.begin(), mine.end());
        mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
      }
      for (Id child : mine) {
        make_room(children_, "the forward index");
        children_.push_back(child);
      }
      report_.links = children_.size();
      make_room(offsets_, "the forward offsets");
      offsets_.push_back(children_.size());
      progress.set_total(raw_.size());
      progress.advance();
      progress.add_to_rate(1);
    }
    positions_ = raw_.size();
    report_.positions = positions_;
  }

  // --- retrograde ---
  void solve() {
    const std::uint64_t n = positions_, links = children_.size();
    release(raw_);
    // Counters of unresolved children.
    std::vector<std::uint32_t> remaining = counted<std::uint32_t>(n, 0, "the counters");
    for (std::uint64_t i = 0; i < n; ++i)
      remaining[i] = std::uint32_t(offsets_[i + 1] - offsets_[i]);
    // The reverse index by counting sort: parents_at[c] ends as the first of c's parents.
    std::vector<std::uint64_t> parents_at = counted<std::uint64_t>(n + 1, 0, "the reverse offsets");
    for (Id c : children_) ++parents_at[c];
    for (std::uint64_t i = 1; i <= n; ++i) parents_at[i] += parents_at[i - 1];
    std::vector<Id> parents = counted<Id>(links, 0, "the reverse index");
    for (std::uint64_t p = 0; p < n; ++p)
      for (std::uint64_t k = offsets_[p]; k < offsets_[p + 1]; ++k)
        parents[--parents_at[children_[k]]] = Id(p);
    release(children_);
    release(offsets_);
    values_ = counted<std::uint32_t>(n, kUnresolved, "the values");
    std::vector<Id> queue;
    take(n * sizeof(Id), "the queue");
    queue.reserve(n);

    Progress progress("retrograde", n, "positions", options_.show_progress);
    for (std::uint64_t i = 0; i < n; ++i)
      if (remaining[i] == 0) {
        values_[i] = pack(Wdl::loss, 0);
        queue.push_back(Id(i));
      }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const Id c = queue[head];
      const WdlValue v = unpack(values_[c]);
      for (std::uint64_t k = parents_at[c]; k < parents_at[c + 1]; ++k) {
        const Id p = parents[k];
        if (values_[p] != kUnresolved) continue;
        if (v.wdl == Wdl::loss) {
          values_[p] = pack(Wdl::win, v.distance + 1);
          queue.push_back(p);
        } else if (--remaining[p] == 0) {
          values_[p] = pack(Wdl::loss, v.distance + 1);
          queue.push_back(p);
        }
      }
      progress.advance();
      progress.add_to_rate(1);
    }
    progress.advance(n - queue.size());  // the draws, settled by the queue running dry

    for (std::uint32_t word : values_) {
      const WdlValue v = unpack(word);
      if (v.wdl == Wdl::win) {
        ++report_.wins;
        report_.longest_win = std::max(report_.longest_win, v.distance);
      } else if (v.wdl == Wdl::loss) {
        ++report_.losses;
        report_.longest_loss = std::max(report_.longest_loss, v.distance);
      } else {
        ++report_.draws;
      }
    }
    release(queue);
    release(parents);
    release(parents_at);
    release(remaining);
  }

  const G& game_;
  CyclicSolveOptions options_;
  CyclicSolveReport report_;
  std::uint64_t held_ = 0;  // bytes of the counted arrays now
  std::uint64_t positions_ = 0;
  absl::flat_hash_map<Key, Id> ids_;    // canonical key -> id
  std::vector<Key> raw_;                // id -> raw key, while exploring
  std::vector<std::uint64_t> offsets_;  // forward index: children_[offsets_[i], offsets_[i + 1])
  std::vector<Id> children_;
  std::vector<std::uint32_t> values_;  // id -> packed value
};

}  // namespace solver
