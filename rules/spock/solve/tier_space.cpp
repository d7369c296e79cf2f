#include "rules/spock/solve/tier_space.h"

#include <algorithm>
#include <bit>
#include <set>
#include <stdexcept>

namespace spock {

namespace {

constexpr int kOther = kPieceTypes;  // the other side's groups start here

int pieces_of(const std::array<std::uint8_t, tablebase::kGroups>& c) {
  int n = 0;
  for (std::uint8_t k : c) n += k;
  return n;
}

}  // namespace

std::uint32_t TierSpace::code_of(const Counts& c) {
  std::uint32_t code = 0;
  for (std::uint8_t k : c) code = code * 8 + k;  // a row has at most 7 pieces of a kind
  return code;
}

TierSpace::Groups TierSpace::groups_of(const Position& p) {
  Groups g{};
  for (PieceType t : kAllPieceTypes) {
    g[t] = p.pieces(p.side_to_move, t);
    g[kOther + t] = p.pieces(opposite(p.side_to_move), t);
  }
  return g;
}

TierSpace::TierSpace(const Game& game, const Material& row)
    : game_(game), tiny_(game.geometry().squares() <= 16), row_(row) {
  if (game_.geometry().squares() > 32)
    throw std::invalid_argument(row.name() + ": the tier space takes boards of at most 32 squares");
  // The materials the row's can reach by the rules of material alone, side to move first.
  Counts start{};
  for (PieceType t : row.pieces[kBlue]) ++start[t];
  for (PieceType t : row.pieces[kRed]) ++start[kOther + t];
  if (pieces_of(start) > 7)
    throw std::invalid_argument(row.name() + " has more pieces than the tier space indexes (7)");
  const auto swapped = [](const Counts& c) {
    Counts s;
    for (int g = 0; g < tablebase::kGroups; ++g) s[g] = c[(g + kOther) % tablebase::kGroups];
    return s;
  };
  std::set<Counts> seen{start, swapped(start)};
  std::vector<Counts> stack(seen.begin(), seen.end());
  while (!stack.empty()) {
    const Counts m = stack.back();
    stack.pop_back();
    if (!m[kSpock]) continue;     // lost already: no moves
    std::vector<Counts> next{m};  // a move that takes nothing
    for (int t = 0; t < kSpock; ++t)
      for (int victim : {(t + 1) % kPieceTypes, (t + 2) % kPieceTypes})
        if (m[t] && m[kOther + victim]) {
          next.push_back(m);
          --next.back()[kOther + victim];
        }
    for (int victim = 0; victim < kPieceTypes; ++victim) {
      const int appears = next_in_cycle(PieceType(victim));
      if (m[victim] > (victim == kSpock ? 1 : 0)) {  // onto a friend (another Spock, if one)
        next.push_back(m);
        --next.back()[victim];
        ++next.back()[appears];
      }
      if (m[kOther + victim]) {  // onto an enemy
        next.push_back(m);
        --next.back()[kOther + victim];
        ++next.back()[appears];
      }
    }
    for (const Counts& c : next)
      if (seen.insert(swapped(c)).second) stack.push_back(swapped(c));
  }

  // Tiers by pieces, the lost one first; slices in the order of their counts.
  const int most = pieces_of(start);
  for (int n = 1; n <= most; ++n)
    for (const bool lost : {true, false}) {
      Tier tier;
      tier.name = std::to_string(n) + (lost ? "-lost" : "");
      tier.pieces = n;
      tier.lost = lost;
      for (const Counts& c : seen) {
        if (pieces_of(c) != n || (c[kSpock] == 0) != lost) continue;
        Slice s;
        s.counts = c;
        s.tier = int(tiers_.size());
        std::array<int, tablebase::kGroups> counts;
        std::copy(c.begin(), c.end(), counts.begin());
        s.index = tablebase::PlacementIndex(game_.geometry().squares(), counts);
        int first = 0, second = 0;  // pieces of the first two groups with any: the prefix
        for (std::uint8_t k : c)
          if (k && !first)
            first = k;
          else if (k && !second)
            second = k;
        s.prefixes = &prefix_table(first, second);
        s.weight = s.index.size() / s.prefixes->entries.size();
        s.offset = tier.size;
        tier.size += s.size();
        tier.slices.push_back(int(slices_.size()));
        slices_.push_back(std::move(s));
      }
      if (!tier.slices.empty()) tiers_.push_back(std::move(tier));
    }
  // Open addressing, at most a quarter full: a lookup is a probe or two.
  slice_by_code_.assign(std::bit_ceil(4 * slices_.size()), {kNoCode, -1});
  for (int s = 0; s < int(slices_.size()); ++s) {
    const std::uint32_t code = code_of(slices_[s].counts);
    std::uint64_t at = code_slot(code);
    while (slice_by_code_[at].second >= 0) at = (at + 1) & (slice_by_code_.size() - 1);
    slice_by_code_[at] = {code, s};
  }
  for (Slice& s : slices_) {
    Counts swapped_counts;
    int movers_groups = 0;
    for (int g = 0; g < kPieceTypes; ++g) {
      swapped_counts[g] = s.counts[kOther + g];
      swapped_counts[kOther + g] = s.counts[g];
      movers_groups += s.counts[g] != 0;
    }
    s.swapped = slice_of(swapped_counts);  // none for a lost material's: it has no moves
    s.prefix_movers = movers_groups >= tablebase::kPrefixGroups;
  }
  // Children: the tiers of the moves' materials, by the same rules (only captures and leaps
  // leave a tier).
  for (Tier& tier : tiers_) {
    if (tier.lost) continue;
    for (int c = 0; c < int(tiers_.size()); ++c)
      if ((tiers_[c].pieces == tier.pieces && tiers_[c].lost) ||
          tiers_[c].pieces == tier.pieces - 1)
        tier.children.push_back(c);
  }
}

const tablebase::PrefixTable& TierSpace::prefix_table(int first_count, int second_count) {
  auto [it, inserted] = prefix_tables_.try_emplace({first_count, second_count});
  if (inserted)
    it->second = tablebase::make_prefix_table(
        game_.geometry().squares(), first_count, second_count,
        int(game_.geometry().symmetries().size()),
        [&](int s, tablebase::Groups::value_type b) { return image(s, b); }, row_.name());
  return it->second;
}

int TierSpace::slice_of(const Counts& c) const {
  const std::uint32_t code = code_of(c);
  for (std::uint64_t at = code_slot(code);; at = (at + 1) & (slice_by_code_.size() - 1)) {
    if (slice_by_code_[at].first == code) return slice_by_code_[at].second;
    if (slice_by_code_[at].second < 0) return -1;
  }
}

std::vector<tablebase::LocationRange> TierSpace::roots() const {
  std::vector<tablebase::LocationRange> out;
  Counts blue{}, red{};
  for (PieceType t : row_.pieces[kBlue]) ++blue[t], ++red[kOther + t];
  for (PieceType t : row_.pieces[kRed]) ++blue[kOther + t], ++red[t];
  std::vector<int> slices{slice_of(blue)};
  if (red != blue) slices.push_back(slice_of(red));
  for (int s : slices)
    out.push_back({slices_[s].tier, {slices_[s].offset, slices_[s].offset + slices_[s].size()}});
  return out;
}

std::uint64_t TierSpace::memory_bytes() const {
  std::uint64_t n =
      slices_.capacity() * sizeof(Slice) + slice_by_code_.capacity() * sizeof(slice_by_code_[0]);
  for (const Tier& t : tiers_) n += t.slices.capacity() * sizeof(int);
  for (const auto& [counts, table] : prefix_tables_)
    n += table.entries.capacity() * sizeof(table.entries[0]) +
         table.ranks.capacity() * sizeof(table.ranks[0]) + table.fixed.capacity();
  return n;
}

std::uint64_t TierSpace::total_entries() const {
  std::uint64_t n = 0;
  for (const Tier& t : tiers_) n += t.size;
  return n;
}

tablebase::Location TierSpace::locate(Groups groups, bool* twinned) const {
  Counts counts;
  for (int g = 0; g < tablebase::kGroups; ++g) counts[g] = std::uint8_t(popcount(groups[g]));
  const int s = slice_of(counts);
  if (s < 0) return {};
  const Slice& slice = slices_[s];
  const std::uint64_t prefix = slice.index.prefix_rank(groups, tablebase::kPrefixGroups);
  const tablebase::PrefixEntry e = slice.prefixes->entries[prefix];
  if (twinned) *twinned = slice.prefixes->fixed[e.ordinal];
  if (e.symmetry != 0)
    for (Bitboard& g : groups)
      if (g) g = image(int(e.symmetry), g);
  return {slice.tier, slice.offset + e.ordinal * slice.weight +
                          slice.index.rest_rank(groups, tablebase::kPrefixGroups)};
}

TierSpace::Groups TierSpace::groups_at(int s, std::uint64_t index) const {
  const Slice& slice = slices_[s];
  const std::uint64_t local = index - slice.offset;
  const std::uint64_t rank =
      std::uint64_t(slice.prefixes->ranks[local / slice.weight]) * slice.weight +
      local % slice.weight;
  return slice.index.unrank(rank);
}

int TierSpace::seek(Cursor& cursor, int t, std::uint64_t index) const {
  const Tier& tier = tiers_[t];
  if (cursor.tier_ != t || cursor.slice_ < 0 || index < slices_[cursor.slice_].offset ||
      index >= slices_[cursor.slice_].offset + slices_[cursor.slice_].size()) {
    const auto it = std::upper_bound(tier.slices.begin(), tier.slices.end(), index,
                                     [&](std::uint64_t i, int s) { return i < slices_[s].offset; });
    cursor.tier_ = t;
    cursor.slice_ = *(it - 1);
    cursor.decoded_ = false;
  }
  return cursor.slice_;
}

const TierSpace::Groups& TierSpace::decode(Cursor& cursor, int t, std::uint64_t index) const {
  const int s = seek(cursor, t, index);
  if (cursor.decoded_ && cursor.index_ == index) return cursor.groups_;
  const Slice& slice = slices_[s];
  // A few entries on under the same prefix: the placement's next ones, cheaper than an unrank.
  constexpr std::uint64_t kMostSteps = 8;
  if (cursor.decoded_ && index > cursor.index_ && index - cursor.index_ <= kMostSteps &&
      (index - slice.offset) / slice.weight == (cursor.index_ - slice.offset) / slice.weight)
    for (std::uint64_t i = cursor.index_; i < index; ++i)
      slice.index.step(cursor.groups_, tablebase::kPrefixGroups);
  else
    cursor.groups_ = groups_at(s, index);
  cursor.decoded_ = true;
  cursor.index_ = index;
  return cursor.groups_;
}

Position TierSpace::position_of(const Groups& groups) {
  Position p;
  for (PieceType t : kAllPieceTypes) {
    p.by_color[kBlue] |= groups[t];
    p.by_color[kRed] |= groups[kOther + t];
    p.by_type[t] |= groups[t] | groups[kOther + t];
  }
  p.side_to_move = kBlue;
  return p;
}

Position TierSpace::unrank(int t, std::uint64_t index) const {
  Cursor cursor;
  return position_of(decode(cursor, t, index));
}

TierSpace::QuietChildren TierSpace::quiet_children(int s, const Groups& turned) const {
  QuietChildren quiet;
  if (slices_[s].swapped < 0) return quiet;
  const Slice& child = slices_[slices_[s].swapped];
  if (!child.prefix_movers) return quiet;
  quiet.groups = turned;
  quiet.entry =
      child.prefixes->entries[child.index.prefix_rank(quiet.groups, tablebase::kPrefixGroups)];
  if (quiet.entry.symmetry != 0)
    for (Bitboard& g : quiet.groups)
      if (g) g = image(int(quiet.entry.symmetry), g);
  quiet.slice = &child;
  return quiet;
}

}  // namespace spock
