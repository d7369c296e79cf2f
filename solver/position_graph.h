// The positions of a keyed game (game_concept.h) reachable from given roots, as a graph that the
// retrograde labellings walk backwards: cyclic_retrograde.h (two sides, values for the side to
// move) and coalition_retrograde.h (every coalition of players, coalition_game.h). One node per
// canonical key, so mirror images and colour swaps are explored once; ids dense, in breadth-first
// order. G::Key must be hashable by absl (AbslHashValue), as for the forward solver's table.
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
// Players renamed by the symmetry (coalition_game.h's canonical_form)
// A node stands for the canonical image of its positions, players named as there. A game that
// renames players gets each node's representative stored with the renaming that took it to the
// image (the position expanded is the first one reached, not the image), and each link with the
// renaming from the parent's image to the child's: the child reached by a move is the parent's
// image played on, its players still named as in the parent's image, then renamed by its own
// canonicalisation. Two moves that reach one child under two renamings are two links (the
// labelling runs over positions and coalitions, and they reach different coalitions of the
// child). The renamings that occur are few (a game's symmetries), so a link holds a byte: an index
// into renamings(). A coalition game (CoalitionGame) also gets, per node, the player to move and,
// at finished positions, the players left, in the image's names. Games that rename no one and are
// not coalition games (Drop 16, Spock, the rook race) store none of it.
//
// Memory, counted before each allocation against the CountedMemory given
// - Exploring: the key -> id hash map, sizeof(key, id) + 1 control byte a slot (25 bytes with
//   16-byte keys), 8/7 to 16/7 slots a position, and while it doubles the old slots beside the
//   new; per position a raw key (to rebuild the position when its turn to expand comes: from_key
//   need only invert raw_key) and a forward offset (8 bytes); per link a child id (4). Renaming
//   games add a renaming per position (4 bytes) and a byte per link, coalition games two bytes per
//   position, and coalition games that rename the renamings reached (reached(): 8 bytes a
//   position, traced once the exploration is done with a flag and a queue slot, 5 more). Arrays
//   grow by doubling, so each may hold up to twice its length.
// - reverse(): the raw keys are gone (freed when the exploration ends), then come a link count
//   per position (4 bytes), a reverse offset (8) and a parent id per link (4, and a renaming byte),
//   beside the forward index, which is then freed.
// On 3x3:NBRK from the start (2.29e6 positions, 1.60e7 links) the peak is the reverse index's
// build, 283 MiB: the map 100 MiB, the two index arrays 125, the offsets and counts 58; the
// exploration's own peak, 276 MiB, came when the raw keys doubled at 2.10e6 positions.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/coalition_game.h"
#include "solver/counted_memory.h"
#include "solver/game_concept.h"
#include "solver/player_renaming.h"
#include "solver/progress.h"
#include "solver/stop_asked.h"

namespace solver {

template <KeyedGame G>
class PositionGraph {
 public:
  using Position = typename G::Position;
  using Key = typename G::Key;
  using Id = std::uint32_t;
  static constexpr bool kRenames = RenamesPlayers<G>;
  static constexpr bool kRecordsPlayers = CoalitionGame<G>;
  // Ids and distances (which are below the number of positions: one level at least a distance)
  // share 32-bit words with a value's two bits in the labellings.
  static constexpr std::uint64_t kMaxPositions = std::uint64_t{1} << 30;
  // The renamings a link can name (a byte), and those under which a node can be reached (a word).
  static constexpr std::size_t kMostRenamings = 256, kMostReached = 64;

