// Teeko's positions as a loopy tier space (tablebase/loopy_tier_space.h), for the loopy tier
// solver: every position by a dense (tier, index), its children located by rank.
// tablebase/LOOPY.md has the why and the measurements.
//
// Structure: a drop adds a piece and a step keeps the count, so a tier is the number of pieces
// on the board, solved from 8 down to 0: the drops lead to the next count's tier, and only the
// full board's steps stay in their tier, which is one block (any placement of 4 + 4 steps to any
// other). Positions are mover-relative, as the rules treat the sides alike but for who starts
// (which the counts on the board say): a tier is named by the side to move's count and the other
// side's ("3v4": Red to move, 3 Red and 4 Black pieces), and the full board's tier holds each
// position once for both sides to move.
//
// Index: tier, then the side to move's squares (its prefix) as the ordinal of their class under
// the board's 8 symmetries among the classes of as many squares, then the other side's squares,
// in the symmetry that maps the mover's to their class's least member, ranked among the squares
// the mover leaves free (the combinatorial number system, colexicographic). So a tier holds
// (classes of the mover's sets) x C(free squares, the other's count) entries, with no hole. A
// class of mover's sets that a symmetry fixes (the empty set, say) holds some positions twice;
// for_each_twin names the copies, and both are solved.
//
// A drop tier's blocks are its prefixes (no move stays in such a tier); the full board's tier is
// one block, which the solver shares among its threads.
//
// Children: the rules' moves on the entry's squares. The child's mover is the entry's other side,
// whose class and symmetry are looked up once an entry; each move then costs the image of the
// moved squares and a rank.
//
// Parents in the full board's tier by unmoves: the other side takes back a step. Where neither the
// entry's prefix nor the parent's is fixed by a symmetry, the parent is one entry, whose move
// lands on this very entry. Where one is, which stored copy of the parent's class has a move to
// this entry (and not to a twin of it) depends on the symmetries the lookups chose, so the
// copies' moves are generated to find out: a few percent of the entries.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rules/teeko/game.h"
#include "rules/teeko/variant.h"
#include "tablebase/index_range.h"
#include "tablebase/loopy_tier_space.h"  // Location, LocationRange

namespace teeko {

class TierSpace {
 public:
  using Game = teeko::Game;
  using Position = teeko::Position;
  // An entry's moves reach distinct entries (they make distinct positions, seen through the one
  // symmetry of the child's prefix), and its unmoves distinct parents (tests/teeko_solve_test.cpp
  // checks both).
  static constexpr bool kDistinctInBlock = true;

  explicit TierSpace(const Game& game);

  const Game& game() const { return game_; }
  std::string variant_name() const { return game_.variant().name(); }
  std::string index_scheme() const { return "teeko tiers 1"; }
  int tier_count() const { return int(tiers_.size()); }
  const std::string& tier_name(int t) const { return tiers_[t].name; }
  std::uint64_t tier_size(int t) const { return tiers_[t].size; }
  const std::vector<int>& tier_children(int t) const { return tiers_[t].children; }
  std::uint64_t block_count(int t) const {
    return tiers_[t].full ? 1 : sets_[tiers_[t].mover].count();
  }
  tablebase::IndexRange block_range(int t, std::uint64_t b) const {
    const Tier& tier = tiers_[t];
    if (tier.full) return {0, tier.size};
    return {b * tier.radix, (b + 1) * tier.radix};
  }
  std::vector<tablebase::LocationRange> roots() const {
    const tablebase::Location start = locate(game_.start());
    return {{start.tier, {start.index, start.index + 1}}};
  }
  std::uint64_t memory_bytes() const;
  // Entries of every tier.
  std::uint64_t total_entries() const;

  // Where p is stored; tier -1 for a position no tier holds (more than four pieces a side, or
  // counts no play gives).
  tablebase::Location locate(const Position& p) const;
  // The position stored at (t, index): the side to move's pieces Black's on the full board and in
  // the drop tiers where the counts are equal, Red's where the mover has one fewer.
  Position unrank(int t, std::uint64_t index) const;

