// What the tier solver and the table reader need from a game's positions: a numbering of every
// position by (tier, index), tiers listed so that every move leads to an earlier tier or to an
// earlier pass of the same tier, and a canonical representative of each position's symmetry
// class. A game plugs into the tablebase by implementing this; rules/ stays unaware of it.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "solver/game_concept.h"
#include "tablebase/tier.h"

namespace tablebase {

struct Location {
  int tier = -1;
  std::uint64_t index = 0;
  bool operator==(const Location&) const = default;
};

template <typename S>
concept TierSpace = requires(const S& s, int tier, std::uint64_t index,
                             const typename S::Position& p) {
  requires solver::PerftGame<typename S::Game>;
  { s.game() } -> std::same_as<const typename S::Game&>;
  { s.variant_name() } -> std::convertible_to<std::string>;
  { s.tier_count() } -> std::convertible_to<int>;
  { s.tier_name(tier) } -> std::convertible_to<std::string>;
  { s.tier_size(tier) } -> std::convertible_to<std::uint64_t>;
  // Tiers that moves out of `tier` reach, other than `tier` itself; all earlier in the order.
  { s.tier_children(tier) } -> std::convertible_to<const std::vector<int>&>;
  // Index ranges in solve order: a move from a range leads to an earlier range or tier.
  { s.tier_passes(tier) } -> std::convertible_to<const std::vector<IndexRange>&>;
  // The position at (tier, index), and back.
  { s.unrank(tier, index) } -> std::same_as<typename S::Position>;
  { s.locate(p) } -> std::same_as<Location>;
  // Calls visit(location) for the position after each legal move of p.
  {s.for_each_child(p, [](Location) {})};
  // Symmetry: equal-valued positions share one representative. is_canonical(p) says whether p is
  // it; for a representative, for_each_other_image(p, visit) calls visit(index) for the other
  // members of its class (all in p's slice); representative(p) locates p's representative.
  { s.is_canonical(p) } -> std::same_as<bool>;
  // The first index >= index that may hold a representative (a fast skip; tier size if none).
  { s.next_candidate(tier, index) } -> std::same_as<std::uint64_t>;
  {s.for_each_other_image(p, [](std::uint64_t) {})};
  { s.representative(p) } -> std::same_as<Location>;
};

}  // namespace tablebase
