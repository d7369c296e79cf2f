#include "tablebase/drop_space.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tablebase/tier_files.h"

namespace tablebase {

DropTierSpace::DropTierSpace(const drop::Game& game, bool use_symmetry)
    : game_(game), layout_(game.variant()), use_symmetry_(use_symmetry) {
  // Every ply drops a piece or removes one: a game lasts at most pieces + (pieces - 1) plies,
  // and the solver keeps DTEs in kDteMask's bits.
  const int pieces =
      game.variant().hand_size(drop::kWhite) + game.variant().hand_size(drop::kBlack);
  if (2 * pieces - 1 > kMaxDte)
    throw std::invalid_argument("variant " + game.variant().name() + " can last " +
                                std::to_string(2 * pieces - 1) + " plies, more than the tables' " +
                                std::to_string(kMaxDte));
  index_.reserve(layout_.slices().size());
  for (const Slice& s : layout_.slices()) {
    std::array<int, kGroups> counts;
    for (int g = 0; g < kGroups; ++g)
      counts[g] = s.board[g / drop::kPieceTypes][g % drop::kPieceTypes];
    index_.emplace_back(game.geometry().squares(), counts);
    // The prefix index: the same counts with every group after the first two non-empty ones
    // emptied, whose ranks are exactly the leading digits of the full ranks.
    std::array<int, kGroups> prefix_counts{};
    int kept = 0;
    for (int g = 0; g < kGroups && kept < 2; ++g)
      if (counts[g]) {
        prefix_counts[g] = counts[g];
        ++kept;
      }
    const PlacementIndex prefix_index(game.geometry().squares(), prefix_counts);
    Prefixes prefixes;
    prefixes.weight = prefix_index.size() ? index_.back().size() / prefix_index.size() : 1;
    prefixes.next_prefix.resize(prefix_index.size() + 1);
    prefixes.next_prefix.back() = std::uint32_t(prefix_index.size());
    for (std::uint64_t k = prefix_index.size(); k-- > 0;)
      prefixes.next_prefix[k] =
          !use_symmetry_ || least_symmetry(game.geometry(), prefix_index.unrank(k)) == 0
              ? std::uint32_t(k)
              : prefixes.next_prefix[k + 1];
    prefixes_.push_back(std::move(prefixes));

    SliceInfo info;
    for (int g = 0; g < kGroups; ++g)
      if (counts[g]) info.groups[info.group_count++] = std::int8_t(g);
    for (int t = 0; t < drop::kPieceTypes; ++t) {
      // After any move the other side is to move: the child's side 0 is this slice's side 1.
      std::array<drop::Hand, 2> board = {s.board[1], s.board[0]}, hand = {s.hand[1], s.hand[0]};
      info.child[t] = info.child[5 + t] = info.child[10 + t] = -1;
      if (s.hand[0][t] && s.on_board < game.geometry().squares()) {
        ++board[1][t];
        --hand[1][t];
        info.child[t] = layout_.slice_with(board, hand);
        --board[1][t];
        ++hand[1][t];
      }
      for (int side = 0; side < 2; ++side)
        if (s.board[side][t]) {
          --board[1 - side][t];
          info.child[(1 + side) * drop::kPieceTypes + t] = layout_.slice_with(board, hand);
          ++board[1 - side][t];
        }
    }
    info_.push_back(info);
  }
}

int DropTierSpace::slice_at(int tier, std::uint64_t index) const {
  const auto& ids = layout_.tiers()[tier].slices;
  // The last slice that starts at or before `index`.
  const auto it = std::upper_bound(ids.begin(), ids.end(), index, [&](std::uint64_t i, int s) {
    return i < layout_.slices()[s].offset;
  });
  return *(it - 1);
}

std::uint64_t DropTierSpace::next_candidate(int tier, std::uint64_t index) const {
  const std::uint64_t end = tier_size(tier);
  while (index < end) {
    const int s = slice_at(tier, index);
    const Slice& slice = layout_.slices()[s];
    const Prefixes& prefixes = prefixes_[s];
    const std::uint64_t local = index - slice.offset;
    const std::uint64_t k = local / prefixes.weight;
    const std::uint64_t next = prefixes.next_prefix[k];
    if (next == k) return index;
    index = slice.offset + std::min(slice.size, next * prefixes.weight);
  }
  return end;
}

drop::Position DropTierSpace::unrank(int tier, std::uint64_t index) const {
  const int s = slice_at(tier, index);
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
