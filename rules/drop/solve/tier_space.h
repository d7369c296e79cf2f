// The drop family's positions as a TierSpace: tiers and slices from tier_layout.h, placements
// ranked by index.h, and only symmetry representatives stored.
//
// Storing representatives only: in each slice the first two groups with pieces on the board (the
// rank's most significant digits, its "prefix") are kept only in their least image under the
// board's symmetries, so a slice stores (canonical prefixes) x (placements of the other groups)
// entries: about an eighth of its positions on a square board. A position is found by mapping it
// with the symmetry that makes its prefix canonical. A prefix that some symmetry maps to itself
// (two pieces on a diagonal, say) leaves a few classes stored more than once; each copy is solved
// on its own and they agree, which costs a little time and nothing in correctness.
#pragma once

#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/solve/tier_layout.h"
#include "tablebase/index.h"
#include "tablebase/prefix_table.h"
#include "tablebase/tier_space.h"

namespace drop {

static_assert(tablebase::kGroups == 2 * drop::kPieceTypes,
              "a placement's groups are the pieces by side");

// The groups of a position, side to move first.
inline tablebase::Groups groups_of(const drop::Position& p) {
  tablebase::Groups g;
  const drop::Color us = p.side_to_move;
  for (drop::PieceType t : drop::kAllPieceTypes) {
    g[t] = p.pieces(us, t);
    g[drop::kPieceTypes + t] = p.pieces(drop::opposite(us), t);
  }
  return g;
}

class TierSpace {
 public:
  using Game = drop::Game;
  using Position = drop::Position;

  // use_symmetry=false stores every position (to measure what the reduction saves); max_pieces
  // keeps the tiers of at most that many pieces in play (tier_layout.h), endgame tables.
  explicit TierSpace(const drop::Game& game, bool use_symmetry = true,
                     int max_pieces = TierLayout::kAllPieces);

  const drop::Game& game() const { return game_; }
  const TierLayout& layout() const { return layout_; }
  std::string variant_name() const { return game_.variant().name(); }
  // Positions of the variant, and the entries that store them.
  std::uint64_t total_positions() const { return layout_.total_positions(); }
  std::uint64_t stored_positions() const { return stored_total_; }
  std::uint64_t memory_bytes() const;

  int tier_count() const { return int(layout_.tiers().size()); }
  const std::string& tier_name(int t) const { return layout_.tiers()[t].name; }
  std::uint64_t tier_size(int t) const { return tiers_[t].size; }
  std::uint64_t tier_positions(int t) const { return layout_.tiers()[t].size; }
  const std::vector<int>& tier_children(int t) const { return layout_.tiers()[t].children; }
  const std::vector<tablebase::IndexRange>& tier_passes(int t) const { return tiers_[t].passes; }

  // The stored position at an index, White to move (positions are mover-relative).
  drop::Position unrank(int tier, std::uint64_t index) const;
  // Where the value of p (an image of p, to be exact) is stored; tier -1 if its material is not
  // the variant's or has more pieces than max_pieces.
  tablebase::Location locate(const drop::Position& p) const {
    const int s = layout_.slice_of(p);
    if (s < 0) return {};
    tablebase::Groups groups = groups_of(p);
    return {layout_.slices()[s].tier, stored_index(s, groups)};
  }

  // The entry a caller visited last: asking for the next one steps its placement to the next
  // rank (tablebase::PlacementIndex::step) instead of finding its slice and unranking it, as sweeps
  // take their entries in order. Each thread keeps its own; a fresh one finds any entry.
  class Cursor {
    friend class TierSpace;
    int tier_ = -1, slice_ = -1;
    std::uint64_t index_ = 0;
    tablebase::Groups groups_{};
  };

