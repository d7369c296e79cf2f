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
    return {layout_.slices()[s].tier, stored_index(s, groups_of(p))};
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
    drop::Position p = position_at(s, index);
    const drop::Color us = p.side_to_move;
    drop::MoveList moves;
    game_.generate(p, moves);
    constexpr bool stops = !std::is_void_v<decltype(visit(Location{}))>;
    for (int k = 0; k < moves.size(); ++k) {
      const drop::Move m = moves[stops ? moves.size() - 1 - k : k];  // generated: drops first
      // A drop's child slice is known before the move is made; a capture's depends on its prey.
      if (m.is_drop() && !wanted[layout_.slices()[info.child[m.dropped()]].tier]) continue;
      const auto undo = game_.make(p, m);
      const int kind = m.is_drop() ? m.dropped()
                                   : (undo.captured_color == us ? 1 : 2) * drop::kPieceTypes +
                                         undo.captured_type;
      const int c = info.child[kind];
      const int child_tier = layout_.slices()[c].tier;
      bool go_on = true;
      if (wanted[child_tier]) {
        const Location at{child_tier, stored_index(c, groups_of(p))};
        if constexpr (std::is_void_v<decltype(visit(at))>)
          visit(at);
        else
          go_on = visit(at);
      }
      game_.unmake(p, m, undo);
      if (!go_on) return;
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
  // prefix alone picks the symmetry, so the rest is ranked once, after mapping.
  std::uint64_t stored_index(int s, Groups groups) const {
    const SliceInfo& info = info_[s];
    const PlacementIndex& index = index_[s];
    const PrefixEntry e = info.prefixes->entries[index.prefix_rank(groups, kPrefixGroups)];
    if (e.symmetry != 0) {
      const drop::Symmetry& symmetry = game_.geometry().symmetries()[e.symmetry];
      for (int k = 0; k < info.group_count; ++k) {
        const int g = info.groups[k];
        groups[g] = small_board_ ? symmetry.apply_small(std::uint32_t(groups[g]))
                                 : symmetry.apply(groups[g]);
      }
    }
    return info.offset + e.ordinal * info.weight + index.rest_rank(groups, kPrefixGroups);
  }
  int slice_at(int tier, std::uint64_t index) const;
  drop::Position position_at(int slice, std::uint64_t index) const;

  const drop::Game& game_;
  TierLayout layout_;
  bool use_symmetry_;
  bool small_board_;
  std::vector<PlacementIndex> index_;  // per slice
  std::vector<SliceInfo> info_;        // per slice
  std::vector<TierInfo> tiers_;
  std::uint64_t stored_total_ = 0;
  std::map<std::pair<int, int>, PrefixTable> prefix_tables_;  // node-based: pointers stay valid
};

static_assert(TierSpace<DropTierSpace>);

}  // namespace tablebase
