// Who moves next. The first solvers assumed two players taking turns, and never asked whose turn
// it is: their values are for the side to move (negamax). Games of more players, or whose turn
// does not simply alternate, and solvers that keep one value per player (expectimax.h), need the
// player named.
//
// Contract
// - g.players() is the number of players, fixed for the game; g.player_to_move(p) is in
//   0 .. players() - 1 for every position (terminal and chance positions included: at a chance
//   position it names the player whose turn the chance event begins, as a roll of the dice belongs
//   to the player who then moves). Nothing is assumed about the order: a move may keep the turn,
//   pass it to anyone, or skip players.
// - A game that declares neither is taken as two players alternating, the mover being its
//   Position's side_to_move (0 or 1): drop::Game and spock::Game as they are, with no change.
//   A game with neither member nor field is not a TurnOrderGame.
#pragma once

#include <concepts>

namespace solver {

template <typename G>
concept NamesPlayers = requires(const G& g, const typename G::Position& p) {
  { g.players() } -> std::convertible_to<int>;
  { g.player_to_move(p) } -> std::convertible_to<int>;
};

template <typename G>
concept AlternatesTwoSides = requires(const typename G::Position& p) {
  { int(p.side_to_move) } -> std::same_as<int>;
};

template <typename G>
concept TurnOrderGame = NamesPlayers<G> || AlternatesTwoSides<G>;

template <TurnOrderGame G>
constexpr int players([[maybe_unused]] const G& g) {
  if constexpr (NamesPlayers<G>)
    return g.players();
  else
    return 2;
}

template <TurnOrderGame G>
constexpr int player_to_move([[maybe_unused]] const G& g, const typename G::Position& p) {
  if constexpr (NamesPlayers<G>)
    return g.player_to_move(p);
  else
    return int(p.side_to_move);
}

}  // namespace solver