  // Calls visit(location) for the position after each legal move of the entry at (tier, index)
  // whose child lies in a tier with wanted[tier] set; the other children are not located at all.
  // A visit that returns bool stops the moves by returning false; it gets the captures first, as
  // they take material and so more often leave the opponent lost (value-only sweeps stop at the
  // first such child). The child's slice follows from the entry's and the kind of move
  // (SliceInfo::child), so only its rank is computed. The order of the moves is the space's own.
  template <typename Visit>
  void for_each_child(Cursor& cursor, int tier, std::uint64_t index,
                      const std::vector<char>& wanted, Visit visit) const {
    seek(cursor, tier, index);
    constexpr bool stops = !std::is_void_v<decltype(visit(tablebase::Location{}))>;
    const auto send = [&](int child_tier, std::uint64_t at) {
      if constexpr (stops) {
        return bool(visit(tablebase::Location{child_tier, at}));
      } else {
        visit(tablebase::Location{child_tier, at});
        return true;
      }
    };
    // The children's groups follow from the entry's by the move, sides swapped: no position is
    // made and taken back, and the prey's group names the child's slice.
    tablebase::Groups swapped;
    swap_sides(cursor.groups_, swapped);
    SharedPrefix shared(swapped);
    const SliceInfo& info = info_[cursor.slice_];
    drop::Bitboard occupied = 0;
    for (int k = 0; k < info.group_count; ++k) occupied |= cursor.groups_[info.groups[k]];
    if (stops) {
      if (visit_captures(cursor, occupied, swapped, shared, wanted, send))
        visit_drops(cursor, occupied, swapped, shared, wanted, send);
    } else {
      if (visit_drops(cursor, occupied, swapped, shared, wanted, send))
        visit_captures(cursor, occupied, swapped, shared, wanted, send);
    }
  }

 private:
  // Prefix tables (prefix_table.h) depend only on the two groups' piece counts, so slices share
  // them.
  const tablebase::PrefixTable& prefix_table(int first_count, int second_count);

  struct SliceInfo {
    // Slice after a move: [t] a drop of type t, [5 + t] a capture of one's own piece of type t,
    // [10 + t] of the opponent's (-1 where impossible).
    std::array<int, 3 * drop::kPieceTypes> child{};
    std::array<std::int8_t, tablebase::kGroups> groups{};  // the non-empty groups
    int group_count = 0;
    std::uint64_t offset = 0;  // first stored index of the slice in its tier
    std::uint64_t weight = 1;  // placements of the groups after the prefix
    const tablebase::PrefixTable* prefixes = nullptr;
  };
  // A move as it changes the child's groups (the entry's with the sides swapped): a piece of
  // group `moved` goes from `from` (-1 for a drop) to `to`, taking a piece of group `taken`.
  struct ChildMove {
    int from = -1, to = 0;
    int moved = 0, taken = -1;
    // On the child's groups, or on their image under `symmetry` (mapping the squares).
    void apply(tablebase::Groups& groups, const drop::Symmetry* symmetry) const {
      const auto bit = [&](int sq) {
        return drop::square_bit(symmetry ? symmetry->image[sq] : sq);
      };
      if (taken >= 0) groups[taken] &= ~bit(to);
      groups[moved] ^= (from >= 0 ? bit(from) : 0) | bit(to);
    }
  };
  // What the stored indexes of an entry's children share when the child's side to move keeps
  // two groups with pieces on the board: those two are every child's prefix (its first groups),
  // so the symmetry that makes the prefix canonical, its ordinal and the image of the rest of
  // the entry are found once, not once a child. Only a capture from those groups changes them.
  struct SharedPrefix {
    explicit SharedPrefix(const tablebase::Groups& swapped) : swapped(swapped) {
      for (int g = 0; g < drop::kPieceTypes && second < 0; ++g)
        if (swapped[g]) (first < 0 ? first : second) = g;
    }
    bool keeps(const ChildMove& m) const {
      return second >= 0 && m.taken != first && m.taken != second;
    }
    bool keeps_drops() const { return second >= 0; }
    // From the first child that keeps the prefix, in slice c (any such child gives the same), of
    // an entry of slice `entry`.
    void prepare(const TierSpace& space, const SliceInfo& entry, int c) {
      const SliceInfo& info = space.info_[c];
      const tablebase::PrefixEntry e =
          info.prefixes->entries[space.index_[c].prefix_rank(swapped, tablebase::kPrefixGroups)];
      ordinal = e.ordinal;
      symmetry = int(e.symmetry);
      // The entry's groups, not only slice c's: the children of other slices use them too.
      const drop::Symmetry& image = space.game_.geometry().symmetries()[symmetry];
      for (int k = 0; k < entry.group_count; ++k) {
        const int g = (entry.groups[k] + drop::kPieceTypes) % tablebase::kGroups;  // sides swapped
        mapped[g] = space.map_group(image, swapped[g]);
      }
      ready = true;
    }

