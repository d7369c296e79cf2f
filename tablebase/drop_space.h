// The drop family's positions as a TierSpace: tiers and slices from tier.h, placements ranked by
// index.h, and only symmetry representatives stored.
//
// Storing representatives only: in each slice the first two groups with pieces on the board (the
// rank's most significant digits, its "prefix") are kept only in their least image under the
// board's symmetries, so a slice stores (canonical prefixes) x (placements of the other groups)
// entries: about an eighth of its positions on a square board. A position is found by mapping it
// with the symmetry that makes its prefix canonical. A prefix that some symmetry maps to itself
// (two pieces on a diagonal, say) leaves a few classes stored more than once; each copy is solved
// on its own and they agree, which costs a little time and nothing in correctness.
#pragma once

#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rules/drop/game.h"
#include "tablebase/index.h"
#include "tablebase/tier.h"
#include "tablebase/tier_space.h"

namespace tablebase {

class DropTierSpace {
 public:
  using Game = drop::Game;
  using Position = drop::Position;

  // use_symmetry=false stores every position (to measure what the reduction saves); max_pieces
  // keeps the tiers of at most that many pieces in play (tier.h), endgame tables.
  explicit DropTierSpace(const drop::Game& game, bool use_symmetry = true,
                         int max_pieces = TierLayout::kAllPieces);

  const drop::Game& game() const { return game_; }
  const TierLayout& layout() const { return layout_; }
  std::string variant_name() const { return game_.variant().name(); }
  // Positions of the variant, and the entries that store them.
  std::uint64_t total_positions() const { return layout_.total_positions(); }
  std::uint64_t stored_positions() const { return stored_total_; }
  std::uint64_t memory_bytes() const;

  int tier_count() const { return int(layout_.tiers().size()); }
  const std::string& tier_name(int t) const { return layout_.tiers()[t].name; }
  std::uint64_t tier_size(int t) const { return tiers_[t].size; }
  std::uint64_t tier_positions(int t) const { return layout_.tiers()[t].size; }
  const std::vector<int>& tier_children(int t) const { return layout_.tiers()[t].children; }
  const std::vector<IndexRange>& tier_passes(int t) const { return tiers_[t].passes; }

  // The stored position at an index, White to move (positions are mover-relative).
  drop::Position unrank(int tier, std::uint64_t index) const;
  // Where the value of p (an image of p, to be exact) is stored; tier -1 if its material is not
  // the variant's or has more pieces than max_pieces.
  Location locate(const drop::Position& p) const {
    const int s = layout_.slice_of(p);
    if (s < 0) return {};
    Groups groups = groups_of(p);
    return {layout_.slices()[s].tier, stored_index(s, groups)};
  }

