#include "rules/rookrace/solve/tier_space.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace rookrace {

namespace {

// Tables of raw placements past this many entries (4 bytes each) are refused: variants that
// large could not be solved here anyway.
constexpr std::uint64_t kMostRawPlacements = std::uint64_t{1} << 31;

}  // namespace

TierSpace::TierSpace(const Game& game) : game_(game), blocks_(game.blocks()) {
  const int n = game_.size(), last = n - 1, squares = game_.squares(),
            pawns = game_.variant().pawns;
  for (int sq = 0; sq < squares; ++sq) {
    const int f = game_.file_of(sq), r = game_.rank_of(sq);
    image_[0][sq] = std::uint8_t(sq);
    image_[1][sq] = std::uint8_t(game_.square(r, f));
    image_[2][sq] = std::uint8_t(game_.square(last - f, last - r));
    image_[3][sq] = std::uint8_t(game_.square(last - r, last - f));
  }
  for (int m = 0; m <= 16; ++m)
    for (int k = 0; k <= m; ++k)
      binomial_[m][k] = k == 0 || k == m ? 1 : binomial_[m - 1][k - 1] + binomial_[m - 1][k];

  // A side's counts: pawns on the board (one a block at most) and in reserve, with none lost
  // counted (on board + reserve <= P), in (on board, reserve) order.
  count_id_.assign(std::size_t(blocks_ + 1) * std::size_t(pawns + 1), -1);
  for (int k = 0; k <= std::min(pawns, blocks_); ++k)
    for (int r = 0; k + r <= pawns; ++r) {
      count_id_[std::size_t(k) * std::size_t(pawns + 1) + std::size_t(r)] = int(counts_.size());
      counts_.push_back({k, r});
    }
  const auto sets = [&](int k) { return binomial_[blocks_][k] << (2 * k); };
  const int ids = int(counts_.size());
  double raw_total = 0, entries_total = 0;
  for (int a = 0; a < ids; ++a)
    for (int b = 0; b <= a; ++b) {
      const int on_board = counts_[a].on_board + counts_[b].on_board;
      if (on_board > squares - 2) continue;
      Tier tier;
      tier.counts = {a, b};
      tier.free = squares - on_board;
      tier.name = std::to_string(counts_[a].on_board) + "+" + std::to_string(counts_[a].reserve) +
                  "v" + std::to_string(counts_[b].on_board) + "+" +
                  std::to_string(counts_[b].reserve);
      tier.black_sets = sets(counts_[b].on_board);
      const double raw = double(sets(counts_[a].on_board)) * double(tier.black_sets);
      raw_total += raw;
      entries_total += raw * kCounterStates * kCounterStates * 2 * tier.free * (tier.free - 1);
      tiers_.push_back(std::move(tier));
    }
  if (raw_total > double(kMostRawPlacements) || entries_total > 0x1p62)
    throw std::invalid_argument(game_.variant().name() + " is too large to index: " +
                                std::to_string(raw_total) + " placements of the pawns");
  // Solve order: by 2 x reserves + pawns on the board, which every drop and capture lowers.
  const auto potential = [&](const Tier& t) {
    const SideCounts &a = counts_[t.counts[0]], &b = counts_[t.counts[1]];
    return 2 * (a.reserve + b.reserve) + a.on_board + b.on_board;
  };
  std::stable_sort(tiers_.begin(), tiers_.end(),
                   [&](const Tier& x, const Tier& y) { return potential(x) < potential(y); });
  tier_by_counts_.assign(std::size_t(ids), std::vector<int>(std::size_t(ids), -1));
  for (int t = 0; t < tier_count(); ++t) {
    tier_by_counts_[tiers_[t].counts[0]][tiers_[t].counts[1]] = t;
    tier_by_counts_[tiers_[t].counts[1]][tiers_[t].counts[0]] = t;
  }
  for (Tier& tier : tiers_) {
    for (int side = 0; side < 2; ++side) {
      const SideCounts x = counts_[tier.counts[side]];
      const int other = tier.counts[side ^ 1];
      const int dropped =
          x.reserve > 0 && tier.free > 2 ? count_id(x.on_board + 1, x.reserve - 1) : -1;
      const int captured = x.on_board > 0 ? count_id(x.on_board - 1, x.reserve) : -1;
      for (int child : {dropped, captured})
        if (child >= 0 && tier_by_counts_[child][other] >= 0)
          tier.children.push_back(tier_by_counts_[child][other]);
    }
    std::sort(tier.children.begin(), tier.children.end());
    tier.children.erase(std::unique(tier.children.begin(), tier.children.end()),
                        tier.children.end());
    build_tier(tier);
  }
}

