// Spock's positions as a loopy tier space (tablebase/loopy_tier_space.h), for the loopy tier
// solver: every position of a ladder row's materials by a dense (tier, index). tablebase/LOOPY.md
// has the why and the measurements.
//
// Structure: the pieces on the board never grow in number. A capture takes one off; a Spock's
// leap takes the piece it lands on and leaves one of its own side behind, so it keeps the number
// but changes the material, and both sides leap, so materials cycle within one number of pieces:
// - a tier is the positions with N pieces whose side to move has a Spock, one block (its
//   materials reach one another), or those with N pieces whose side to move has none (lost
//   already: "N-lost", no moves at all). A capture leads to N - 1 pieces; a leap or a capture of
//   the last enemy Spock to a lost tier. Tiers go by N, the lost one first.
// - the materials are those the row can reach by the rules of material alone (a move, a capture
//   of type t + 1 or t + 2 by type t, a leap onto any piece), from the row's own in either
//   orientation: a superset of what play reaches, since where the pieces stand is not looked at.
//   Each material is a slice: its placements ranked by tablebase/index.h (ten groups, the side to
//   move's R S L P K then the other's), stored once per symmetry class of the board through the
//   canonical prefix (tablebase/prefix_table.h), as Drop 16's tiers are. Positions are
//   mover-relative (the colour swap is a symmetry: the rules know neither colour nor direction),
//   so a position and its colour swap are one entry.
// - the roots are every placement of the row's material, either side to move: whole slices.
// A prefix that a symmetry fixes leaves some classes stored twice (for_each_twin names them).
// Children come from the rules' own moves (Game::generate), made on the groups as Game::make makes
// them, and are located by rank. Locating is most of a solve's time, so the moves that take
// nothing (most of them) share the work: such a move keeps the material, so all of a position's
// go to one slice, and where the child's prefix is its mover's own pieces, which the move leaves
// where they are, to one prefix entry as well; each such child then costs two squares' images and
// a rank of the groups after the prefix (QuietChildren). A cursor keeps the placement it decoded
// last, and an entry a few on in index order is that placement stepped on
// (PlacementIndex::step), not a new unrank.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/spock/game.h"
#include "rules/spock/material.h"
#include "tablebase/index.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/prefix_table.h"

namespace spock {

static_assert(tablebase::kGroups == 2 * spock::kPieceTypes,
              "a placement's groups are the pieces by side");

class TierSpace {
 public:
  using Game = spock::Game;
  using Position = spock::Position;

  // The materials are placed whole, 2.1 to 2.5 times what play reaches on the rows measured
  // (tablebase/LOOPY.md): the solver takes only the reached entries unless told otherwise.
  static constexpr bool kSolveReachedOnly = true;
  // Its unmoves generate candidates' moves wherever a symmetry fixes a prefix (for_each_parent),
  // and measured slower than sweeps on every row tried (tablebase/LOOPY.md).
  static constexpr bool kPrefersSweeps = true;

  // Throws std::invalid_argument for a board of more than 32 squares or a row too large to index.
  TierSpace(const Game& game, const Material& row);
  // Slices point into prefix_tables_.
  TierSpace(const TierSpace&) = delete;
  TierSpace& operator=(const TierSpace&) = delete;

  const Game& game() const { return game_; }
  std::string variant_name() const { return row_.name(); }
  std::string index_scheme() const { return "spock tiers 1"; }
  int tier_count() const { return int(tiers_.size()); }
  const std::string& tier_name(int t) const { return tiers_[t].name; }
  std::uint64_t tier_size(int t) const { return tiers_[t].size; }
  const std::vector<int>& tier_children(int t) const { return tiers_[t].children; }
  // The lost tiers: their side to move has no Spock, so no move (a loss in 0).
  bool tier_without_moves(int t) const { return tiers_[t].lost; }
  std::uint64_t block_count(int) const { return 1; }
  tablebase::IndexRange block_range(int t, std::uint64_t) const { return {0, tiers_[t].size}; }
  std::vector<tablebase::LocationRange> roots() const;
  std::uint64_t memory_bytes() const;
  std::uint64_t total_entries() const;
  // The materials of the tier space, both orientations counted.
  int material_count() const { return int(slices_.size()); }

