// The drop family's positions as a TierSpace: tiers and slices from tier.h, indices from index.h,
// symmetry classes from the board's symmetry group (mover-relative, so colour swaps share too).
#pragma once

#include <string>
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

  // use_symmetry=false makes every position its own representative (to measure what it saves).
  explicit DropTierSpace(const drop::Game& game, bool use_symmetry = true);

  const drop::Game& game() const { return game_; }
  const TierLayout& layout() const { return layout_; }
  std::string variant_name() const { return game_.variant().name(); }
  std::uint64_t total_positions() const { return layout_.total_positions(); }

  int tier_count() const { return int(layout_.tiers().size()); }
  const std::string& tier_name(int t) const { return layout_.tiers()[t].name; }
  std::uint64_t tier_size(int t) const { return layout_.tiers()[t].size; }
  const std::vector<int>& tier_children(int t) const { return layout_.tiers()[t].children; }
  const std::vector<IndexRange>& tier_passes(int t) const { return layout_.tiers()[t].passes; }

  // The position at an index, White to move (positions are mover-relative).
  drop::Position unrank(int tier, std::uint64_t index) const;
  // Where a position is stored; tier -1 if its material is not the variant's.
  Location locate(const drop::Position& p) const {
    const int s = layout_.slice_of(p);
    if (s < 0) return {};
    const Slice& slice = layout_.slices()[s];
    return {slice.tier, slice.offset + index_[s].rank(groups_of(p))};
  }

  // The first index at or after `index` that may hold a representative (or the tier's size).
  // Ranks put the first two non-empty groups in the most significant digits, so every index
  // whose prefix has a smaller image under some symmetry is skipped a whole run at a time,
  // without unranking it: most non-representatives never cost anything.
  std::uint64_t next_candidate(int tier, std::uint64_t index) const;

  bool is_canonical(const drop::Position& p) const {
    return !use_symmetry_ || least_symmetry(game_.geometry(), groups_of(p)) == 0;
  }
  template <typename Visit>
  void for_each_other_image(const drop::Position& p, Visit visit) const {
    if (!use_symmetry_) return;
    const Groups groups = groups_of(p);
    const int s = layout_.slice_of(p);
    const SliceInfo& info = info_[s];
    const auto& symmetries = game_.geometry().symmetries();
    for (std::size_t i = 1; i < symmetries.size(); ++i) {
      Groups image{};
      bool same = true;
      for (int k = 0; k < info.group_count; ++k) {
        const int g = info.groups[k];
        image[g] = symmetries[i].apply(groups[g]);
        same &= image[g] == groups[g];
      }
      if (!same) visit(layout_.slices()[s].offset + index_[s].rank(image));
    }
  }

  // Calls visit(location) for the position after each legal move. The child's slice follows from
  // the parent's and the kind of move (table child_ below), so only its rank is computed.
  template <typename Visit>
  void for_each_child(drop::Position p, Visit visit) const {
    const SliceInfo& info = info_[layout_.slice_of(p)];
    const drop::Color us = p.side_to_move;
    drop::MoveList moves;
    game_.generate(p, moves);
    for (const drop::Move m : moves) {
      const auto undo = game_.make(p, m);
      const int kind = m.is_drop() ? m.dropped()
                                   : (undo.captured_color == us ? 1 : 2) * drop::kPieceTypes +
                                         undo.captured_type;
      const int c = info.child[kind];
      const Slice& child = layout_.slices()[c];
      visit(Location{child.tier, child.offset + index_[c].rank(groups_of(p))});
      game_.unmake(p, m, undo);
    }
  }

  Location representative(const drop::Position& p) const;

 private:
  const drop::Game& game_;
  TierLayout layout_;
  int slice_at(int tier, std::uint64_t index) const;

  // Per slice, the prefixes (ranks of the first two non-empty groups) that may start a
  // representative: next_prefix[k] is the first such prefix >= k, or the number of prefixes.
  struct Prefixes {
    std::uint64_t weight = 1;  // indices per prefix
    std::vector<std::uint32_t> next_prefix;
  };

  struct SliceInfo {
    // Slice after a move: [t] a drop of type t, [5 + t] a capture of one's own piece of type t,
    // [10 + t] of the opponent's (-1 where impossible).
    std::array<int, 3 * drop::kPieceTypes> child{};
    std::array<std::int8_t, kGroups> groups{};  // the non-empty groups
    int group_count = 0;
  };

  std::vector<PlacementIndex> index_;  // per slice
  std::vector<SliceInfo> info_;        // per slice
  std::vector<Prefixes> prefixes_;     // per slice
  bool use_symmetry_;
};

static_assert(TierSpace<DropTierSpace>);

}  // namespace tablebase