int TierSpace::count_id(int on_board, int reserve) const {
  const int pawns = game_.variant().pawns;
  if (on_board < 0 || reserve < 0 || on_board > blocks_ || on_board + reserve > pawns) return -1;
  return count_id_[std::size_t(on_board) * std::size_t(pawns + 1) + std::size_t(reserve)];
}

std::uint64_t TierSpace::set_rank(Bitboard pawns) const {
  std::array<int, 16> block{}, code{};
  int k = 0;
  for (Bitboard b = pawns; b; b &= b - 1) {
    const int sq = std::countr_zero(b);
    const int at = game_.block_index(sq);
    const int c = 2 * (game_.rank_of(sq) & 1) + (game_.file_of(sq) & 1);
    int i = k++;
    for (; i > 0 && block[i - 1] > at; --i) {
      block[i] = block[i - 1];
      code[i] = code[i - 1];
    }
    block[i] = at;
    code[i] = c;
  }
  std::uint64_t colex = 0, squares = 0;
  for (int i = 0; i < k; ++i) {
    colex += binomial_[block[i]][i + 1];
    squares |= std::uint64_t(code[i]) << (2 * i);
  }
  return colex << (2 * k) | squares;
}

Bitboard TierSpace::image(int g, Bitboard squares) const {
  Bitboard out = 0;
  for (Bitboard b = squares; b; b &= b - 1) out |= Bitboard{1} << image_[g][std::countr_zero(b)];
  return out;
}

TierSpace::Placement TierSpace::image(int g, const Placement& p) const {
  Placement q{{image(g, p.pawns[kWhite]), image(g, p.pawns[kBlack])}};
  if (swaps_colours(g)) std::swap(q.pawns[kWhite], q.pawns[kBlack]);
  return q;
}

void TierSpace::build_tier(Tier& tier) {
  // Every set of k pawns, one a block, in the order of set_rank: block subsets in increasing
  // order as integers (which is colexicographic order), then the squares inside them.
  const auto sets_of = [&](int k) {
    std::vector<Bitboard> sets;
    for (std::uint32_t mask = 0; mask < (std::uint32_t{1} << blocks_); ++mask) {
      if (std::popcount(mask) != k) continue;
      for (std::uint32_t codes = 0; codes < (std::uint32_t{1} << (2 * k)); ++codes) {
        Bitboard set = 0;
        int i = 0;
        for (std::uint32_t m = mask; m; m &= m - 1, ++i) {
          const int block = std::countr_zero(m), code = int(codes >> (2 * i) & 3);
          const int file = block % (game_.size() / 2) * 2 + (code & 1);
          const int rank = block / (game_.size() / 2) * 2 + (code >> 1);
          set |= Bitboard{1} << game_.square(file, rank);
        }
        sets.push_back(set);
      }
    }
    return sets;
  };
  const std::vector<Bitboard> white = sets_of(counts_[tier.counts[0]].on_board);
  const std::vector<Bitboard> black = sets_of(counts_[tier.counts[1]].on_board);
  const bool same_counts = tier.counts[0] == tier.counts[1];
  const Bitboard white_corner = Bitboard{1} << game_.start_corner(kWhite);
  const Bitboard black_corner = Bitboard{1} << game_.start_corner(kBlack);
  tier.raw.assign(white.size() * black.size(), kNoPlacement);
  for (std::uint64_t w = 0; w < white.size(); ++w) {
    if (white[w] & white_corner) continue;
    for (std::uint64_t b = 0; b < black.size(); ++b) {
      if ((black[b] & white[w]) || (black[b] & black_corner)) continue;
      const std::uint64_t raw = w * black.size() + b;
      const Placement p{{white[w], black[b]}};
      std::uint64_t least = raw;
      int to_least = 0;
      std::uint8_t fixed = 0;
      for (int g = 1; g < kSymmetries; ++g) {
        if (swaps_colours(g) && !same_counts) continue;  // it would leave the orientation
        const std::uint64_t r = raw_rank(tier, image(g, p));
        if (r == raw) fixed |= std::uint8_t(1 << g);
        if (r < least) {
          least = r;
          to_least = g;
        }
      }
      if (least == raw) {
        tier.raw[raw] = std::uint32_t(tier.placements.size()) << 2;
        tier.placements.push_back(p);
        tier.fixed_by.push_back(fixed);
      } else {  // its least image came first
        tier.raw[raw] = (tier.raw[least] & ~3u) | std::uint32_t(to_least);
      }
    }
  }
  tier.block_size = std::uint64_t(2 * kCounterStates * kCounterStates) *
                    std::uint64_t(tier.free * (tier.free - 1));
  tier.size = tier.block_size * tier.placements.size();
}

