// The positions of a keyed game (game_concept.h) reachable from given roots, as a graph that the
// retrograde labelling walks backwards (cyclic_retrograde.h: two sides, values for the side to
// move), and which other labellings can share (one exploration, labelled as they need). One node
// per canonical key, so mirror images and colour swaps are explored once; ids dense, in
// breadth-first order. G::Key must be hashable by absl (AbslHashValue), as for the forward solver's
// table.
//
// Predecessors by a stored forward index
// The exploration plays every move of every position once and stores its children's ids (CSR:
// offsets and ids, each parent's distinct children once); reverse() turns that into the reverse
// index (each position's parents) by counting sort. Predecessors could instead come from
// unmoves, generated on the fly with no edges stored, but that takes a retro-move generator per
// game, the exact inverse of its move generator (uncaptures, undrops, which unmoves are legal), a
// second rules implementation to get right and test, which no game here has; so unmoves were not
// tried. The forward index needs only what every KeyedGame already has (generate, make,
// canonical_key), and its reverse is exact by construction. Its price is memory: 4 bytes a link
// each way, and a hash map from key to id, which games with a perfect index (the acyclic tier
// solver's dense ranks, tablebase/SOLVER.md) do without.
//
// Memory, counted before each allocation against the CountedMemory given
// - Exploring: the key -> id hash map, sizeof(key, id) + 1 control byte a slot (25 bytes with
//   16-byte keys), 8/7 to 16/7 slots a position, and while it doubles the old slots beside the
//   new; per position a raw key (to rebuild the position when its turn to expand comes: from_key
//   need only invert raw_key) and a forward offset (8 bytes); per link a child id (4). Arrays grow
//   by doubling, so each may hold up to twice its length.
// - reverse(): the raw keys are gone (freed when the exploration ends), then come a link count
//   per position (4 bytes), a reverse offset (8) and a parent id per link (4), beside the forward
//   index, which is then freed.
// On 3x3:NBRK from the start (2.29e6 positions, 1.60e7 links) the peak is the reverse index's
// build, 283 MiB: the map 100 MiB, the two index arrays 125, the offsets and counts 58; the
// exploration's own peak, 276 MiB, came when the raw keys doubled at 2.10e6 positions.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/counted_memory.h"
#include "solver/game_concept.h"
#include "solver/progress.h"

namespace solver {

template <KeyedGame G>
class PositionGraph {
 public:
  using Position = typename G::Position;
  using Key = typename G::Key;
  using Id = std::uint32_t;
  // Ids and distances (which are below the number of positions: one level at least a distance)
  // share 32-bit words with a value's two bits in the labellings.
  static constexpr std::uint64_t kMaxPositions = std::uint64_t{1} << 30;

  // Explores everything reachable from the roots; throws CyclicMemoryError when the memory's cap
  // is too small, std::invalid_argument when keys do not fit.
  PositionGraph(const G& game, std::span<const Position> roots, CountedMemory& memory,
                bool show_progress)
      : game_(game), memory_(memory) {
    if (!game.keys_fit())
      throw std::invalid_argument("this variant's positions do not fit exact 128-bit keys");
    memory_.describe_progress([this] {
      return " at " + std::to_string(std::max<std::uint64_t>(ids_.size(), positions_)) +
             " positions and " + std::to_string(links_) + " links";
    });
    explore(roots, show_progress);
  }
  PositionGraph(const PositionGraph&) = delete;
  PositionGraph& operator=(const PositionGraph&) = delete;

  std::uint64_t positions() const { return positions_; }
  std::uint64_t moves() const { return moves_; }  // generated in positions not finished
  std::uint64_t links() const { return links_; }  // distinct (position, child) pairs

  // The id of the position with this canonical key; nullopt if it was not reached.
  std::optional<Id> find(const Key& canonical) const {
    const auto it = ids_.find(canonical);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
  }
  // Calls f(canonical key, id) for every position, in no particular order.
  template <typename F>
  void for_each_key(F&& f) const {
    for (const auto& [key, id] : ids_) f(key, id);
  }

