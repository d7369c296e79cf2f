// The rook race's positions as a loopy tier space (tablebase/loopy_tier_space.h), for the loopy
// tier solver: every position by a dense (tier, index), its children located by rank, its
// in-block parents by unmoves. tablebase/LOOPY.md has the why and the measurements.
//
// Structure: pawns never move. A drop adds one to the board from the reserve, a rook's capture of
// its own pawn removes one from the game, so 2 x (reserves) + (pawns on the board), summed over
// both sides, falls by one with every drop and every capture, and only rook moves keep it. So:
// - a tier is the counts (on the board, in reserve) of both sides, an unordered pair (colour swap
//   with the half turn is a symmetry: tier "2+0v1+1" holds the positions where one side has two
//   pawns on the board and none in reserve and the other one on the board and one in reserve,
//   either side to move); tiers go by that sum, so a drop or a capture leads to an earlier tier;
// - a block is one exact placement of the pawns, inside which only the rooks move: rook squares,
//   the two block counters and the side to move. Every cycle of the game stays inside a block.
//   A block of 8x8 with four pawns holds 18 x 60 x 59 = 63,720 entries.
//
// Index: tier, then the placement's ordinal, then inside the block
//   ((side to move x 3 + White's counter) x 3 + Black's counter) x f(f - 1)
//     + White's rook's rank among the f squares free of pawns x (f - 1)
//     + Black's rook's rank among the others.
// Placements are stored once per class under the game's four symmetries (Game::canonical_key):
// the identity, the reflection in the a1-h8 diagonal, the half turn with the colours (and the side
// to move, the counters, the reserves) swapped, and their product. In its tier's orientation (the
// side with the greater counts, (on board, reserve) in that order, is White) a placement is stored
// when its raw rank (White's pawns' rank x Black's sets + Black's pawns' rank, each side's pawns
// ranked by their blocks in colexicographic order and their squares inside the blocks) is the
// least of its images; a table by raw rank gives every placement's ordinal and the symmetry that
// maps it there. The entries of a placement some symmetry fixes (the empty board, say) hold some
// position classes twice (for_each_twin names the copies); each copy is solved on its own.
//
// Children: the rules' moves, worked out as bitboards on the block's placement (Game::rook_reach;
// the tests check them against Game::generate's), with no position made. A rook move that takes
// no pawn stays in the block; a drop or a capture goes to another tier, to the block of the
// placement it makes, which depends only on the entry's block and the square: the cursor works
// those out once a block. The first pass only counts the moves inside the block
// (for_each_child_outside), a popcount.
// Parents in the block by unmoves: the side that moved last took back a rook move along a clear
// line, its counter one less if the move stayed in its block, any counter if the move left it.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rookrace/game.h"
#include "rules/rookrace/variant.h"
#include "tablebase/divider.h"
#include "tablebase/index_range.h"
#include "tablebase/loopy_tier_space.h"  // Location, LocationRange

namespace rookrace {

class TierSpace {
 public:
  using Game = rookrace::Game;
  using Position = rookrace::Position;
  // Inside a block the rooks' moves reach distinct entries (no symmetry is applied there), and
  // each unmove gives another parent (tests/loopy_rookrace_test.cpp checks both).
  static constexpr bool kDistinctInBlock = true;

  // Throws std::invalid_argument for a variant whose placements are too many to tabulate.
  explicit TierSpace(const Game& game);

  const Game& game() const { return game_; }
  std::string variant_name() const { return game_.variant().name(); }
  std::string index_scheme() const { return "rookrace tiers 1"; }
  int tier_count() const { return int(tiers_.size()); }
  const std::string& tier_name(int t) const { return tiers_[t].name; }
  std::uint64_t tier_size(int t) const { return tiers_[t].size; }
  const std::vector<int>& tier_children(int t) const { return tiers_[t].children; }
  std::uint64_t block_count(int t) const { return tiers_[t].placements.size(); }
  tablebase::IndexRange block_range(int t, std::uint64_t b) const {
    return {b * tiers_[t].block_size, (b + 1) * tiers_[t].block_size};
  }
  std::vector<tablebase::LocationRange> roots() const {
    const tablebase::Location start = locate(game_.start());
    return {{start.tier, {start.index, start.index + 1}}};
  }
  std::uint64_t memory_bytes() const;
  // Entries of every tier.
  std::uint64_t total_entries() const;

  // Where p is stored; tier -1 for a position no tier holds (counts beyond the variant's, a rook
  // on a pawn).
  tablebase::Location locate(const Position& p) const;
  // The position stored at (t, index), in the tier's orientation.
  Position unrank(int t, std::uint64_t index) const;

  // What the space worked out for the block visited last (tablebase/loopy_tier_space.h).
  class Cursor;