  // What the space worked out for the prefix visited last (tablebase/loopy_tier_space.h).
  class Cursor;

  template <typename Visit>
  void for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
  template <typename Visit>
  void for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
  template <typename Visit>
  void for_each_twin(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;

 private:
  // The sets of a number of squares, by class under the symmetries.
  struct SetClasses {
    std::vector<Bitboard> least;         // by ordinal: the class's least member
    std::vector<std::uint8_t> fixed_by;  // by ordinal: bit g when symmetry g maps it to itself
    std::vector<std::uint32_t> of_rank;  // colexicographic rank -> ordinal << 3 | symmetry
    std::uint64_t count() const { return least.size(); }
  };
  struct Tier {
    std::string name;
    int mover = 0, other = 0;  // pieces on the board
    bool full = false;         // all pieces stand: steps stay in the tier
    std::uint64_t radix = 0;   // the other side's placements beside one mover's set
    std::uint64_t size = 0;
    std::vector<int> children;
  };

  // The rank of a set of squares among those of as many squares of `free` (colexicographic).
  std::uint64_t rank_among(Bitboard set, Bitboard free) const {
    std::uint64_t r = 0;
    int i = 1;
    for (; set; set &= set - 1, ++i)
      r += binomial_[std::popcount(free & ((Bitboard{1} << std::countr_zero(set)) - 1))][i];
    return r;
  }
  // The set of `count` squares of `free` (listed in `free_squares`, lowest first) of that rank.
  Bitboard unrank_among(std::uint64_t rank, int count, const std::uint8_t* free_squares) const;
  // The tier of these counts (the mover's, the other's), or -1.
  int tier_of(int mover, int other) const {
    return mover <= kPiecesPerSide && other <= kPiecesPerSide ? tier_by_counts_[mover][other] : -1;
  }
  // The class of a mover's set: its ordinal and the symmetry that maps it to the least member.
  std::pair<std::uint32_t, int> class_of(Bitboard set) const {
    const std::uint32_t code =
        sets_[std::popcount(set)].of_rank[rank_among(set, game_.board_mask())];
    return {code >> 3, int(code & 7)};
  }
  void seek(Cursor& cursor, int t, std::uint64_t prefix) const;

  Game game_;
  std::array<SetClasses, kPiecesPerSide + 1> sets_;
  std::vector<Tier> tiers_;
  std::array<std::array<int, kPiecesPerSide + 1>, kPiecesPerSide + 1> tier_by_counts_{};
  std::array<std::array<std::uint64_t, kPiecesPerSide + 1>, 65> binomial_{};  // C(n, k), k <= 4
};

class TierSpace::Cursor {
  friend class TierSpace;
  int tier_ = -1;
  std::uint64_t prefix_ = 0;
  Bitboard mover_ = 0, free_ = 0;
  std::array<std::uint8_t, 64> free_squares_{};
  std::uint8_t fixed_by_ = 0;
};

template <typename Visit>
void TierSpace::for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  const Tier& tier = tiers_[t];
  seek(cursor, t, index / tier.radix);
  const Bitboard other = unrank_among(index % tier.radix, tier.other, cursor.free_squares_.data());
  // The other side made four with its last move: lost, no moves.
  if (game_.is_pattern(other)) return;
  // The child's mover is this entry's other side: its class, and the symmetry to it, serve every
  // move.
  const auto [ordinal, g] = class_of(other);
  const int child = tier.full ? t : tier.children[0];
  const Tier& to = tiers_[child];
  const Bitboard child_free = game_.board_mask() & ~sets_[tier.other].least[ordinal];
  const std::uint64_t base = std::uint64_t(ordinal) * to.radix;
  const Bitboard mover = cursor.mover_, empty = cursor.free_ & ~other;
  const Bitboard mover_image = game_.image(g, mover);
  const auto bit = [&](int sq) { return Bitboard{1} << game_.image(g, sq); };
  if (!tier.full) {
    for (Bitboard d = empty; d; d &= d - 1)
      if (!tablebase::loopy_visit_goes_on(
              visit,
              {child, base + rank_among(mover_image | bit(std::countr_zero(d)), child_free)}))
        return;
    return;
  }
  for (Bitboard own = mover; own; own &= own - 1) {
    const int from = std::countr_zero(own);
    const Bitboard without = mover_image ^ bit(from);
    for (Bitboard s = game_.neighbours(from) & empty; s; s &= s - 1)
      if (!tablebase::loopy_visit_goes_on(
              visit, {child, base + rank_among(without | bit(std::countr_zero(s)), child_free)}))
        return;
  }
}

template <typename Visit>
void TierSpace::for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  const Tier& tier = tiers_[t];
  if (!tier.full) return;  // a drop leaves its tier
  seek(cursor, t, index / tier.radix);
  const Bitboard mover = cursor.mover_;
  // The parent's other side, this entry's mover, in a pattern: the parent had no moves.
  if (game_.is_pattern(mover)) return;
  const Bitboard other = unrank_among(index % tier.radix, tier.other, cursor.free_squares_.data());
  const Bitboard empty = cursor.free_ & ~other;
  // Parents found through the copies' moves, kept to visit each once.
  std::array<std::uint64_t, 8 * 8 * kPiecesPerSide> checked;
  int found = 0;
  for (Bitboard own = other; own; own &= own - 1) {
    const int to = std::countr_zero(own);
    for (Bitboard s = game_.neighbours(to) & empty; s; s &= s - 1) {
      const Bitboard before = other ^ Bitboard { 1 } << to ^ Bitboard { 1 } << std::countr_zero(s);
      const auto [ordinal, g] = class_of(before);
      const Bitboard least = sets_[tier.other].least[ordinal];
      const std::uint64_t parent = std::uint64_t(ordinal) * tier.radix +
                                   rank_among(game_.image(g, mover), game_.board_mask() & ~least);
      const std::uint8_t parent_fixed_by = sets_[tier.other].fixed_by[ordinal];
      if (!cursor.fixed_by_ && !parent_fixed_by) {
        visit(parent);
        continue;
      }
      // The parent's class's copies: the entry found, and its twins.
      std::array<std::uint64_t, Game::kSymmetries> copies{parent};
      int count = 1;
      Cursor copy_cursor;
      for_each_twin(copy_cursor, t, parent, [&](std::uint64_t twin) { copies[count++] = twin; });
      for (int c = 0; c < count; ++c) {
        if (std::find(checked.begin(), checked.begin() + found, copies[c]) !=
            checked.begin() + found)
          continue;
        bool leads_here = false;
        for_each_child(copy_cursor, t, copies[c], [&](tablebase::Location child) {
          leads_here = child.index == index;
          return !leads_here;
        });
        if (!leads_here) continue;
        checked[found++] = copies[c];
        visit(copies[c]);
      }
    }
  }
}

template <typename Visit>
void TierSpace::for_each_twin(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  const Tier& tier = tiers_[t];
  seek(cursor, t, index / tier.radix);
  if (!cursor.fixed_by_) return;
  const Bitboard other = unrank_among(index % tier.radix, tier.other, cursor.free_squares_.data());
  const std::uint64_t base = index - index % tier.radix;
  for (int g = 1; g < Game::kSymmetries; ++g) {
    if (!(cursor.fixed_by_ >> g & 1)) continue;
    const std::uint64_t twin = base + rank_among(game_.image(g, other), cursor.free_);
    if (twin != index) visit(twin);
  }
}

}  // namespace teeko

// Every Teeko variant is whole (everything reachable from the empty board): its space.
template <>
struct tablebase::LoopySpaceOf<teeko::Game> {
  using type = teeko::TierSpace;
  static std::unique_ptr<type> of(std::string_view variant) {
    return std::make_unique<type>(teeko::Game(teeko::parse_variant(variant)));
  }
};