  // Replaces the forward index by its reverse, after counting each position's links.
  void reverse() {
    const std::uint64_t n = positions_, links = links_;
    link_counts_ = memory_.counted<std::uint32_t>(n, 0, "the link counts");
    for (std::uint64_t i = 0; i < n; ++i)
      link_counts_[i] = std::uint32_t(offsets_[i + 1] - offsets_[i]);
    // Counting sort: parents_at_[c] ends as the first of c's parents.
    parents_at_ = memory_.counted<std::uint64_t>(n + 1, 0, "the reverse offsets");
    for (Id c : children_) ++parents_at_[c];
    for (std::uint64_t i = 1; i <= n; ++i) parents_at_[i] += parents_at_[i - 1];
    parents_ = memory_.counted<Id>(links, 0, "the reverse index");
    for (std::uint64_t p = 0; p < n; ++p)
      for (std::uint64_t k = offsets_[p]; k < offsets_[p + 1]; ++k)
        parents_[--parents_at_[children_[k]]] = Id(p);
    memory_.release(children_);
    memory_.release(offsets_);
  }

  // After reverse(): how many links leave each position (counted memory the caller releases, for
  // a labelling that counts them down in place), or a look at them.
  std::vector<std::uint32_t> take_link_counts() { return std::move(link_counts_); }
  const std::vector<std::uint32_t>& link_counts() const { return link_counts_; }
  // After reverse(): the links into c are k in [parent_offsets()[c], parent_offsets()[c + 1]),
  // each from parents()[k].
  std::span<const std::uint64_t> parent_offsets() const { return parents_at_; }
  std::span<const Id> parents() const { return parents_; }
  // Frees the reverse index and the link counts, when no labelling needs them any more.
  void release_links() {
    memory_.release(parents_);
    memory_.release(parents_at_);
    memory_.release(link_counts_);
  }

 private:
  // The id of p's canonical key, given the next one if new (and then p's raw key stored: only
  // then, as it costs a key computation per move).
  Id id_of(const Key& canonical, const Position& p) {
    const std::uint64_t capacity = ids_.capacity();
    const bool may_grow = ids_.size() + 1 > capacity - capacity / 8;
    if (may_grow) {
      if (const auto it = ids_.find(canonical); it != ids_.end()) return it->second;
      // absl doubles a full table, moving the slots from the old array to the new one.
      memory_.take((2 * capacity + 1) * kSlotBytes, "the key map's growth");
    }
    const auto [it, added] = ids_.try_emplace(canonical, Id(raw_.size()));
    if (may_grow) memory_.give((2 * capacity + 1) * kSlotBytes);
    if (ids_.capacity() != capacity) {  // the new array, counted as it is, replaces the old one
      memory_.give(capacity * kSlotBytes);
      memory_.take(ids_.capacity() * kSlotBytes, "the key map");
    }
    if (added) {
      if (raw_.size() == kMaxPositions)
        throw std::length_error("the position graph holds at most 2^30 positions");
      memory_.make_room(raw_, "the raw keys");
      raw_.push_back(game_.raw_key(p));
    }
    return it->second;
  }

  void explore(std::span<const Position> roots, bool show_progress) {
    Progress progress("explore", 0, "positions", show_progress);
    for (const Position& root : roots) id_of(game_.canonical_key(root), root);
    memory_.make_room(offsets_, "the forward offsets");
    offsets_.push_back(0);
    typename G::MoveList moves;
    std::vector<std::pair<Key, Position>> reached;  // this position's children, with their keys
    std::vector<Id> mine;                           // and their ids
    for (Id id = 0; id < raw_.size(); ++id) {
      Position p = game_.from_key(raw_[id]);
      mine.clear();
      if (!game_.is_terminal(p)) {
        game_.generate(p, moves);
        moves_ += moves.size();
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
        memory_.make_room(children_, "the forward index");
        children_.push_back(child);
      }
      links_ = children_.size();
      memory_.make_room(offsets_, "the forward offsets");
      offsets_.push_back(children_.size());
      progress.set_total(raw_.size());
      progress.advance();
      progress.add_to_rate(1);
    }
    positions_ = raw_.size();
    memory_.release(raw_);
  }

  // absl's slot: the pair and one control byte.
  static constexpr std::uint64_t kSlotBytes = sizeof(std::pair<const Key, Id>) + 1;

  const G& game_;
  CountedMemory& memory_;
  std::uint64_t positions_ = 0, moves_ = 0, links_ = 0;
  absl::flat_hash_map<Key, Id> ids_;        // canonical key -> id
  std::vector<Key> raw_;                    // id -> raw key, while exploring
  std::vector<std::uint64_t> offsets_;      // children_[offsets_[i], offsets_[i + 1])
  std::vector<Id> children_;                // the forward index
  std::vector<std::uint32_t> link_counts_;  // after reverse()
  std::vector<std::uint64_t> parents_at_;   // parents_[parents_at_[c], parents_at_[c + 1])
  std::vector<Id> parents_;                 // the reverse index
};

}  // namespace solver
