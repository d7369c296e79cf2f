// What the coalition tier solver (coalition_tier_solver.h) needs from a game of more than two
// players valued per coalition (solver/coalition_game.h): a numbering of positions by
// (tier, index) in which cycles stay inside blocks, as the loopy tier space has
// (loopy_tier_space.h), with every position stored seen from its player to move.
//
// - Tiers are listed in solve order: a move leads into the same tier or an earlier one. A tier is
//   cut into consecutive blocks, and a move that stays in the tier stays in its block.
// - Players are named by seats counted from the player to move (seat 0) in the order of play, so
//   a position and its images under the renamings that turn the seats are one entry. A child's
//   seats start at its own player to move, `shift` seats after the parent's: coalition S of the
//   parent (a set of seats) is S turned back by `shift` at the child.
// - A finished child is not located: `left` names the seats (the parent's) still in the game,
//   which decides every coalition's result there (solver/coalition_game.h).
// - Every entry is a position of the row: a space numbers only the positions it solves (Nevsky's
//   only those play reaches from the start), so the solver holds a value for each.
// A game plugs in by implementing this in its own folder; its rules stay unaware of it.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "tablebase/index_range.h"
#include "tablebase/tier_space.h"  // Location

namespace tablebase {

// A set of seats (bit j: seat j of n) counted again from seat `shift`: what a coalition of a
// parent is at a child whose player to move sits `shift` seats on, and a coalition named by the
// players is seen from the player to move `shift`.
inline std::uint32_t seats_from(std::uint32_t s, int shift, int players) {
  const std::uint32_t all = (1u << players) - 1;
  return shift ? ((s >> shift) | (s << (players - shift))) & all : s;
}

// A position after a move, for the coalition tier solver.
struct CoalitionChild {
  Location at;             // where it is stored (tier -1: finished, or a block not reached)
  std::uint32_t left = 0;  // for a finished child: the seats still in (bit j: seat j)
  int shift = 0;           // its player to move's seat (the parent's seats)
};

template <typename S>
concept CoalitionTierSpace = requires(const S& s, int tier, std::uint64_t index,
                                      typename S::Cursor& cursor) {
  { s.variant_name() } -> std::convertible_to<std::string>;
  { s.index_scheme() } -> std::convertible_to<std::string>;
  { s.players() } -> std::convertible_to<int>;
  { s.tier_count() } -> std::convertible_to<int>;
  { s.tier_name(tier) } -> std::convertible_to<std::string>;
  { s.tier_size(tier) } -> std::convertible_to<std::uint64_t>;
  { s.block_count(tier) } -> std::convertible_to<std::uint64_t>;
  // The other tiers a tier's moves lead to (each earlier): what must be held to solve it.
  { s.tier_children(tier) } -> std::convertible_to<const std::vector<int>&>;
  { s.block_range(tier, index) } -> std::same_as<IndexRange>;
  {
    s.for_each_child(cursor, tier, index, [](const CoalitionChild&) {})
    } -> std::same_as<void>;
  { s.memory_bytes() } -> std::convertible_to<std::uint64_t>;
};

// The coalition tier space of a game's whole variants, for the front ends that know only the
// game's registry entry (through the generated game_tier_spaces.h, which includes every
// rules/<game>/solve/*tier_space.h): specialized beside the space with
//   using type = the space;
//   static std::unique_ptr<type> of(std::string_view variant);  // common::ParseError for a
//       malformed variant, std::invalid_argument for one it cannot index
// The space also finds its positions and keeps them beside the tables:
//   void discover(int threads, const std::filesystem::path& spill,
//                 const std::function<void(int tiers, std::uint64_t positions)>& progress);
//   void save_index(const std::filesystem::path& dir, int zstd_level) const;
//   bool load_index(const std::filesystem::path& dir);
//   Location locate(const Position&) const;  // tier -1: not in the row
//   std::uint64_t memory_bytes() const;
template <typename G>
struct CoalitionSpaceOf;
template <typename G>
using coalition_space_t = typename CoalitionSpaceOf<G>::type;

}  // namespace tablebase
