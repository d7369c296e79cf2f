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

  bool is_canonical(const drop::Position& p) const {
    return !use_symmetry_ || least_symmetry(game_.geometry(), groups_of(p)) == 0;
  }
  template <typename Visit>
  void for_each_other_image(const drop::Position& p, Visit visit) const {
    if (!use_symmetry_) return;
    const Groups groups = groups_of(p);
    const int s = layout_.slice_of(p);
    const auto& symmetries = game_.geometry().symmetries();
    for (std::size_t i = 1; i < symmetries.size(); ++i) {
      const Groups image = transform(symmetries[i], groups);
      if (image != groups) visit(layout_.slices()[s].offset + index_[s].rank(image));
    }
  }
  Location representative(const drop::Position& p) const;

 private:
  const drop::Game& game_;
  TierLayout layout_;
  std::vector<PlacementIndex> index_;  // per slice
  bool use_symmetry_;
};

static_assert(TierSpace<DropTierSpace>);

}  // namespace tablebase