  // Where p is stored (or a symmetric image of it); tier -1 for a material the row cannot reach.
  tablebase::Location locate(const Position& p) const { return locate(p, nullptr); }
  // The position stored at (t, index), Blue to move.
  Position unrank(int t, std::uint64_t index) const;

  // The slice and the placement of the entry visited last: sweeps go in index order.
  class Cursor {
    friend class TierSpace;
    int tier_ = -1, slice_ = -1;
    bool decoded_ = false;  // groups_ holds entry index_ of slice_
    std::uint64_t index_ = 0;
    tablebase::Groups groups_{};
  };

  template <typename Visit>
  void for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
    visit_children(cursor, t, index, visit, false);
  }
  // The children in other tiers, as for_each_child gives them, and the number of moves that stay
  // in the tier, counted without locating them (tablebase::LoopyOutsideChildSpace): a move that
  // keeps the number of pieces stays where the side to move next still has a Spock after it, that
  // is unless it is a Spock's leap onto the last one. Moves, not entries: two may reach one stored
  // copy, so the count is not kDistinctInBlock's, and a solver asks it only whether there is one.
  template <typename Visit>
  int for_each_child_outside(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
    return visit_children(cursor, t, index, visit, true);
  }
  // The entries of tier t with a move to this one (tablebase::LoopyUnmoveSpace): the side that
  // moved last (Red, in the stored orientation) takes back either a move of a piece other than a
  // Spock to an empty square, whose way back is one of its own such moves (a ray over friends
  // and empty squares, or the Rock's run over friends, reads alike both ways), or a Spock's leap:
  // its Spock on d came from a knight's square s, where its piece of type w appeared for the one
  // of type w - 1 (in the cycle) the Spock took on d, its own or the enemy's. Captures by other
  // pieces leave the tier. Nothing in a lost tier: it has no moves.
  template <typename Visit>
  void for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
  // Every copy of every class of tier t with a move to this entry's class
  // (tablebase::LoopyParentCopySpace): the same unmoves, with no candidate's moves generated.
  template <typename Visit>
  void for_each_parent_copy(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;
  template <typename Visit>
  void for_each_twin(Cursor& cursor, int t, std::uint64_t index, Visit visit) const;

 private:
  using Groups = tablebase::Groups;
  // Pieces of each group: the side to move's R S L P K, then the other side's.
  using Counts = std::array<std::uint8_t, tablebase::kGroups>;
  struct Slice {
    Counts counts{};
    int tier = 0;
    std::uint64_t offset = 0;  // first index in its tier
    std::uint64_t weight = 1;  // placements of the groups after the prefix
    tablebase::PlacementIndex index;
    const tablebase::PrefixTable* prefixes = nullptr;
    int swapped = -1;            // the slice of the same material, the other side to move
    bool prefix_movers = false;  // the prefix's groups are all the side to move's
    std::uint64_t size() const { return prefixes->ranks.size() * weight; }
  };
  // for_each_child, or with `outside_only` for_each_child_outside (its count returned).
  template <typename Visit>
  int visit_children(Cursor& cursor, int t, std::uint64_t index, Visit& visit,
                     bool outside_only) const {
    const Groups groups = decode(cursor, t, index);
    const Position p = position_of(groups);
    MoveList moves;
    game_.generate(p, moves);
    if (moves.empty()) return 0;
    const Bitboard next_spocks = groups[kPieceTypes + kSpock];  // the side to move next's
    int inside = 0;
    // The children's groups before the move: Red to move.
    Groups turned;
    for (int g = 0; g < kPieceTypes; ++g) {
      turned[g] = groups[kPieceTypes + g];
      turned[kPieceTypes + g] = groups[g];
    }
    QuietChildren quiet;
    bool quiet_known = false;
    for (const Move m : moves) {
      // A piece lands on an empty square or on a piece it takes (a Spock, always: on a friend too).
      const Bitboard to = square_bit(m.to());
      if (outside_only && next_spocks &&
          (!(p.occupied() & to) || (m.mover() == kSpock && next_spocks != to))) {
        ++inside;
        continue;
      }
      if (!(p.occupied() & to)) {
        if (!quiet_known) quiet = quiet_children(cursor.slice_, turned);
        quiet_known = true;
        if (quiet.slice) {
          if (!tablebase::loopy_visit_goes_on(visit, quiet_child(quiet, m))) return inside;
          continue;
        }
      }
      // As Game::make: the piece taken off, the mover moved, and behind a Spock the type after
      // the one it took.
      Groups child = turned;
      int taken = 0;
      for (int g = 0; g < tablebase::kGroups; ++g)
        if (child[g] & to) {
          child[g] ^= to;
          taken = g % kPieceTypes;
          break;
        }
      child[kPieceTypes + m.mover()] ^= square_bit(m.from()) | to;
      if (m.mover() == kSpock)
        child[kPieceTypes + next_in_cycle(PieceType(taken))] |= square_bit(m.from());
      if (!tablebase::loopy_visit_goes_on(visit, locate(child, nullptr))) return inside;
    }
    return inside;
  }
  // What a position's children by moves that take nothing share (see the top): their slice, or
  // nullptr where each is located whole, their prefix's entry, and their groups mapped by its
  // symmetry before the move.
  struct QuietChildren {
    const Slice* slice = nullptr;
    tablebase::PrefixEntry entry;
    Groups groups{};
  };
  struct Tier {
    std::string name;
    int pieces = 0;
    bool lost = false;  // the side to move has no Spock
    std::vector<int> slices;
    std::uint64_t size = 0;
    std::vector<int> children;
  };

  // locate, and whether the entry may have twins (its prefix is fixed by a symmetry).
  tablebase::Location locate(const Position& p, bool* twinned) const {
    return locate(groups_of(p), twinned);
  }
  tablebase::Location locate(Groups groups, bool* twinned) const;
  static std::uint32_t code_of(const Counts& c);
  static constexpr std::uint32_t kNoCode = ~std::uint32_t{0};  // no material's (30 bits)
  std::uint64_t code_slot(std::uint32_t code) const {
    return (std::uint64_t{code} * 0x9E3779B97F4A7C15u >> 32) & (slice_by_code_.size() - 1);
  }
  static Groups groups_of(const Position& p);
  int slice_of(const Counts& c) const;
  // The slice of entry `index` of tier t, kept in the cursor.
  int seek(Cursor& cursor, int t, std::uint64_t index) const;
  // The placement of entry `index` of tier t, kept in the cursor.
  const Groups& decode(Cursor& cursor, int t, std::uint64_t index) const;
  Groups groups_at(int s, std::uint64_t index) const;
  static Position position_of(const Groups& groups);  // Blue to move
  // For a position of slice s whose children's groups before the move are `turned`.
  QuietChildren quiet_children(int s, const Groups& turned) const;
  // Where the move m, which takes nothing, leads.
  tablebase::Location quiet_child(const QuietChildren& quiet, Move m) const {
    const Slice& slice = *quiet.slice;
    Groups groups = quiet.groups;
    const auto& image = game_.geometry().symmetries()[quiet.entry.symmetry].image;
    groups[kPieceTypes + m.mover()] ^= square_bit(image[m.from()]) | square_bit(image[m.to()]);
    return {slice.tier, slice.offset + quiet.entry.ordinal * slice.weight +
                            slice.index.rest_rank(groups, tablebase::kPrefixGroups)};
  }
  Bitboard image(int symmetry, Bitboard squares) const {
    const common::Symmetry& s = game_.geometry().symmetries()[symmetry];
    return tiny_ ? s.apply_tiny(std::uint32_t(squares)) : s.apply_small(std::uint32_t(squares));
  }
  const tablebase::PrefixTable& prefix_table(int first_count, int second_count);
  // parent(q) for each position q of tier t with a move to the entry's position (Red to move, as
  // stored): the unmoves for_each_parent describes.
  template <typename Parent>
  void for_each_unmove(Cursor& cursor, int t, std::uint64_t index, Parent parent) const;

  Game game_;
  bool tiny_ = false;  // at most 16 squares: a set's image in two lookups
  Material row_;
  std::vector<Slice> slices_;
  std::vector<Tier> tiers_;
  std::vector<std::pair<std::uint32_t, int>> slice_by_code_;  // hashed by code; slice -1: empty
  std::map<std::pair<int, int>, tablebase::PrefixTable> prefix_tables_;  // node-based: stable
};

template <typename Parent>
void TierSpace::for_each_unmove(Cursor& cursor, int t, std::uint64_t index, Parent parent) const {
  if (tiers_[t].lost) return;
  Position p = position_of(decode(cursor, t, index));
  p.side_to_move = kRed;
  MoveList moves;
  game_.generate(p, moves);
  const Bitboard occupied = p.occupied();
  for (const Move m : moves) {
    if (m.mover() == kSpock || (occupied & square_bit(m.to()))) continue;
    Position q = p;
    game_.make(q, m);
    q.side_to_move = kRed;
    parent(q);
  }
  for (Bitboard spocks = p.pieces(kRed, kSpock); spocks;) {
    const int to = pop_lsb(spocks);
    for (Bitboard from = game_.geometry().knight_attacks(to) & p.by_color[kRed]; from;) {
      const int at = pop_lsb(from);
      const PieceType appeared = p.type_on(square_bit(at));
      const auto taken = PieceType((appeared + kPieceTypes - 1) % kPieceTypes);
      Position q = p;
      q.by_color[kRed] ^= square_bit(to);
      q.by_type[kSpock] ^= square_bit(to);
      q.by_type[appeared] ^= square_bit(at);
      q.by_type[kSpock] |= square_bit(at);
      q.by_type[taken] |= square_bit(to);
      for (const Color victim : {kRed, kBlue}) {
        Position r = q;
        r.by_color[victim] |= square_bit(to);
        parent(r);
      }
    }
  }
}

template <typename Visit>
void TierSpace::for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  // A parent's position is located at its class's entry or at a twin of it, and whether that
  // entry's move reaches this very entry or its twin depends on the symmetries locate took: where
  // either has twins, the parents are the entries of the class whose moves reach this one.
  bool self_twinned = false;
  if (!tiers_[t].lost) {
    const Slice& slice = slices_[seek(cursor, t, index)];
    self_twinned = slice.prefixes->fixed[(index - slice.offset) / slice.weight];
  }
  for_each_unmove(cursor, t, index, [&](const Position& q) {
    bool twinned = false;
    const tablebase::Location at = locate(q, &twinned);
    if (at.tier != t) return;
    if (!twinned && !self_twinned) return visit(at.index);
    Cursor other;
    const auto if_parent = [&](std::uint64_t candidate) {
      bool moves_here = false;
      for_each_child(other, t, candidate, [&](tablebase::Location c) {
        moves_here = moves_here || c == tablebase::Location{t, index};
      });
      if (moves_here) visit(candidate);
    };
    if_parent(at.index);
    for_each_twin(other, t, at.index, if_parent);
  });
}