  // Calls visit(location) for the position after each legal move of the entry at (tier, index)
  // whose child lies in a tier with wanted[tier] set; the other children are not located at all.
  // A visit that returns bool stops the moves by returning false; it gets the captures first, as
  // they take material and so more often leave the opponent lost (value-only sweeps stop at the
  // first such child). The child's slice follows from the entry's and the kind of move
  // (SliceInfo::child), so only its rank is computed.
  template <typename Visit>
  void for_each_child(int tier, std::uint64_t index, const std::vector<char>& wanted,
                      Visit visit) const {
    const int s = slice_at(tier, index);
    const SliceInfo& info = info_[s];
    const Groups groups = groups_at(s, index);
    drop::MoveList moves;
    game_.generate(position_of(s, groups), moves);
    constexpr bool stops = !std::is_void_v<decltype(visit(Location{}))>;
    // The children's groups follow from the entry's by the move, sides swapped: no position is
    // made and taken back, and the prey's group names the child's slice.
    Groups swapped, child;
    swap_sides(groups, swapped);
    SharedPrefix shared(swapped);
    for (int k = 0; k < moves.size(); ++k) {
      const drop::Move m = moves[stops ? moves.size() - 1 - k : k];  // generated: drops first
      ChildMove move{.to = m.to()};
      int kind;
      if (m.is_drop()) {
        kind = m.dropped();
        move.moved = drop::kPieceTypes + kind;  // our pieces are the child's second side
      } else {
        move.from = m.from();
        int mover = 0, prey = 0;
        while (!(groups[mover] & drop::square_bit(move.from))) ++mover;
        while (!(groups[prey] & drop::square_bit(move.to))) ++prey;
        // [5 + t] a capture of one's own piece of type t, [10 + t] of the opponent's.
        kind = drop::kPieceTypes + prey;
        move.moved = drop::kPieceTypes + mover;
        move.taken = prey < drop::kPieceTypes ? drop::kPieceTypes + prey : prey - drop::kPieceTypes;
      }
      const int c = info.child[kind];
      const int child_tier = layout_.slices()[c].tier;
      if (!wanted[child_tier]) continue;
      std::uint64_t at;
      if (shared.keeps(move)) {
        if (!shared.ready) shared.prepare(*this, c);
        child = shared.mapped;
        move.apply(child, &game_.geometry().symmetries()[shared.symmetry]);
        at = info_[c].offset + shared.ordinal * info_[c].weight +
             index_[c].rest_rank(child, kPrefixGroups);
      } else {
        child = swapped;
        move.apply(child, nullptr);
        at = stored_index(c, child);
      }
      if constexpr (stops) {
        if (!visit(Location{child_tier, at})) return;
      } else {
        visit(Location{child_tier, at});
      }
    }
  }

 private:
  // For each rank of a prefix: the ordinal of its least image among the canonical prefixes, and
  // the symmetry that maps it there (0 for a canonical prefix).
  struct PrefixEntry {
    std::uint32_t ordinal = 0;
    std::uint32_t symmetry = 0;
  };
  struct PrefixTable {
    std::vector<PrefixEntry> entries;  // by prefix rank
    std::vector<std::uint32_t> ranks;  // prefix rank of each canonical prefix, by ordinal
  };
  static constexpr int kPrefixGroups = 2;
  // Prefix tables depend only on the two groups' piece counts, so slices share them.
  const PrefixTable& prefix_table(int first_count, int second_count);

  // A move as it changes the child's groups (the entry's with the sides swapped): a piece of
  // group `moved` goes from `from` (-1 for a drop) to `to`, taking a piece of group `taken`.
  struct ChildMove {
    int from = -1, to = 0;
    int moved = 0, taken = -1;
    // On the child's groups, or on their image under `symmetry` (mapping the squares).
    void apply(Groups& groups, const drop::Symmetry* symmetry) const {
      const auto bit = [&](int sq) {
        return drop::square_bit(symmetry ? symmetry->image[sq] : sq);
      };
      if (taken >= 0) groups[taken] &= ~bit(to);
      groups[moved] ^= (from >= 0 ? bit(from) : 0) | bit(to);
    }
  };
  // What the stored indexes of an entry's children share when the child's side to move keeps
  // two groups with pieces on the board: those two are every child's prefix (its first groups),
  // so the symmetry that makes the prefix canonical, its ordinal and the image of the rest of
  // the entry are found once, not once a child. Only a capture from those groups changes them.
  struct SharedPrefix {
    explicit SharedPrefix(const Groups& swapped) : swapped(swapped) {
      for (int g = 0; g < drop::kPieceTypes && second < 0; ++g)
        if (swapped[g]) (first < 0 ? first : second) = g;
    }
    bool keeps(const ChildMove& m) const {
      return second >= 0 && m.taken != first && m.taken != second;
    }
    // From the first child that keeps the prefix, in slice c (any such child gives the same).
    void prepare(const DropTierSpace& space, int c) {
      const SliceInfo& info = space.info_[c];
      const PrefixEntry e =
          info.prefixes->entries[space.index_[c].prefix_rank(swapped, kPrefixGroups)];
      ordinal = e.ordinal;
      symmetry = int(e.symmetry);
      // Every group, not only slice c's: the children of other slices use it too.
      const drop::Symmetry& image = space.game_.geometry().symmetries()[symmetry];
      for (int g = 0; g < kGroups; ++g) mapped[g] = space.map_group(image, swapped[g]);
      ready = true;
    }

