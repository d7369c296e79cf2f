#include "rules/drop/solve/tier_space.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tablebase/held_bytes.h"
#include "tablebase/tier_files.h"

namespace drop {

TierSpace::TierSpace(const drop::Game& game, bool use_symmetry, int max_pieces)
    : game_(game),
      layout_(game.variant(), max_pieces),
      use_symmetry_(use_symmetry),
      board_(game.geometry().squares() <= 16   ? Board::kTiny
             : game.geometry().squares() <= 32 ? Board::kSmall
                                               : Board::kAny) {
  // Every ply drops a piece or removes one: a game lasts at most pieces + (pieces - 1) plies,
  // and the solver keeps DTEs in kDteMask's bits.
  const int pieces =
      game.variant().hand_size(drop::kWhite) + game.variant().hand_size(drop::kBlack);
  if (2 * pieces - 1 > tablebase::kMaxDte)
    throw std::invalid_argument("variant " + game.variant().name() + " can last " +
                                std::to_string(2 * pieces - 1) + " plies, more than the tables' " +
                                std::to_string(tablebase::kMaxDte));
  index_.reserve(layout_.slices().size());
  for (const Slice& s : layout_.slices()) {
    std::array<int, tablebase::kGroups> counts;
    for (int g = 0; g < tablebase::kGroups; ++g)
      counts[g] = s.board[g / drop::kPieceTypes][g % drop::kPieceTypes];
    index_.emplace_back(game.geometry().squares(), counts);

    SliceInfo info;
    for (int g = 0; g < tablebase::kGroups; ++g)
      if (counts[g]) info.groups[info.group_count++] = std::int8_t(g);
    const int first = info.group_count > 0 ? counts[info.groups[0]] : 0;
    const int second = info.group_count > 1 ? counts[info.groups[1]] : 0;
    info.prefixes = &prefix_table(first, second);
    info.weight = index_.back().size() / info.prefixes->entries.size();
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

  // Stored offsets and passes: a tier's slices in their order, a new pass where the number of
  // pieces on the board changes (tier_layout.h orders slices so that this is solve order).
  tiers_.resize(layout_.tiers().size());
  for (std::size_t t = 0; t < tiers_.size(); ++t) {
    TierInfo& tier = tiers_[t];
    int last_on_board = -1;
    for (int s : layout_.tiers()[t].slices) {
      SliceInfo& info = info_[s];
      info.offset = tier.size;
      if (layout_.slices()[s].on_board != last_on_board)
        tier.passes.push_back({tier.size, tier.size});
      last_on_board = layout_.slices()[s].on_board;
      tier.size += info.prefixes->ranks.size() * info.weight;
      tier.passes.back().end = tier.size;
    }
    stored_total_ += tier.size;
  }
}

const tablebase::PrefixTable& TierSpace::prefix_table(int first_count, int second_count) {
  auto [it, inserted] = prefix_tables_.try_emplace({first_count, second_count});
  if (inserted) {
    const auto& symmetries = game_.geometry().symmetries();
    it->second = tablebase::make_prefix_table(
        game_.geometry().squares(), first_count, second_count,
        use_symmetry_ ? int(symmetries.size()) : 1,
        [&](int s, drop::Bitboard b) { return symmetries[s].apply(b); },
        "variant " + game_.variant().name());
  }
  return it->second;
}

int TierSpace::slice_at(int tier, std::uint64_t index) const {
  const auto& ids = layout_.tiers()[tier].slices;
  // The last slice that starts at or before `index` (empty slices start where the next does).
  const auto it = std::upper_bound(ids.begin(), ids.end(), index,
                                   [&](std::uint64_t i, int s) { return i < info_[s].offset; });
  return *(it - 1);
}

drop::Position TierSpace::unrank(int tier, std::uint64_t index) const {
  const int s = slice_at(tier, index);
  return position_of(s, groups_at(s, index));
}

std::uint64_t TierSpace::memory_bytes() const {
  std::uint64_t n = layout_.memory_bytes() + tablebase::held_bytes(index_) +
                    tablebase::held_bytes(info_) + tablebase::held_bytes(tiers_);
  for (const TierInfo& t : tiers_) n += tablebase::held_bytes(t.passes);
  for (const auto& [counts, table] : prefix_tables_)
    n += tablebase::held_bytes(table.entries) + tablebase::held_bytes(table.ranks);
  return n;
}

tablebase::Groups TierSpace::groups_at(int s, std::uint64_t index) const {
  const SliceInfo& info = info_[s];
  const std::uint64_t local = index - info.offset;
  const std::uint64_t rank =
      std::uint64_t(info.prefixes->ranks[local / info.weight]) * info.weight + local % info.weight;
  return index_[s].unrank(rank);
}

drop::Position TierSpace::position_of(int s, const tablebase::Groups& groups) const {
  const Slice& slice = layout_.slices()[s];
  drop::Position p;
  for (int g = 0; g < tablebase::kGroups; ++g) {
    const drop::Color c = g < drop::kPieceTypes ? drop::kWhite : drop::kBlack;
    p.by_color[c] |= groups[g];
    p.by_type[g % drop::kPieceTypes] |= groups[g];
  }
  p.hand[drop::kWhite] = slice.hand[0];
  p.hand[drop::kBlack] = slice.hand[1];
  p.side_to_move = drop::kWhite;
  return p;
}

}  // namespace drop