template <typename Visit>
void TierSpace::for_each_parent_copy(Cursor& cursor, int t, std::uint64_t index,
                                     Visit visit) const {
  Cursor other;
  for_each_unmove(cursor, t, index, [&](const Position& q) {
    bool twinned = false;
    const tablebase::Location at = locate(q, &twinned);
    if (at.tier != t) return;
    visit(at.index);
    if (twinned) for_each_twin(other, t, at.index, visit);
  });
}

template <typename Visit>
void TierSpace::for_each_twin(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
  const Slice& s = slices_[seek(cursor, t, index)];
  // Only a prefix a symmetry fixes leaves copies of a class.
  if (!s.prefixes->fixed[(index - s.offset) / s.weight]) return;
  const Groups groups = decode(cursor, t, index);
  // The symmetries that fix the (canonical) prefix map the rest to the other copies.
  const std::uint64_t prefix = s.index.prefix_rank(groups, tablebase::kPrefixGroups);
  const int symmetries = int(game_.geometry().symmetries().size());
  for (int g = 1; g < symmetries; ++g) {
    Groups image_groups;
    for (int k = 0; k < tablebase::kGroups; ++k) image_groups[k] = image(g, groups[k]);
    if (s.index.prefix_rank(image_groups, tablebase::kPrefixGroups) != prefix) continue;
    const std::uint64_t twin = s.offset + s.prefixes->entries[prefix].ordinal * s.weight +
                               s.index.rest_rank(image_groups, tablebase::kPrefixGroups);
    if (twin != index) visit(twin);
  }
}

}  // namespace spock

// A ladder row's space (spock:WxH:BLUE/red): common::ParseError for a malformed row,
// std::invalid_argument for one past what it indexes (a board of more than 32 squares, more
// pieces than a tier holds).
template <>
struct tablebase::LoopySpaceOf<spock::Game> {
  using type = spock::TierSpace;
  static std::unique_ptr<type> of(std::string_view variant) {
    const spock::Material row = spock::parse_material(variant);
    return std::make_unique<type>(spock::Game(row.width, row.height), row);
  }
};
