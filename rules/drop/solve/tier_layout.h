// How a drop variant's positions split into tiers and slices, the units the tier solver works in.
//
// Positions are mover-relative: side 0 is the side to move ("us"), side 1 the other ("them").
// A tier is an unordered pair of materials {A, B} (what each side owns, in hand and on board):
// it holds the positions where A moves against B and those where B moves against A, because a
// drop turns one into the other and the two must be solved together. A capture leaves the tier
// for a smaller one ({A - t, B} or {A, B - t}), so tiers solve smallest first.
// A slice fixes, inside a tier, how many pieces of each side and type stand on the board. A drop
// leads to the slice with one more piece on the board, so a tier's slices solve in passes, most
// pieces on the board first, and every child is solved before its parent: one sweep, no retries.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/drop/position.h"
#include "rules/drop/variant.h"
#include "tablebase/index_range.h"

namespace drop {

using Material = drop::Hand;  // pieces of each type a side owns, in hand and on board

// "NBRK" for a material (letters in the order N B R Q K), "" when empty.
std::string material_name(const Material& m);

struct Slice {
  std::array<drop::Hand, 2> board{};  // [0] side to move, [1] the other side
  std::array<drop::Hand, 2> hand{};
  int tier = 0;
  int on_board = 0;          // pieces on the board, both sides
  std::uint64_t offset = 0;  // first index of the slice inside its tier
  std::uint64_t size = 0;    // placements of the board groups
};

// A contiguous run of indices whose children all lie in earlier runs or earlier tiers.
struct Tier {
  std::string name;  // Syzygy-like "NBRKvNK": the larger material first
  std::array<Material, 2> materials{};
  int pieces = 0;                             // pieces owned by both sides
  std::uint64_t size = 0;                     // positions (indices) in the tier
  std::vector<int> slices;                    // in index order, which is solve order
  std::vector<tablebase::IndexRange> passes;  // solve order; slices of a pass have equal on_board
  std::vector<int> children;                  // tiers a capture leads to; all solve earlier
};

class TierLayout {
 public:
  // The tiers of at most max_pieces pieces in play (hands and board, both sides): every tier when
  // max_pieces is at least the variant's pieces. Captures only lead to smaller tiers, so such a
  // set is closed: endgame tables of a game too large to solve whole. Throws
  // std::invalid_argument for a variant too large to index.
  explicit TierLayout(const drop::Variant& v, int max_pieces = kAllPieces);
  static constexpr int kAllPieces = 1 << 20;

  const drop::Variant& variant() const { return variant_; }
  int max_pieces() const { return max_pieces_; }  // as given, or the variant's pieces if fewer
  const std::vector<Tier>& tiers() const { return tiers_; }  // solve order
  const std::vector<Slice>& slices() const { return slices_; }
  std::uint64_t total_positions() const { return total_; }

  // The slice of a position, taking its side to move as side 0; -1 if its material does not
  // belong to the variant.
  int slice_of(const drop::Position& p) const;
  // The slice with these counts (side to move first), or -1.
  int slice_with(const std::array<drop::Hand, 2>& board,
                 const std::array<drop::Hand, 2>& hand) const {
    const std::int64_t code = counts_code(board, hand);
    return code < 0 ? -1 : slice_by_code_[std::size_t(code)];
  }
  // The tier with this name, or -1.
  int tier_named(const std::string& name) const;
  // Bytes the layout holds: its tiers, slices and slice lookup (millions of slices on variants
  // with large hands).
  std::uint64_t memory_bytes() const;

 private:
  // Dense number of (board, hand) counts of all ten (side, type) groups, for slice_of.
  std::int64_t counts_code(const std::array<drop::Hand, 2>& board,
                           const std::array<drop::Hand, 2>& hand) const;

  drop::Variant variant_;
  int max_pieces_;
  std::vector<Tier> tiers_;
  std::vector<Slice> slices_;
  std::uint64_t total_ = 0;
  std::array<int, drop::kPieceTypes> max_count_{};  // per type, over both colours
  // pair_code_[t][board][hand]: dense number of a (board, hand) pair with board + hand <= max.
  std::array<std::array<std::array<int, 16>, 16>, drop::kPieceTypes> pair_code_{};
  std::array<std::int64_t, 2 * drop::kPieceTypes> radix_weight_{};
  std::vector<std::int32_t> slice_by_code_;
};

}  // namespace drop