std::uint64_t TierSpace::memory_bytes() const {
  std::uint64_t bytes = 0;
  for (const Tier& t : tiers_)
    bytes += t.raw.capacity() * sizeof(std::uint32_t) +
             t.placements.capacity() * sizeof(Placement) + t.fixed_by.capacity() +
             t.children.capacity() * sizeof(int);
  return bytes;
}

std::uint64_t TierSpace::total_entries() const {
  std::uint64_t n = 0;
  for (const Tier& t : tiers_) n += t.size;
  return n;
}

std::pair<int, bool> TierSpace::tier_of(const std::array<SideCounts, 2>& counts) const {
  const int white = count_id(counts[kWhite].on_board, counts[kWhite].reserve);
  const int black = count_id(counts[kBlack].on_board, counts[kBlack].reserve);
  if (white < 0 || black < 0) return {-1, false};
  const int t = tier_by_counts_[white][black];
  if (t < 0) return {-1, false};
  return {t, tiers_[t].counts[0] != white};
}

TierSpace::ChildBlock TierSpace::block_of(const std::array<SideCounts, 2>& counts,
                                          const Placement& p) const {
  const auto [t, flip] = tier_of(counts);
  if (t < 0) return {};
  const Tier& tier = tiers_[t];
  const int g = flip ? 2 : 0;  // the half turn with the colours swapped
  const std::uint32_t entry = tier.raw[raw_rank(tier, flip ? image(g, p) : p)];
  if (entry == kNoPlacement) return {};
  const std::uint64_t ordinal = entry >> 2;
  const Placement& canonical = tier.placements[ordinal];
  const Bitboard all = game_.squares() == 64 ? ~Bitboard{0} : (Bitboard{1} << game_.squares()) - 1;
  const Bitboard free = all & ~(canonical.pawns[kWhite] | canonical.pawns[kBlack]);
  return {t,
          ordinal * tier.block_size,
          g ^ int(entry & 3),
          free,
          tier.free,
          std::uint64_t(tier.free) * std::uint64_t(tier.free - 1)};
}

tablebase::Location TierSpace::locate(const Position& p) const {
  const std::array<SideCounts, 2> counts{
      SideCounts{std::popcount(p.pawns[kWhite]), p.reserve[kWhite]},
      SideCounts{std::popcount(p.pawns[kBlack]), p.reserve[kBlack]}};
  const Bitboard pawns = p.pawns[kWhite] | p.pawns[kBlack];
  if ((p.pawns[kWhite] & p.pawns[kBlack]) || (pawns & p.rooks()) ||
      p.rook[kWhite] == p.rook[kBlack] || p.inside[kWhite] >= kCounterStates ||
      p.inside[kBlack] >= kCounterStates)
    return {};
  for (int side = 0; side < 2; ++side) {  // one pawn of a colour a block
    std::uint32_t blocks = 0;
    for (Bitboard b = p.pawns[side]; b; b &= b - 1)
      blocks |= 1u << game_.block_index(std::countr_zero(b));
    if (std::popcount(blocks) != counts[side].on_board) return {};
  }
  const ChildBlock c = block_of(counts, Placement{p.pawns});
  if (c.tier < 0) return {};
  Rooks r;
  r.side = p.side_to_move;
  r.inside = {p.inside[kWhite], p.inside[kBlack]};
  r.square = {p.rook[kWhite], p.rook[kBlack]};
  return {c.tier, child_index(c, r)};
}

