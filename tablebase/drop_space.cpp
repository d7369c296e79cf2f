#include "tablebase/drop_space.h"

#include <algorithm>

namespace tablebase {

DropTierSpace::DropTierSpace(const drop::Game& game, bool use_symmetry)
    : game_(game), layout_(game.variant()), use_symmetry_(use_symmetry) {
  index_.reserve(layout_.slices().size());
  for (const Slice& s : layout_.slices()) {
    std::array<int, kGroups> counts;
    for (int g = 0; g < kGroups; ++g)
      counts[g] = s.board[g / drop::kPieceTypes][g % drop::kPieceTypes];
    index_.emplace_back(game.geometry().squares(), counts);
  }
}

drop::Position DropTierSpace::unrank(int tier, std::uint64_t index) const {
  const auto& ids = layout_.tiers()[tier].slices;
  // The last slice that starts at or before `index`.
  const auto it = std::upper_bound(ids.begin(), ids.end(), index, [&](std::uint64_t i, int s) {
    return i < layout_.slices()[s].offset;
  });
  const int s = *(it - 1);
  const Slice& slice = layout_.slices()[s];
  const Groups groups = index_[s].unrank(index - slice.offset);
  drop::Position p;
  for (int g = 0; g < kGroups; ++g) {
    const drop::Color c = g < drop::kPieceTypes ? drop::kWhite : drop::kBlack;
    p.by_color[c] |= groups[g];
    p.by_type[g % drop::kPieceTypes] |= groups[g];
  }
  p.hand[drop::kWhite] = slice.hand[0];
  p.hand[drop::kBlack] = slice.hand[1];
  p.side_to_move = drop::kWhite;
  return p;
}

Location DropTierSpace::representative(const drop::Position& p) const {
  const int s = layout_.slice_of(p);
  if (s < 0) return {};
  const Slice& slice = layout_.slices()[s];
  Groups groups = groups_of(p);
  if (use_symmetry_)
    if (const int sym = least_symmetry(game_.geometry(), groups); sym != 0)
      groups = transform(game_.geometry().symmetries()[sym], groups);
  return {slice.tier, slice.offset + index_[s].rank(groups)};
}

}  // namespace tablebase