    const tablebase::Groups& swapped;
    int first = -1, second = -1;  // the child's first two groups, if both on the first side
    bool ready = false;
    std::uint64_t ordinal = 0;
    int symmetry = 0;
    tablebase::Groups mapped{};
  };

  struct TierInfo {
    std::uint64_t size = 0;  // stored entries
    std::vector<tablebase::IndexRange> passes;
  };

  // for_each_child's drops, by type: each type's go to one slice, and their stored indexes
  // differ only from the dropped group on, so the groups before it are ranked once a type. In
  // the child's prefix symmetry's image the empty squares are the image's empty squares, taken
  // in their order. Returns false when send does.
  template <typename Send>
  bool visit_drops(const Cursor& cursor, drop::Bitboard occupied, const tablebase::Groups& swapped,
                   SharedPrefix& shared, const std::vector<char>& wanted, const Send& send) const {
    const SliceInfo& info = info_[cursor.slice_];
    drop::Bitboard mapped_empty = 0;
    for (int t = 0; t < drop::kPieceTypes; ++t) {
      const int c = info.child[t];  // -1: none of type t in hand, or no empty square
      if (c < 0) continue;
      const int child_tier = layout_.slices()[c].tier;
      if (!wanted[child_tier]) continue;
      const int group = drop::kPieceTypes + t;  // our pieces are the child's second side
      if (!shared.keeps_drops()) {
        for (drop::Bitboard b = game_.geometry().board_mask() & ~occupied; b;) {
          tablebase::Groups child = swapped;
          child[group] |= drop::square_bit(drop::pop_lsb(b));
          if (!send(child_tier, stored_index(c, child))) return false;
        }
        continue;
      }
      if (!shared.ready) shared.prepare(*this, info, c);
      if (!mapped_empty)  // the board has an empty square, or there would be no drop
        mapped_empty = game_.geometry().board_mask() &
                       ~map_group(game_.geometry().symmetries()[shared.symmetry], occupied);
      const tablebase::PlacementIndex& index = index_[c];
      const tablebase::PlacementIndex::DropHead head =
          index.drop_head(shared.mapped, tablebase::kPrefixGroups, group);
      const std::uint64_t first = info_[c].offset + shared.ordinal * info_[c].weight;
      for (drop::Bitboard b = mapped_empty; b;) {
        const drop::Bitboard square = drop::square_bit(drop::pop_lsb(b));
        if (!send(child_tier, first + index.rest_rank_with_drop(shared.mapped, head, square)))
          return false;
      }
    }
    return true;
  }

  // for_each_child's captures, mover group by mover group (the rules' captures of each piece,
  // Game::capture_targets). Only targets whose capture leads into a wanted tier are taken, so a
  // group fold, which wants one or two child tiers, ranks and even finds only those. Returns false
  // when send does.
  template <typename Send>
  bool visit_captures(const Cursor& cursor, drop::Bitboard occupied,
                      const tablebase::Groups& swapped, SharedPrefix& shared,
                      const std::vector<char>& wanted, const Send& send) const {
    const SliceInfo& info = info_[cursor.slice_];
    const tablebase::Groups& groups = cursor.groups_;
    // [5 + g] the child slice after a capture from group g (own pieces, then the opponent's).
    const auto child_slice = [&](int prey) { return info.child[drop::kPieceTypes + prey]; };
    drop::Bitboard prey = 0;
    for (int k = 0; k < info.group_count; ++k) {
      const int g = info.groups[k];
      if (const int c = child_slice(g); c >= 0 && wanted[layout_.slices()[c].tier])
        prey |= groups[g];
    }
    if (!prey) return true;
    for (int mover = 0; mover < drop::kPieceTypes; ++mover) {
      for (drop::Bitboard from_squares = groups[mover]; from_squares;) {
        const int from = drop::pop_lsb(from_squares);
        for (drop::Bitboard targets =
                 game_.capture_targets(drop::PieceType(mover), from, occupied) & prey;
             targets;) {
          ChildMove move{.from = from, .to = drop::pop_lsb(targets)};
          int taken = 0;
          while (!(groups[taken] & drop::square_bit(move.to))) ++taken;
          const int c = child_slice(taken);
          move.moved = drop::kPieceTypes + mover;  // our pieces are the child's second side
          move.taken =
              taken < drop::kPieceTypes ? drop::kPieceTypes + taken : taken - drop::kPieceTypes;
          tablebase::Groups child;
          std::uint64_t at;
          if (shared.keeps(move)) {
            if (!shared.ready) shared.prepare(*this, info, c);
            child = shared.mapped;
            move.apply(child, &game_.geometry().symmetries()[shared.symmetry]);
            at = info_[c].offset + shared.ordinal * info_[c].weight +
                 index_[c].rest_rank(child, tablebase::kPrefixGroups);
          } else {
            child = swapped;
            move.apply(child, nullptr);
            at = stored_index(c, child);
          }
          if (!send(layout_.slices()[c].tier, at)) return false;
        }
      }
    }
    return true;
  }

