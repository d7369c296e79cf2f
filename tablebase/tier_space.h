// What the tier solver and the table reader need from a game's positions: a numbering of every
// stored position by (tier, index), tiers listed so that every move leads to an earlier tier or to
// an earlier pass of the same tier, and a way to find where any position's value is stored (a
// game may store one entry for positions it knows to be equal, symmetric images for example).
// The game must be of the class the tier solver serves: two players taking turns
// (solver::TwoPlayerGame; its DTEs are negamax values), win/loss, acyclic.
// A game plugs into the tablebase by implementing this; rules/ stays unaware of it.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "solver/game_concept.h"
#include "solver/turn_order.h"
#include "tablebase/index_range.h"

namespace tablebase {

struct Location {
  int tier = -1;
  std::uint64_t index = 0;
  bool operator==(const Location&) const = default;
};

template <typename S>
concept TierSpace = requires(const S& s, int tier, std::uint64_t index,
                             const typename S::Position& p, const std::vector<char>& wanted,
                             typename S::Cursor& cursor) {
  requires solver::PerftGame<typename S::Game>;
  requires solver::TwoPlayerGame<typename S::Game>;
  { s.game() } -> std::same_as<const typename S::Game&>;
  { s.variant_name() } -> std::convertible_to<std::string>;
  { s.tier_count() } -> std::convertible_to<int>;
  { s.tier_name(tier) } -> std::convertible_to<std::string>;
  // Entries stored for the tier (indices 0 .. size-1), and the positions they stand for (more,
  // when symmetric positions share an entry).
  { s.tier_size(tier) } -> std::convertible_to<std::uint64_t>;
  { s.tier_positions(tier) } -> std::convertible_to<std::uint64_t>;
  // Tiers that moves out of `tier` reach, other than `tier` itself; all earlier in the order.
  { s.tier_children(tier) } -> std::convertible_to<const std::vector<int>&>;
  // Index ranges in solve order: a move from a range leads to an earlier range or tier.
  { s.tier_passes(tier) } -> std::convertible_to<const std::vector<IndexRange>&>;
  // The position stored at (tier, index); where any position's value is stored (the entry of a
  // position with the same value, its symmetric image for example).
  { s.unrank(tier, index) } -> std::same_as<typename S::Position>;
  { s.locate(p) } -> std::same_as<Location>;
  // Calls visit(location) for the position after each legal move of the entry at (tier, index)
  // whose child lies in a tier with wanted[tier] set; a visit that returns bool stops the moves
  // by returning false. The entry is given by place, not as a
  // position, because the space knows more about its own entries than it could find again from a
  // position; the filter lets a solver that folds in child tiers a group at a time pay only for
  // the moves into that group. The cursor (default-constructed, one per thread) remembers the
  // entry last visited, so a space may find the next one from it: sweeps go in index order.
  {s.for_each_child(cursor, tier, index, wanted, [](Location) {})};
  {s.for_each_child(cursor, tier, index, wanted, [](Location) { return true; })};
  // Bytes the space itself holds (its index of tiers and slices), which a solver's memory plan
  // counts beside the tiers' own bytes.
  { s.memory_bytes() } -> std::convertible_to<std::uint64_t>;
};

// The tier space of a game's tables, for the code that opens tables knowing only the game (the
// oracle, the front ends): specialized beside each space (rules/drop/solve/tier_space.h for
// drop::Game).
template <typename G>
struct TierSpaceOf;
template <typename G>
using tier_space_t = typename TierSpaceOf<G>::type;

}  // namespace tablebase