  // Explores everything reachable from the roots; throws CyclicMemoryError when the memory's cap
  // is too small, std::invalid_argument when keys do not fit, StopAsked when `stop_requested`
  // (asked every 4096 positions) says to stop.
  PositionGraph(const G& game, std::span<const Position> roots, CountedMemory& memory,
                bool show_progress, const std::function<bool()>& stop_requested = {})
      : game_(game), memory_(memory) {
    if (!game.keys_fit())
      throw std::invalid_argument("this variant's positions do not fit exact 128-bit keys");
    if constexpr (kRecordsPlayers)
      if (game.players() < 2 || game.players() > kMostRenamedPlayers)
        throw std::invalid_argument("the coalition solver takes 2 to 8 players");
    memory_.describe_progress([this] {
      return " at " + std::to_string(std::max<std::uint64_t>(ids_.size(), positions_)) +
             " positions and " + std::to_string(links_) + " links";
    });
    explore(roots, show_progress, stop_requested);
  }
  PositionGraph(const PositionGraph&) = delete;
  PositionGraph& operator=(const PositionGraph&) = delete;

  std::uint64_t positions() const { return positions_; }
  std::uint64_t moves() const { return moves_; }  // generated in positions not finished
  std::uint64_t links() const { return links_; }  // distinct (position, child, renaming) triples

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

  // Coalition games: how many players, the player to move at the node, and the players left if it
  // is finished (0 if not), in the names of its canonical image.
  int players() const { return game_.players(); }
  int mover(Id id) const { return movers_[id]; }
  std::uint32_t players_left(Id id) const { return left_[id]; }
  // The renamings links carry; the first is the identity.
  const std::vector<PlayerRenaming>& renamings() const { return renamings_; }
  // Coalition games: the renamings that take the positions reached from the roots (players named
  // as at the roots) to node id's canonical image, as bits of reached_renamings(): the node's
  // positions reached are its image with the players renamed back by each. A game that renames
  // no one reaches every node under the identity alone.
  std::uint64_t reached(Id id) const {
    if constexpr (kRenames)
      return reached_[id];
    else
      return 1;
  }
  const std::vector<PlayerRenaming>& reached_renamings() const { return reached_renamings_; }
  // Frees what reached() reads.
  void release_reached() { memory_.release(reached_); }

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
    if constexpr (kRenames)
      parent_renamings_ = memory_.counted<std::uint8_t>(links, 0, "the reverse index's renamings");
    for (std::uint64_t p = 0; p < n; ++p)
      for (std::uint64_t k = offsets_[p]; k < offsets_[p + 1]; ++k) {
        const std::uint64_t at = --parents_at_[children_[k]];
        parents_[at] = Id(p);
        if constexpr (kRenames) parent_renamings_[at] = link_renamings_[k];
      }
    memory_.release(children_);
    memory_.release(link_renamings_);
    memory_.release(offsets_);
  }

  // After reverse(): how many links leave each position (counted memory the caller releases, for
  // a labelling that counts them down in place), or a look at them.
  std::vector<std::uint32_t> take_link_counts() { return std::move(link_counts_); }
  const std::vector<std::uint32_t>& link_counts() const { return link_counts_; }
  // After reverse(): the links into c are k in [parent_offsets()[c], parent_offsets()[c + 1]),
  // each from parents()[k], under renamings()[parent_renamings()[k]] (a game that renames no one
  // has no parent_renamings(): the identity).
  std::span<const std::uint64_t> parent_offsets() const { return parents_at_; }
  std::span<const Id> parents() const { return parents_; }
  std::span<const std::uint8_t> parent_renamings() const { return parent_renamings_; }
  // Frees the reverse index and the link counts, when no labelling needs them any more.
  void release_links() {
    memory_.release(parents_);
    memory_.release(parent_renamings_);
    memory_.release(parents_at_);
    memory_.release(link_counts_);
  }