  // Children in the block first (the rook's moves that take nothing), then those outside (its
  // captures of its own pawns, then its drops).
  template <typename Visit>
  void for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
  // The children outside the block only, in that order; returns how many are inside it.
  template <typename Visit>
  int for_each_child_outside(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
  template <typename Visit>
  void for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
  template <typename Visit>
  void for_each_twin(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
  // The blocks block b's drops and captures lead to (tablebase::LoopyChildBlockSpace).
  template <typename Visit>
  void for_each_child_block(Cursor& cursor, int t, std::uint64_t b, Visit visit) const;

 private:
  // What changes inside a block: the side to move, the counters, the rooks.
  struct Rooks {
    int side = 0;                 // to move, a Color
    std::array<int, 2> inside{};  // by Color
    std::array<int, 2> square{};  // by Color
  };
  struct SideCounts {
    int on_board = 0, reserve = 0;
  };
  struct Placement {
    std::array<Bitboard, 2> pawns{};  // by Color
  };
  struct Tier {
    std::string name;
    std::array<int, 2> counts{};  // side count ids of White and Black in the tier's orientation
    int free = 0;                 // squares without pawns
    std::uint64_t block_size = 0, size = 0;
    std::vector<int> children;
    std::uint64_t black_sets = 0;        // the radix of Black's pawns in a raw rank
    std::vector<std::uint32_t> raw;      // raw rank -> ordinal << 2 | symmetry, or kNoPlacement
    std::vector<Placement> placements;   // by ordinal
    std::vector<std::uint8_t> fixed_by;  // by ordinal: bit g when symmetry g maps it to itself
  };
  // Where a drop or a capture from a block leads: the child's block and the symmetry that maps
  // the child there.
  struct ChildBlock {
    int tier = -1;
    std::uint64_t base = 0;  // its block's first index
    int symmetry = 0;
    Bitboard free = 0;        // its canonical placement's free squares
    int f = 0;                // how many
    std::uint64_t pairs = 0;  // f(f - 1)
  };

  static constexpr std::uint32_t kNoPlacement = ~std::uint32_t{0};
  static constexpr int kSymmetries = 4;  // id, a1-h8 reflection, half turn, a8-h1 reflection
  static constexpr int kCounterStates = 3;
  static bool swaps_colours(int g) { return g >= 2; }

  int count_id(int on_board, int reserve) const;
  // The rank of a side's pawns (at most one a block) among the sets of as many: blocks in
  // colexicographic order, then the squares inside them.
  std::uint64_t set_rank(Bitboard pawns) const;
  std::uint64_t raw_rank(const Tier& tier, const Placement& p) const {
    return set_rank(p.pawns[kWhite]) * tier.black_sets + set_rank(p.pawns[kBlack]);
  }
  Bitboard image(int g, Bitboard squares) const;
  Placement image(int g, const Placement& p) const;
  Rooks image(int g, Rooks r) const {
    r.square = {image_[g][r.square[kWhite]], image_[g][r.square[kBlack]]};
    if (swaps_colours(g)) {
      std::swap(r.square[kWhite], r.square[kBlack]);
      std::swap(r.inside[kWhite], r.inside[kBlack]);
      r.side ^= 1;
    }
    return r;
  }
  // The tier holding these counts (by Color) and whether White must take the second count
  // (then the half turn maps the position to the tier's orientation); tier -1 if none.
  std::pair<int, bool> tier_of(const std::array<SideCounts, 2>& counts) const;
  // The block of placement p (counts by Color), and the symmetry that maps p there.
  ChildBlock block_of(const std::array<SideCounts, 2>& counts, const Placement& p) const;
  void build_tier(Tier& tier);

  // An entry's index in its block, from the ranks of the rooks' squares among the free ones.
  static std::uint64_t in_block(const Rooks& r, int f, std::uint64_t pairs, int white, int black) {
    return std::uint64_t((r.side * kCounterStates + r.inside[kWhite]) * kCounterStates +
                         r.inside[kBlack]) *
               pairs +
           std::uint64_t(white) * std::uint64_t(f - 1) + std::uint64_t(black - (black > white));
  }
  std::uint64_t child_index(const ChildBlock& c, Rooks r) const {
    r = image(c.symmetry, r);
    const auto below = [&](int sq) { return std::popcount(c.free & ((Bitboard{1} << sq) - 1)); };
    return c.base + in_block(r, c.f, c.pairs, below(r.square[kWhite]), below(r.square[kBlack]));
  }
  // The index of r in the cursor's own block.
  static std::uint64_t own_index(const Cursor& cursor, const Rooks& r);

  // An entry's moves: the rook's slides onto empty squares and its own pawns, and the squares it
  // may drop on (Game::generate's moves, worked out on the block's placement); none if the other
  // rook stands on its goal.
  struct Moves {
    Bitboard slides = 0, drops = 0;
  };
  Moves moves_at(const Cursor& cursor, const Rooks& r) const;
  template <typename Visit>
  void for_each_move_out(const Cursor& cursor, const Rooks& r, const Moves& moves,
                         Visit visit) const;

  // Makes the cursor hold the block of (t, index); at once if it does already.
  void seek(Cursor& cursor, int t, std::uint64_t index) const;
  void enter_block(Cursor& cursor, int t, std::uint64_t index) const;
  Rooks rooks_at(const Cursor& cursor, std::uint64_t index) const;
  Position position(const Cursor& cursor, const Rooks& r) const;

  Game game_;
  int blocks_ = 0;  // 2x2 blocks of the board
  std::vector<SideCounts> counts_;
  std::vector<int> count_id_;                     // [on_board * (P + 1) + reserve] -> id, or -1
  std::vector<std::vector<int>> tier_by_counts_;  // [first id][second id] -> tier, or -1
  std::vector<Tier> tiers_;
  std::array<std::array<std::uint8_t, 64>, kSymmetries> image_{};
  std::array<std::array<std::uint64_t, 17>, 17> binomial_{};  // [n][k] = C(n, k), n <= 16 blocks
};

class TierSpace::Cursor {
  friend class TierSpace;
  int tier_ = -1;
  std::uint64_t ordinal_ = 0;
  Placement placement_;
  Bitboard free_ = 0;
  int f_ = 0;
  std::uint64_t pairs_ = 0, base_ = 0, block_size_ = 0;
  std::uint64_t pairs_reciprocal_ = 0, others_reciprocal_ = 0;  // tablebase/divider.h
  std::array<std::uint8_t, 64> square_of_rank_{}, rank_of_square_{};
  std::uint8_t fixed_by_ = 0;
  std::array<std::array<ChildBlock, 64>, 2> drop_{}, capture_{};  // by Color and square
  std::array<Bitboard, 2> drop_to_{};  // the squares drop_ holds, by Color
};

inline void TierSpace::seek(Cursor& cursor, int t, std::uint64_t index) const {
  // Still in the block of the last seek: its index range, without a division.
  if (cursor.tier_ != t || index - cursor.base_ >= cursor.block_size_)
    enter_block(cursor, t, index);
}

inline TierSpace::Rooks TierSpace::rooks_at(const Cursor& cursor, std::uint64_t index) const {
  std::uint64_t rest = index - cursor.base_;
  std::uint64_t pair = tablebase::divide(rest, cursor.pairs_, cursor.pairs_reciprocal_);
  Rooks r;
  r.inside[kBlack] = int(rest % kCounterStates);
  r.inside[kWhite] = int(rest / kCounterStates % kCounterStates);
  r.side = int(rest / (kCounterStates * kCounterStates));
  int black = int(tablebase::divide(pair, std::uint64_t(cursor.f_ - 1), cursor.others_reciprocal_));
  const int white = int(pair);
  black += black >= white;
  r.square = {cursor.square_of_rank_[white], cursor.square_of_rank_[black]};
  return r;
}

inline std::uint64_t TierSpace::own_index(const Cursor& cursor, const Rooks& r) {
  return cursor.base_ + in_block(r, cursor.f_, cursor.pairs_,
                                 cursor.rank_of_square_[r.square[kWhite]],
                                 cursor.rank_of_square_[r.square[kBlack]]);
}

inline TierSpace::Moves TierSpace::moves_at(const Cursor& cursor, const Rooks& r) const {
  const int us = r.side, them = us ^ 1;
  if (r.square[them] == game_.goal(Color(them))) return {};
  const Bitboard rooks = Bitboard{1} << r.square[kWhite] | Bitboard{1} << r.square[kBlack];
  const int from = r.square[us];
  Bitboard slides = game_.rook_reach(from, ~cursor.free_ | rooks) &
                    ((cursor.free_ & ~rooks) | cursor.placement_.pawns[us]);
  if (r.inside[us] >= kMaxInsideMoves) slides &= ~game_.block_of(from);
  return {slides, cursor.drop_to_[us] & ~rooks};
}

template <typename Visit>
void TierSpace::for_each_move_out(const Cursor& cursor, const Rooks& r, const Moves& moves,
                                  Visit visit) const {
  const int us = r.side;
  Rooks child = r;
  child.side = us ^ 1;
  for (Bitboard b = moves.slides & cursor.placement_.pawns[us]; b; b &= b - 1) {
    const int to = std::countr_zero(b);
    child.square[us] = to;
    child.inside[us] = game_.same_block(r.square[us], to) ? r.inside[us] + 1 : 0;
    visit(tablebase::Location{cursor.capture_[us][to].tier,
                              child_index(cursor.capture_[us][to], child)});
  }
  child.square[us] = r.square[us];
  child.inside[us] = r.inside[us];
  for (Bitboard b = moves.drops; b; b &= b - 1) {
    const ChildBlock& c = cursor.drop_[us][std::countr_zero(b)];
    visit(tablebase::Location{c.tier, child_index(c, child)});
  }
}

template <typename Visit>
void TierSpace::for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  seek(cursor, t, index);
  const Rooks r = rooks_at(cursor, index);
  const Moves moves = moves_at(cursor, r);
  const int us = r.side;
  Rooks child = r;
  child.side = us ^ 1;
  for (Bitboard b = moves.slides & ~cursor.placement_.pawns[us]; b; b &= b - 1) {
    const int to = std::countr_zero(b);
    child.square[us] = to;
    child.inside[us] = game_.same_block(r.square[us], to) ? r.inside[us] + 1 : 0;
    visit(tablebase::Location{t, own_index(cursor, child)});
  }
  for_each_move_out(cursor, r, moves, visit);
}

template <typename Visit>
int TierSpace::for_each_child_outside(Cursor& cursor, int t, std::uint64_t index,
                                      Visit visit) const {
  seek(cursor, t, index);
  const Rooks r = rooks_at(cursor, index);
  const Moves moves = moves_at(cursor, r);
  for_each_move_out(cursor, r, moves, visit);
  return std::popcount(moves.slides & ~cursor.placement_.pawns[r.side]);
}

template <typename Visit>
void TierSpace::for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  seek(cursor, t, index);
  const Rooks r = rooks_at(cursor, index);
  const int mover = r.side ^ 1, other = r.side;
  // The parent, the mover to move, would have lost already: it has no moves.
  if (r.square[other] == game_.start_corner(Color(mover))) return;
  // The mover's rook came along a clear line from an empty square: inside its block when its
  // counter is above 0 (then one less before), from outside it when 0 (then any counter before).
  const int to = r.square[mover];
  const Bitboard empty = cursor.free_ & ~(Bitboard{1} << r.square[other]);
  Bitboard froms = game_.rook_reach(to, ~empty) & empty;
  const bool stayed = r.inside[mover] > 0;
  froms &= stayed ? game_.block_of(to) : ~game_.block_of(to);
  Rooks parent = r;
  parent.side = mover;
  parent.inside[mover] = stayed ? r.inside[mover] - 1 : 0;
  // Its counter is a digit of the index: the parents with counters 1 and 2 follow at a stride.
  const int counters = stayed ? 1 : kCounterStates;
  const std::uint64_t stride = cursor.pairs_ * (mover == kWhite ? kCounterStates : 1);
  for (; froms; froms &= froms - 1) {
    parent.square[mover] = std::countr_zero(froms);
    std::uint64_t i = own_index(cursor, parent);
    for (int c = 0; c < counters; ++c, i += stride) visit(i);
  }
}

template <typename Visit>
void TierSpace::for_each_twin(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  seek(cursor, t, index);
  if (!cursor.fixed_by_) return;
  const Rooks r = rooks_at(cursor, index);
  for (int g = 1; g < kSymmetries; ++g) {
    if (!(cursor.fixed_by_ >> g & 1)) continue;
    const std::uint64_t twin = own_index(cursor, image(g, r));
    if (twin != index) visit(twin);
  }
}

template <typename Visit>
void TierSpace::for_each_child_block(Cursor& cursor, int t, std::uint64_t b, Visit visit) const {
  seek(cursor, t, b * tiers_[t].block_size);
  const auto each = [&](const ChildBlock& c) {
    if (c.tier >= 0)
      visit(tablebase::LocationRange{c.tier, {c.base, c.base + tiers_[c.tier].block_size}});
  };
  for (int side = 0; side < 2; ++side) {
    for (Bitboard d = cursor.drop_to_[side]; d; d &= d - 1)
      each(cursor.drop_[side][std::countr_zero(d)]);
    for (Bitboard p = cursor.placement_.pawns[side]; p; p &= p - 1)
      each(cursor.capture_[side][std::countr_zero(p)]);
  }
}

}  // namespace rookrace

// Every rook race variant is whole (everything reachable from its start): its space.
template <>
struct tablebase::LoopySpaceOf<rookrace::Game> {
  using type = rookrace::TierSpace;
  static std::unique_ptr<type> of(std::string_view variant) {
    return std::make_unique<type>(rookrace::Game(rookrace::parse_variant(variant)));
  }
};