void TierSpace::enter_block(Cursor& cursor, int t, std::uint64_t index) const {
  const Tier& tier = tiers_[t];
  const std::uint64_t ordinal = index / tier.block_size;
  cursor.tier_ = t;
  cursor.ordinal_ = ordinal;
  cursor.placement_ = tier.placements[ordinal];
  const Placement& here = cursor.placement_;
  const Bitboard all = game_.squares() == 64 ? ~Bitboard{0} : (Bitboard{1} << game_.squares()) - 1;
  cursor.free_ = all & ~(here.pawns[kWhite] | here.pawns[kBlack]);
  cursor.f_ = tier.free;
  cursor.pairs_ = std::uint64_t(tier.free) * std::uint64_t(tier.free - 1);
  cursor.base_ = ordinal * tier.block_size;
  cursor.block_size_ = tier.block_size;
  cursor.pairs_reciprocal_ = tablebase::reciprocal_of(cursor.pairs_);
  cursor.others_reciprocal_ = tablebase::reciprocal_of(std::uint64_t(tier.free - 1));
  cursor.fixed_by_ = tier.fixed_by[ordinal];
  int rank = 0;
  for (Bitboard b = cursor.free_; b; b &= b - 1) {
    cursor.rank_of_square_[std::countr_zero(b)] = std::uint8_t(rank);
    cursor.square_of_rank_[rank++] = std::uint8_t(std::countr_zero(b));
  }
  // The blocks that drops and captures lead to, by side and square: they depend on the
  // placement alone.
  const std::array<SideCounts, 2> counts{counts_[tier.counts[0]], counts_[tier.counts[1]]};
  for (int side = 0; side < 2; ++side) {
    const Bitboard own = here.pawns[side];
    Bitboard own_blocks = 0;
    for (Bitboard b = own; b; b &= b - 1) own_blocks |= game_.block_of(std::countr_zero(b));
    cursor.drop_to_[side] = 0;
    if (counts[side].reserve > 0 && tier.free > 2) {
      std::array<SideCounts, 2> after = counts;
      ++after[side].on_board;
      --after[side].reserve;
      const Bitboard targets =
          cursor.free_ & ~own_blocks & ~(Bitboard{1} << game_.start_corner(Color(side)));
      cursor.drop_to_[side] = targets;
      for (Bitboard b = targets; b; b &= b - 1) {
        Placement child = here;
        child.pawns[side] |= b & (0 - b);
        cursor.drop_[side][std::countr_zero(b)] = block_of(after, child);
      }
    }
    std::array<SideCounts, 2> after = counts;
    --after[side].on_board;
    for (Bitboard b = own; b; b &= b - 1) {
      Placement child = here;
      child.pawns[side] &= ~(b & (0 - b));
      cursor.capture_[side][std::countr_zero(b)] = block_of(after, child);
    }
  }
}

Position TierSpace::position(const Cursor& cursor, const Rooks& r) const {
  const Tier& tier = tiers_[cursor.tier_];
  Position p;
  p.pawns = cursor.placement_.pawns;
  p.rook = {std::uint8_t(r.square[kWhite]), std::uint8_t(r.square[kBlack])};
  p.reserve = {std::uint8_t(counts_[tier.counts[0]].reserve),
               std::uint8_t(counts_[tier.counts[1]].reserve)};
  p.inside = {std::uint8_t(r.inside[kWhite]), std::uint8_t(r.inside[kBlack])};
  p.side_to_move = Color(r.side);
  return p;
}

Position TierSpace::unrank(int t, std::uint64_t index) const {
  Cursor cursor;
  seek(cursor, t, index);
  return position(cursor, rooks_at(cursor, index));
}

}  // namespace rookrace