    const Groups& swapped;
    int first = -1, second = -1;  // the child's first two groups, if both on the first side
    bool ready = false;
    std::uint64_t ordinal = 0;
    int symmetry = 0;
    Groups mapped;
  };

  struct SliceInfo {
    // Slice after a move: [t] a drop of type t, [5 + t] a capture of one's own piece of type t,
    // [10 + t] of the opponent's (-1 where impossible).
    std::array<int, 3 * drop::kPieceTypes> child{};
    std::array<std::int8_t, kGroups> groups{};  // the non-empty groups
    int group_count = 0;
    std::uint64_t offset = 0;  // first stored index of the slice in its tier
    std::uint64_t weight = 1;  // placements of the groups after the prefix
    const PrefixTable* prefixes = nullptr;
  };
  struct TierInfo {
    std::uint64_t size = 0;  // stored entries
    std::vector<IndexRange> passes;
  };

  // Stored index of a placement in slice s: the rank of its image with a canonical prefix. The
  // prefix alone picks the symmetry, so the rest is ranked once, after mapping (in place: the
  // groups are the caller's scratch, and not copying them is measurably faster).
  std::uint64_t stored_index(int s, Groups& groups) const {
    const SliceInfo& info = info_[s];
    const PlacementIndex& index = index_[s];
    const PrefixEntry e = info.prefixes->entries[index.prefix_rank(groups, kPrefixGroups)];
    if (e.symmetry != 0) map_groups(game_.geometry().symmetries()[e.symmetry], info, groups);
    return info.offset + e.ordinal * info.weight + index.rest_rank(groups, kPrefixGroups);
  }
  drop::Bitboard map_group(const drop::Symmetry& symmetry, drop::Bitboard squares) const {
    return board_ == Board::kTiny    ? symmetry.apply_tiny(std::uint32_t(squares))
           : board_ == Board::kSmall ? symmetry.apply_small(std::uint32_t(squares))
                                     : symmetry.apply(squares);
  }
  // The groups of a placement of slice `info` mapped by a symmetry, in place.
  void map_groups(const drop::Symmetry& symmetry, const SliceInfo& info, Groups& groups) const {
    for (int k = 0; k < info.group_count; ++k)
      groups[info.groups[k]] = map_group(symmetry, groups[info.groups[k]]);
  }
  int slice_at(int tier, std::uint64_t index) const;
  // The groups of the placement stored at a tier index of slice s, and its position.
  Groups groups_at(int s, std::uint64_t index) const;
  drop::Position position_of(int s, const Groups& groups) const;
  // The groups seen from the other side: each side's groups in the other's place.
  static void swap_sides(const Groups& groups, Groups& swapped) {
    for (int t = 0; t < drop::kPieceTypes; ++t) {
      swapped[t] = groups[drop::kPieceTypes + t];
      swapped[drop::kPieceTypes + t] = groups[t];
    }
  }

  const drop::Game& game_;
  TierLayout layout_;
  bool use_symmetry_;
  // Which of Symmetry's mappings fits the board: up to 16 squares, up to 32, any.
  enum class Board { kTiny, kSmall, kAny } board_;
  std::vector<PlacementIndex> index_;  // per slice
  std::vector<SliceInfo> info_;        // per slice
  std::vector<TierInfo> tiers_;
  std::uint64_t stored_total_ = 0;
  std::map<std::pair<int, int>, PrefixTable> prefix_tables_;  // node-based: pointers stay valid
};

static_assert(TierSpace<DropTierSpace>);

}  // namespace tablebase
