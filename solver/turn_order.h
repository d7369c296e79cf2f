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
// - The solvers that assume two players taking turns (negamax: one value for the side to move,
//   negated across a move) require TwoPlayerGame below.
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

// A game that says how many players it has at compile time: static constexpr int kPlayers.
template <typename G>
concept DeclaresPlayerCount = requires {
  { G::kPlayers } -> std::convertible_to<int>;
};

// Exactly two players taking turns, every move handing the turn to the other: the class of game
// the negamax-family solvers serve (forward_solver.h, dte_search.h, proof_search.h,
// dfpn_search.h, cyclic_search.h, cyclic_retrograde.h, the proof tree and certificate, the tier
// solver), which keep one value for the side to move and negate it across every move. A game
// that names no players is that model itself (Drop 16, Spock, the rook race, the tests' graph
// games); a game that names its players is one only if it also says at compile time that they
// are two (kPlayers == 2), since players() is known only at run time: a game of four players in
// turn would otherwise be solved as if two alternated, silently wrong. Such games are refused at
// compile time instead.
template <typename G>
concept TwoPlayerGame = !NamesPlayers<G> || (DeclaresPlayerCount<G> && G::kPlayers == 2);

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
