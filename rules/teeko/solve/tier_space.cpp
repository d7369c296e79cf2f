#include "rules/teeko/solve/tier_space.h"

#include <stdexcept>

namespace teeko {

namespace {

// The next set of as many squares in colexicographic order (as integers): Gosper's hack.
Bitboard next_set(Bitboard set) {
  const Bitboard lowest = set & (0 - set), ripple = set + lowest;
  return ripple | (((set ^ ripple) >> 2) / lowest);
}

}  // namespace

TierSpace::TierSpace(const Game& game) : game_(game) {
  for (int n = 0; n <= 64; ++n) {
    binomial_[n][0] = 1;
    for (int k = 1; k <= kPiecesPerSide; ++k)
      binomial_[n][k] = n == 0 ? 0 : binomial_[n - 1][k - 1] + binomial_[n - 1][k];
  }
  const int squares = game_.squares();
  const Bitboard board = game_.board_mask();
  // The classes of every set of m squares, by rank: a set is its class's least member when no
  // image of it is a smaller integer (for sets of one size, integer order is colexicographic).
  for (int m = 0; m <= kPiecesPerSide; ++m) {
    SetClasses& c = sets_[m];
    c.of_rank.resize(binomial_[squares][m]);
    std::vector<std::uint8_t> to_least(c.of_rank.size());
    Bitboard set = m == 0 ? 0 : (Bitboard{1} << m) - 1;
    for (std::uint64_t r = 0; r < c.of_rank.size(); ++r, set = m == 0 ? 0 : next_set(set)) {
      int best = 0;
      Bitboard least = set;
      std::uint8_t fixed = 0;
      for (int g = 1; g < Game::kSymmetries; ++g) {
        const Bitboard image = game_.image(g, set);
        if (image < least) least = image, best = g;
        if (image == set) fixed |= std::uint8_t(1 << g);
      }
      to_least[r] = std::uint8_t(best);
      if (best == 0) {
        c.of_rank[r] = std::uint32_t(c.least.size()) << 3;
        c.least.push_back(set);
        c.fixed_by.push_back(fixed);
      }
    }
    set = m == 0 ? 0 : (Bitboard{1} << m) - 1;
    for (std::uint64_t r = 0; r < c.of_rank.size(); ++r, set = m == 0 ? 0 : next_set(set))
      if (to_least[r])
        c.of_rank[r] =
            (c.of_rank[rank_among(game_.image(to_least[r], set), board)] & ~7u) | to_least[r];
  }
  // Tiers from the full board down to the empty one: with k pieces on the board, the side to move
  // has k / 2 of them (Black with as many as Red, or Red with one fewer).
  for (auto& row : tier_by_counts_) row.fill(-1);
  for (int k = 2 * kPiecesPerSide; k >= 0; --k) {
    Tier tier;
    tier.mover = k / 2;
    tier.other = k - k / 2;
    tier.full = k == 2 * kPiecesPerSide;
    tier.name = std::to_string(tier.mover) + "v" + std::to_string(tier.other);
    tier.radix = binomial_[squares - tier.mover][tier.other];
    tier.size = sets_[tier.mover].count() * tier.radix;
    if (!tier.full) tier.children = {int(tiers_.size()) - 1};
    tier_by_counts_[tier.mover][tier.other] = int(tiers_.size());
    tiers_.push_back(std::move(tier));
  }
}

std::uint64_t TierSpace::memory_bytes() const {
  std::uint64_t bytes = sizeof(*this);
  for (const SetClasses& c : sets_)
    bytes += c.least.capacity() * sizeof(Bitboard) + c.fixed_by.capacity() +
             c.of_rank.capacity() * sizeof(std::uint32_t);
  return bytes;
}

std::uint64_t TierSpace::total_entries() const {
  std::uint64_t n = 0;
  for (const Tier& t : tiers_) n += t.size;
  return n;
}

Bitboard TierSpace::unrank_among(std::uint64_t rank, int count,
                                 const std::uint8_t* free_squares) const {
  Bitboard set = 0;
  int c = game_.squares();
  for (int i = count; i >= 1; --i) {
    do --c;
    while (binomial_[c][i] > rank);
    rank -= binomial_[c][i];
    set |= Bitboard{1} << free_squares[c];
  }
  return set;
}

void TierSpace::seek(Cursor& cursor, int t, std::uint64_t prefix) const {
  if (cursor.tier_ == t && cursor.prefix_ == prefix) return;
  const SetClasses& c = sets_[tiers_[t].mover];
  cursor.tier_ = t;
  cursor.prefix_ = prefix;
  cursor.mover_ = c.least[prefix];
  cursor.fixed_by_ = c.fixed_by[prefix];
  cursor.free_ = game_.board_mask() & ~cursor.mover_;
  int n = 0;
  for (Bitboard f = cursor.free_; f; f &= f - 1)
    cursor.free_squares_[n++] = std::uint8_t(std::countr_zero(f));
}

tablebase::Location TierSpace::locate(const Position& p) const {
  const Bitboard mover = p.pieces[p.side_to_move], other = p.pieces[opposite(p.side_to_move)];
  if ((mover & other) || ((mover | other) & ~game_.board_mask())) return {-1, 0};
  const int t = tier_of(std::popcount(mover), std::popcount(other));
  if (t < 0) return {-1, 0};
  const auto [ordinal, g] = class_of(mover);
  const Bitboard free = game_.board_mask() & ~sets_[tiers_[t].mover].least[ordinal];
  return {t, std::uint64_t(ordinal) * tiers_[t].radix + rank_among(game_.image(g, other), free)};
}

Position TierSpace::unrank(int t, std::uint64_t index) const {
  const Tier& tier = tiers_[t];
  Cursor cursor;
  seek(cursor, t, index / tier.radix);
  Position p;
  p.side_to_move = tier.mover == tier.other ? kBlack : kRed;
  p.pieces[p.side_to_move] = cursor.mover_;
  p.pieces[opposite(p.side_to_move)] =
      unrank_among(index % tier.radix, tier.other, cursor.free_squares_.data());
  return p;
}

}  // namespace teeko