 private:
  // The id of p's canonical key, given the next one if new (and then p's raw key stored: only
  // then, as it costs a key computation per move).
  Id id_of(const CanonicalImage<Key>& image, const Position& p) {
    const std::uint64_t capacity = ids_.capacity();
    const bool may_grow = ids_.size() + 1 > capacity - capacity / 8;
    if (may_grow) {
      if (const auto it = ids_.find(image.key); it != ids_.end()) return it->second;
      // absl doubles a full table, moving the slots from the old array to the new one.
      memory_.take((2 * capacity + 1) * kSlotBytes, "the key map's growth");
    }
    const auto [it, added] = ids_.try_emplace(image.key, Id(raw_.size()));
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
      if constexpr (kRenames) {
        memory_.make_room(raw_renamings_, "the raw keys' renamings");
        raw_renamings_.push_back(image.renaming);
      }
    }
    return it->second;
  }

  // The index of renaming r in renamings_, added if new.
  std::uint8_t renaming_index(PlayerRenaming r) {
    for (std::size_t i = 0; i < renamings_.size(); ++i)
      if (renamings_[i] == r) return std::uint8_t(i);
    if (renamings_.size() == kMostRenamings)
      throw std::length_error("more than 256 player renamings on the links");
    renamings_.push_back(r);
    return std::uint8_t(renamings_.size() - 1);
  }

  // Coalition games: the node's player to move and players left, in its image's names.
  void record_players(const Position& p, PlayerRenaming named, bool finished) {
    memory_.make_room(movers_, "the players to move");
    movers_.push_back(std::uint8_t(named[player_to_move(game_, p)]));
    std::uint32_t left = 0;
    if (finished) {
      const std::uint32_t all = (1u << game_.players()) - 1;
      left = std::uint32_t(game_.players_left(p));
      if (left == 0 || (left & ~all))
        throw std::logic_error("players_left at a finished position names no player, or more");
      left = named.rename(left);
    }
    memory_.make_room(left_, "the players left");
    left_.push_back(std::uint8_t(left));
  }

  void explore(std::span<const Position> roots, bool show_progress,
               const std::function<bool()>& stop_requested) {
    Progress progress("explore", 0, "positions", show_progress);
    // The roots into the map first (nothing kept of them: the renamings' trace finds them again).
    for (const Position& root : roots) id_of(canonical_image(game_, root), root);
    memory_.make_room(offsets_, "the forward offsets");
    offsets_.push_back(0);
    typename G::MoveList moves;
    // This position's children with their canonical images, and their links: the child's id (and
    // in the high bits, for a renaming game, the renaming's index).
    std::vector<std::pair<CanonicalImage<Key>, Position>> reached;
    std::vector<std::conditional_t<kRenames, std::uint64_t, Id>> mine;
    for (Id id = 0; id < raw_.size(); ++id) {
      if (id % 4096 == 0) check_stop(stop_requested);
      Position p = game_.from_key(raw_[id]);
      PlayerRenaming named, unnamed;  // to the image's names and back
      if constexpr (kRenames) {
        named = raw_renamings_[id];
        unnamed = named.inverse();
      }
      mine.clear();
      const bool terminal = game_.is_terminal(p);
      if (!terminal) {
        game_.generate(p, moves);
        moves_ += moves.size();
        // Every child's key first, its slot in the map prefetched, then the look-ups: the map
        // is far bigger than the caches, and this way the misses overlap.
        reached.clear();
        for (int i = 0; i < moves.size(); ++i) {
          const auto undo = game_.make(p, moves[i]);
          reached.emplace_back(canonical_image(game_, p), p);
          ids_.prefetch(reached.back().first.key);
          game_.unmake(p, moves[i], undo);
        }
        for (const auto& [image, child] : reached) {
          const Id c = id_of(image, child);
          if constexpr (kRenames)
            mine.push_back(std::uint64_t(c) << 8 | renaming_index(unnamed.then(image.renaming)));
          else
            mine.push_back(c);
        }
        // Symmetric moves reach one canonical child; one link serves them all.
        std::sort(mine.begin(), mine.end());
        mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
      }
      if constexpr (kRecordsPlayers) record_players(p, named, terminal || moves.size() == 0);
      for (const auto link : mine) {
        memory_.make_room(children_, "the forward index");
        if constexpr (kRenames) {
          children_.push_back(Id(link >> 8));
          memory_.make_room(link_renamings_, "the links' renamings");
          link_renamings_.push_back(std::uint8_t(link));
        } else {
          children_.push_back(link);
        }
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
    memory_.release(raw_renamings_);
    if constexpr (kRenames && kRecordsPlayers) trace_renamings(roots);
  }

  // Which renamings take the positions reached to each node's image, propagated along the forward
  // links to a fixed point: a root's own, and for a link under renaming r out of a node reached
  // under renaming s, s then r (the child's position in the root's names, renamed to the parent's
  // image, then to the child's). A node's set only grows, by at most kMostReached members, so a
  // node is queued again only when its set grows, and a flag keeps it in the queue once.
  void trace_renamings(std::span<const Position> roots) {
    const std::uint64_t n = positions_;
    reached_ = memory_.counted<std::uint64_t>(n, 0, "the renamings reached");
    std::vector<std::uint8_t> queued = memory_.counted<std::uint8_t>(n, 0, "the renamings' flags");
    std::vector<Id> ring = memory_.counted<Id>(n, 0, "the renamings' queue");
    std::uint64_t head = 0, size = 0;
    const auto push = [&](Id id) {
      if (queued[id]) return;
      queued[id] = 1;
      ring[(head + size++) % n] = id;
    };
    for (const Position& root : roots) {
      const auto image = canonical_image(game_, root);
      const Id id = ids_.find(image.key)->second;  // in the map since the exploration began
      reached_[id] |= std::uint64_t{1} << reached_index(image.renaming);
      push(id);
    }
    // then[s * renamings_.size() + r]: the index of reached renaming s then link renaming r.
    std::vector<int> then(kMostReached * renamings_.size(), -1);
    while (size) {
      const Id p = ring[head];
      head = (head + 1) % n;
      --size;
      queued[p] = 0;
      for (std::uint64_t k = offsets_[p]; k < offsets_[p + 1]; ++k) {
        const Id c = children_[k];
        const std::size_t r = link_renamings_[k];
        std::uint64_t add = 0;
        for (std::uint64_t from = reached_[p]; from; from &= from - 1) {
          const int s = std::countr_zero(from);
          int& to = then[s * renamings_.size() + r];
          if (to < 0) to = reached_index(reached_renamings_[s].then(renamings_[r]));
          add |= std::uint64_t{1} << to;
        }
        if (add & ~reached_[c]) {
          reached_[c] |= add;
          push(c);
        }
      }
    }
    memory_.release(ring);
    memory_.release(queued);
  }
  int reached_index(PlayerRenaming r) {
    for (std::size_t i = 0; i < reached_renamings_.size(); ++i)
      if (reached_renamings_[i] == r) return int(i);
    if (reached_renamings_.size() == kMostReached)
      throw std::length_error("positions reached under more than 64 player renamings");
    reached_renamings_.push_back(r);
    return int(reached_renamings_.size() - 1);
  }

  // absl's slot: the pair and one control byte.
  static constexpr std::uint64_t kSlotBytes = sizeof(std::pair<const Key, Id>) + 1;

  const G& game_;
  CountedMemory& memory_;
  std::uint64_t positions_ = 0, moves_ = 0, links_ = 0;
  absl::flat_hash_map<Key, Id> ids_;           // canonical key -> id
  std::vector<Key> raw_;                       // id -> raw key, while exploring
  std::vector<PlayerRenaming> raw_renamings_;  // id -> its raw key's renaming to the image
  std::vector<PlayerRenaming> renamings_ = std::vector<PlayerRenaming>(1);  // identity first
  std::vector<std::uint64_t> offsets_;        // children_[offsets_[i], offsets_[i + 1])
  std::vector<Id> children_;                  // the forward index
  std::vector<std::uint8_t> link_renamings_;  // beside it, renaming games only
  std::vector<std::uint8_t> movers_, left_;   // coalition games only
  std::vector<std::uint64_t> reached_;        // coalition games that rename only
  std::vector<PlayerRenaming> reached_renamings_ = std::vector<PlayerRenaming>(1);
  std::vector<std::uint32_t> link_counts_;      // after reverse()
  std::vector<std::uint64_t> parents_at_;       // parents_[parents_at_[c], parents_at_[c + 1])
  std::vector<Id> parents_;                     // the reverse index
  std::vector<std::uint8_t> parent_renamings_;  // beside it, renaming games only
};

}  // namespace solver
