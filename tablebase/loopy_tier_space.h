// What the loopy tier solver (loopy_tier_solver.h) needs from a game whose play can cycle: a
// numbering of positions by (tier, index), like the acyclic TierSpace (tier_space.h), in which
// cycles stay inside blocks.
//
// - Tiers are listed in solve order: a move leads into the same tier or into one of the tier's
//   children (tier_children), which all come earlier. A tier is the unit written to disk, and
//   held in memory whole when it fits (else a slice of its blocks at a time, loopy_slices.h);
//   the rook race's are its counts of pawns on the board and in reserve.
// - A tier is cut into consecutive blocks, and a move that stays in the tier stays in its block:
//   cycles live inside blocks, which are solved one at a time (in parallel), each from its own
//   entries and its children in earlier tiers. The rook race's block is one exact placement of
//   the pawns, inside which only the rooks move.
// - Every stored entry is solved; a space may store one position class more than once (images
//   under a symmetry that fixes its block), and names the copies (for_each_twin) so that counts
//   of positions take each class once.
// - An entry without children is lost for the side to move (a terminal position or one without a
//   legal move), as in solver/cyclic_retrograde.h.
// - Predecessors inside a block come from the space's unmoves (for_each_parent) when it has them;
//   without, the solver finds them by sweeps over the block (loopy_block.h).
// A game plugs in by implementing this in its own folder; its rules stay unaware of it.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "tablebase/index_range.h"
#include "tablebase/tier_space.h"  // Location