  // Stored index of a placement in slice s: the rank of its image with a canonical prefix. The
  // prefix alone picks the symmetry, so the rest is ranked once, after mapping (in place: the
  // groups are the caller's scratch, and not copying them is measurably faster).
  std::uint64_t stored_index(int s, tablebase::Groups& groups) const {
    const SliceInfo& info = info_[s];
    const tablebase::PlacementIndex& index = index_[s];
    const tablebase::PrefixEntry e =
        info.prefixes->entries[index.prefix_rank(groups, tablebase::kPrefixGroups)];
    if (e.symmetry != 0) map_groups(game_.geometry().symmetries()[e.symmetry], info, groups);
    return info.offset + e.ordinal * info.weight +
           index.rest_rank(groups, tablebase::kPrefixGroups);
  }
  drop::Bitboard map_group(const drop::Symmetry& symmetry, drop::Bitboard squares) const {
    return board_ == Board::kTiny    ? symmetry.apply_tiny(std::uint32_t(squares))
           : board_ == Board::kSmall ? symmetry.apply_small(std::uint32_t(squares))
                                     : symmetry.apply(squares);
  }
  // The groups of a placement of slice `info` mapped by a symmetry, in place.
  void map_groups(const drop::Symmetry& symmetry, const SliceInfo& info,
                  tablebase::Groups& groups) const {
    for (int k = 0; k < info.group_count; ++k)
      groups[info.groups[k]] = map_group(symmetry, groups[info.groups[k]]);
  }
  int slice_at(int tier, std::uint64_t index) const;
  // Moves the cursor to the entry at (tier, index).
  void seek(Cursor& cursor, int tier, std::uint64_t index) const {
    const bool next = cursor.tier_ == tier && cursor.index_ + 1 == index;
    cursor.index_ = index;
    // The prefix stays while the rest steps; at its last placement the next entry has the next
    // canonical prefix or lies in the next slice, and is found from nothing.
    if (next && index_[cursor.slice_].step(cursor.groups_, tablebase::kPrefixGroups)) return;
    cursor.tier_ = tier;
    cursor.slice_ = slice_at(tier, index);
    cursor.groups_ = groups_at(cursor.slice_, index);
  }
  // The groups of the placement stored at a tier index of slice s, and its position.
  tablebase::Groups groups_at(int s, std::uint64_t index) const;
  drop::Position position_of(int s, const tablebase::Groups& groups) const;
  // The groups seen from the other side: each side's groups in the other's place.
  static void swap_sides(const tablebase::Groups& groups, tablebase::Groups& swapped) {
    for (int t = 0; t < drop::kPieceTypes; ++t) {
      swapped[t] = groups[drop::kPieceTypes + t];
      swapped[drop::kPieceTypes + t] = groups[t];
    }
  }

  const drop::Game& game_;
  TierLayout layout_;
  bool use_symmetry_;
  // Which of Symmetry's mappings fits the board: up to 16 squares, up to 32, any.
  enum class Board { kTiny, kSmall, kAny } board_;
  std::vector<tablebase::PlacementIndex> index_;  // per slice
  std::vector<SliceInfo> info_;                   // per slice
  std::vector<TierInfo> tiers_;
  std::uint64_t stored_total_ = 0;
  std::map<std::pair<int, int>, tablebase::PrefixTable>
      prefix_tables_;  // node-based: pointers stay valid
};

static_assert(tablebase::TierSpace<TierSpace>);

}  // namespace drop

template <>
struct tablebase::TierSpaceOf<drop::Game> {
  using type = drop::TierSpace;
};
