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
// Children: the rules' own moves (Game::generate). A rook move that takes no pawn stays in the
// block; a drop or a capture goes to another tier, to the block of the placement it makes, which
// depends only on the entry's block and the square: the cursor works those out once a block.
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

  template <typename Visit>
  void for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
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

  void seek(Cursor& cursor, int t, std::uint64_t index) const;
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
  std::uint64_t pairs_ = 0, base_ = 0;
  std::array<std::uint8_t, 64> square_of_rank_{}, rank_of_square_{};
  std::uint8_t fixed_by_ = 0;
  std::array<std::array<ChildBlock, 64>, 2> drop_{}, capture_{};  // by Color and square
  std::array<Bitboard, 2> drop_to_{};  // the squares drop_ holds, by Color
};

inline std::uint64_t TierSpace::own_index(const Cursor& cursor, const Rooks& r) {
  return cursor.base_ + in_block(r, cursor.f_, cursor.pairs_,
                                 cursor.rank_of_square_[r.square[kWhite]],
                                 cursor.rank_of_square_[r.square[kBlack]]);
}

template <typename Visit>
void TierSpace::for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  seek(cursor, t, index);
  const Rooks r = rooks_at(cursor, index);
  const Position p = position(cursor, r);
  MoveList moves;
  game_.generate(p, moves);
  const int us = r.side;
  for (const Move m : moves) {
    Rooks child = r;
    child.side = us ^ 1;
    if (m.is_drop()) {
      const ChildBlock& c = cursor.drop_[us][m.to()];
      visit(tablebase::Location{c.tier, child_index(c, child)});
      continue;
    }
    child.square[us] = m.to();
    child.inside[us] =
        game_.block_index(m.from()) == game_.block_index(m.to()) ? r.inside[us] + 1 : 0;
    if (p.pawns[us] >> m.to() & 1) {
      const ChildBlock& c = cursor.capture_[us][m.to()];
      visit(tablebase::Location{c.tier, child_index(c, child)});
    } else {
      visit(tablebase::Location{t, own_index(cursor, child)});
    }
  }
}

template <typename Visit>
void TierSpace::for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  seek(cursor, t, index);
  const Rooks r = rooks_at(cursor, index);
  const int mover = r.side ^ 1, other = r.side;
  // The parent, the mover to move, would have lost already: it has no moves.
  if (r.square[other] == game_.start_corner(Color(mover))) return;
  const int to = r.square[mover];
  const Bitboard occupied = ~cursor.free_ | Bitboard{1} << r.square[other];
  constexpr int kFileStep[4] = {0, 1, 0, -1}, kRankStep[4] = {1, 0, -1, 0};
  const int n = game_.size();
  Rooks parent = r;
  parent.side = mover;
  for (int d = 0; d < 4; ++d)
    for (int f = game_.file_of(to) + kFileStep[d], k = game_.rank_of(to) + kRankStep[d];
         f >= 0 && f < n && k >= 0 && k < n; f += kFileStep[d], k += kRankStep[d]) {
      const int from = game_.square(f, k);
      if (occupied >> from & 1) break;
      parent.square[mover] = from;
      const bool stayed = game_.block_index(from) == game_.block_index(to);
      if (stayed != (r.inside[mover] > 0)) continue;
      for (int c = stayed ? r.inside[mover] - 1 : 0; c <= (stayed ? r.inside[mover] - 1 : 2); ++c) {
        parent.inside[mover] = c;
        visit(own_index(cursor, parent));
      }
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