namespace tablebase {

// Entries range.begin .. range.end - 1 of a tier.
struct LocationRange {
  int tier = -1;
  IndexRange range;
};

template <typename S>
concept LoopyTierSpace = requires(const S& s, int tier, std::uint64_t index,
                                  typename S::Cursor& cursor) {
  { s.variant_name() } -> std::convertible_to<std::string>;
  // Names the numbering of entries, written into table files so that tables of another
  // numbering are refused rather than misread.
  { s.index_scheme() } -> std::convertible_to<std::string>;
  { s.tier_count() } -> std::convertible_to<int>;
  { s.tier_name(tier) } -> std::convertible_to<std::string>;
  { s.tier_size(tier) } -> std::convertible_to<std::uint64_t>;
  { s.tier_children(tier) } -> std::convertible_to<const std::vector<int>&>;
  { s.block_count(tier) } -> std::convertible_to<std::uint64_t>;
  { s.block_range(tier, index) } -> std::same_as<IndexRange>;  // index: the block's number
  // The entries play starts from (a start position, or every placement of a material): what
  // counts of reachable positions start from.
  { s.roots() } -> std::convertible_to<std::vector<LocationRange>>;
  // Calls visit(location) for the position after each legal move of the entry (none for a
  // terminal one). A visit that returns bool asks for no more children by returning false; a
  // space may stop then (loopy_visit_goes_on) or go on, so such a visit ignores what comes after.
  // The cursor (default-constructed, one per thread) lets the space keep what it worked out for
  // the entry's block: entries are visited block by block.
  {s.for_each_child(cursor, tier, index, [](Location) {})};
  {s.for_each_child(cursor, tier, index, [](Location) { return true; })};
  // Bytes the space itself holds, which the solver's memory plan counts.
  { s.memory_bytes() } -> std::convertible_to<std::uint64_t>;
};

// For a space's for_each_child: visit(child), and whether the visit wants more children (a visit
// that returns void always does).
template <typename Visit>
bool loopy_visit_goes_on(Visit& visit, Location child) {
  if constexpr (std::is_void_v<decltype(visit(child))>) {
    visit(child);
    return true;
  } else {
    return bool(visit(child));
  }
}

// A space with unmoves: visit(parent index) for each entry of the same block with a move to this
// one (the moves inside the block taken back), at least once each (a space that stores symmetric
// images once may find one parent by several unmoves), and for nothing else.
template <typename S>
concept LoopyUnmoveSpace = LoopyTierSpace<S> &&
    requires(const S& s, int tier, std::uint64_t index, typename S::Cursor& cursor) {
  {s.for_each_parent(cursor, tier, index, [](std::uint64_t) {})};
};

// A space that names its parents by class: for_each_parent_copy(cursor, tier, index, visit)
// calls visit(parent index) for every stored copy (for_each_twin) of every position class of the
// block with a move to this entry's class, at least once each, and for nothing else. Less than
// for_each_parent knows (which copy's move reaches this very entry, which a space that stores a
// class more than once can tell only by generating the candidates' moves), and all a lost child
// needs to tell: every copy of such a class has a move to a copy of its class, and the copies of
// a class have one value (LoopyPredecessors::loss_unmoves, loopy_block.h).
template <typename S>
concept LoopyParentCopySpace = LoopyTierSpace<S> &&
    requires(const S& s, int tier, std::uint64_t index, typename S::Cursor& cursor) {
  {s.for_each_parent_copy(cursor, tier, index, [](std::uint64_t) {})};
};

// A space that names, for block `block` of a tier, the ranges of entries in other tiers its
// moves can lead to (each a block of a child tier; more than its moves reach will do): what lets
// the solver read, of a child too large to hold beside its parent, only the parts a slice of the
// parent's blocks needs (loopy_slices.h).
template <typename S>
concept LoopyChildBlockSpace = LoopyTierSpace<S> &&
    requires(const S& s, int tier, std::uint64_t block, typename S::Cursor& cursor) {
  {s.for_each_child_block(cursor, tier, block, [](LocationRange) {})};
};

// A space that counts an entry's children inside its block without locating them:
// for_each_child_outside(cursor, tier, index, visit) visits the children in other tiers, as
// for_each_child does, and returns how many the entry has in its block: each once where the space
// vouches for kDistinctInBlock (below), else the moves that lead there, which a solve that keeps
// no counters (sweeps, loss_unmoves) takes only as whether there is one. The first pass needs no
// more of those children than that, and locating each was most of its work on the rook race.
template <typename S>
concept LoopyOutsideChildSpace = LoopyTierSpace<S> &&
    requires(const S& s, int tier, std::uint64_t index, typename S::Cursor& cursor) {
  {
    s.for_each_child_outside(cursor, tier, index, [](Location) {})
    } -> std::convertible_to<int>;
};

// Whether tier t is one none of whose entries has a move, each lost in 0 (Spock's "N-lost"
// tiers), as a space that knows such tiers says by bool tier_without_moves(tier). The solver
// neither solves nor reads such a tier: its codes are a fresh array's zeros (a loss in 0 each), a
// zero is never written, and so its pages, which the plan then does not count, are never touched.
// Without the member, no tier is.
template <LoopyTierSpace S>
bool loopy_tier_without_moves(const S& space, int t) {
  if constexpr (requires {
                  { space.tier_without_moves(t) } -> std::convertible_to<bool>;
                })
    return space.tier_without_moves(t);
  else
    return false;
}

// The entries of the space's largest tier.
template <LoopyTierSpace S>
std::uint64_t largest_tier(const S& space) {
  std::uint64_t largest = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    largest = std::max<std::uint64_t>(largest, space.tier_size(t));
  return largest;
}

// Whether a space vouches that each entry's moves inside its block reach distinct entries and its
// unmoves visit each parent once (static constexpr bool kDistinctInBlock = true): the solver then
// need not sort out repeats, which cost the rook race 12% of its time. Without, it does.
template <typename S>
constexpr bool distinct_in_block() {
  if constexpr (requires { S::kDistinctInBlock; })
    return S::kDistinctInBlock;
  else
    return false;
}

// Whether a space solves only the entries play reaches by default
// (static constexpr bool kSolveReachedOnly = true; LoopySolveOptions::solve_reached_only): worth
// it where its numbering holds many more entries than play reaches, as the reach that marks them
// costs less than solving the rest. Without, every entry is solved.
template <typename S>
constexpr bool loopy_solves_reached_only() {
  if constexpr (requires { S::kSolveReachedOnly; })
    return S::kSolveReachedOnly;
  else
    return false;
}

// A space that knows the value of some finished positions without solving them (Dobutsu shogi's
// catches, won in 1, and tries, lost in 0): known_code(entry) gives an entry's code when it is
// known that way (kLoopyUnresolved otherwise), and for_each_child_known(cursor, tier, index,
// visit) is for_each_child with visit(child, known), known the child's code as known_code gives it.
// The compact solve (loopy_compact.h) then folds such children in as it folds children in earlier
// tiers, and such entries need not tell their parents at their level: the work of the densest
// levels, done in the first pass where the children are at hand.
// for_each_child_known may also give a child whose code is not known with the index
// kLoopyNotLocated in place of its own (in the entry's tier), sparing the work of locating it,
// where it vouches that the entry's moves reach distinct entries: the first pass only counts such
// children.
inline constexpr std::uint64_t kLoopyNotLocated = ~std::uint64_t{0};
template <typename S>
concept LoopyKnownSpace = LoopyTierSpace<S> &&
    requires(const S& s, int tier, std::uint64_t index, typename S::Cursor& cursor) {
  { s.known_code(cursor, tier, index) } -> std::convertible_to<std::uint8_t>;
  {s.for_each_child_known(cursor, tier, index, [](Location, std::uint8_t) {})};
};

// Whether a space is solved holding only its reached entries, by rank (static constexpr bool
// kCompactReached = true; loopy_compact.h): for tiers so large and so little reached that a byte
// an entry would not fit where a byte a reached entry does. It must have unmoves.
template <typename S>
constexpr bool loopy_compact() {
  if constexpr (requires { S::kCompactReached; })
    return S::kCompactReached;
  else
    return false;
}

// Whether a space that has unmoves finds predecessors faster by sweeps all the same
// (static constexpr bool kPrefersSweeps = true; LoopySolveOptions::predecessors): where a
// symmetry stores a class more than once, an unmove must generate its candidates' moves to tell
// which copy it reaches, and sweeps can measure faster (Spock's space, tablebase/LOOPY.md). Such a
// space that names its parents by class (LoopyParentCopySpace) gets sweeps only for the entries
// that may lose (LoopyPredecessors::loss_unmoves).
template <typename S>
constexpr bool loopy_prefers_sweeps() {
  if constexpr (requires { S::kPrefersSweeps; })
    return S::kPrefersSweeps;
  else
    return false;
}

// A space that stores some position classes more than once: visit(index) for each other entry of
// the same block holding the same class.
template <typename S>
concept LoopyTwinSpace = LoopyTierSpace<S> &&
    requires(const S& s, int tier, std::uint64_t index, typename S::Cursor& cursor) {
  {s.for_each_twin(cursor, tier, index, [](std::uint64_t) {})};
};

// The loopy tier space of a game's whole variants, for the code that solves or opens their tables
// knowing only the game's registry entry (the front ends, through tablebase/game_tables.h, which
// sees every game's rules/<game>/solve/tier_space.h through the generated game_tier_spaces.h):
// specialized beside each space (rules/rookrace/solve/tier_space.h for rookrace::Game) with
//   using type = the space;
//   static std::unique_ptr<type> of(std::string_view variant);  // the whole variant's space;
//       common::ParseError for a malformed variant, std::invalid_argument for one it cannot index
template <typename G>
struct LoopySpaceOf;
template <typename G>
using loopy_space_t = typename LoopySpaceOf<G>::type;

}  // namespace tablebase
