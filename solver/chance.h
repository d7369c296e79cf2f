// Chance: positions where no player chooses, and an event with known odds (a roll of the dice)
// decides the next position.
//
// Contract
// - g.is_chance(p): p is a chance position. Its chance outcomes replace its moves: generate is not
//   asked at p, and p is never terminal.
// - g.chances(p, list) lists the outcomes of p, each with a positive integer weight; the
//   probability of an outcome is its weight over the sum of the list's weights, so probabilities
//   are exact (36 rolls of two dice, or 21 distinct rolls weighted 1 for a double and 2 for the
//   others, both sum to 36) and a solver may keep expected values as exact rationals.
//   Outcomes listed twice simply add their weights.
// - g.make_chance(p, outcome) plays the outcome and returns what g.unmake_chance(p, outcome, undo)
//   needs to restore p, as make and unmake do for moves.
// - A game without chance does not declare these; solvers test ChanceGame with if constexpr, so
//   today's games need nothing.
//
// How a dice game maps onto it (backgammon, Royal Nardy): a turn is two positions. The first, the
// mover's turn with no dice yet, is a chance position whose outcomes are the rolls; make_chance
// writes the roll into the position. The second, the mover with that roll, is a decision position
// whose moves are the whole plays the roll allows (all its dice, in every order that gives a
// distinct result), a forced pass being one move, so that a non-terminal decision position always
// has a move; playing one clears the dice and hands the turn over (player_to_move, turn_order.h).
// The key of a position includes the roll, so both kinds are stored in one table.
#pragma once

#include <concepts>
#include <cstdint>

namespace solver {

// One entry of a chance list.
template <typename Outcome>
struct Weighted {
  Outcome outcome;
  std::uint32_t weight;
};

template <typename G>
concept ChanceGame = requires(const G& g, typename G::Position& p, const typename G::Position& cp,
                              typename G::ChanceList& list, typename G::ChanceOutcome o,
                              typename G::ChanceUndo u) {
  { g.is_chance(cp) } -> std::same_as<bool>;
  {g.chances(cp, list)};
  { list.size() } -> std::convertible_to<int>;
  { list[0].outcome } -> std::convertible_to<typename G::ChanceOutcome>;
  { list[0].weight } -> std::convertible_to<std::uint64_t>;
  { g.make_chance(p, o) } -> std::same_as<typename G::ChanceUndo>;
  {g.unmake_chance(p, o, u)};
};

}  // namespace solver
