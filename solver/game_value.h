// What a game's positions are worth, chosen by the rule set: the kind of value decides which
// solver serves the game.
//
// - win/loss (outcome.h): the default, for games that declare nothing. A terminal position is lost
//   by the side to move, and a position's value is its DTE from the mover's side. Drop and Spock.
//   Served by the forward solver, the DTE search and the tier solver (acyclic games), and by the
//   cyclic retrograde (games with cycles, whose never-resolved positions are draws).
// - win/draw/loss (wdl.h): the game declares `WdlValue terminal_value(p)`, the mover's value of a
//   terminal position, when a game can end drawn (not only by endless play). No solver reads it
//   yet: the cyclic retrograde, which gives the draws of endless play, takes every terminal
//   position as lost, which is all Spock and the rook race need.
// - points: the game declares `using Points = std::array<S, N>` (S an integer or floating type,
//   N == players()) and `Points terminal_value(p)`: what each player scores when play stops at p,
//   component i for player i (absolute, not from the mover's side). Zero-sum two-player games
//   give {v, -v}; Royal Nardy's 1 to 4 points are such a v. Served by expectimax.h (chance nodes,
//   any number of players). terminal_value is asked only where is_terminal(p) holds.
// A win/loss game is also a points game, worth -1 to the mover and +1 to the other player at its
// terminal positions (terminal_points below), so the points solvers run on drop as it is, which is
// how the tests check them against the win/loss solvers.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <tuple>

#include "solver/turn_order.h"
#include "solver/wdl.h"

namespace solver {

enum class ValueKind { win_loss, win_draw_loss, points };

template <typename G>
concept DeclaresPoints = requires(const G& g, const typename G::Position& p) {
  typename G::Points;
  std::tuple_size<typename G::Points>::value;
  { g.terminal_value(p) } -> std::same_as<typename G::Points>;
};

template <typename G>
concept DeclaresWdl = requires(const G& g, const typename G::Position& p) {
  { g.terminal_value(p) } -> std::same_as<WdlValue>;
};

template <typename G>
inline constexpr ValueKind value_kind = DeclaresPoints<G> ? ValueKind::points
                                        : DeclaresWdl<G>  ? ValueKind::win_draw_loss
                                                          : ValueKind::win_loss;

namespace detail {
template <typename G>
struct PointsOf {
  using type = std::array<int, 2>;
};
template <DeclaresPoints G>
struct PointsOf<G> {
  using type = typename G::Points;
};
}  // namespace detail

// What each player scores at a terminal position: the game's own points, or for a win/loss game
// -1 for the side to move (it has lost) and +1 for the other.
template <typename G>
using points_t = typename detail::PointsOf<G>::type;

// A game the points solvers can value: one that declares points, or a win/loss game of two sides
// that alternate (the default of turn_order.h).
template <typename G>
concept PointsGame = TurnOrderGame<G> &&
    (DeclaresPoints<G> || (value_kind<G> == ValueKind::win_loss && !NamesPlayers<G>));

template <PointsGame G>
points_t<G> terminal_points(const G& g, const typename G::Position& p) {
  if constexpr (DeclaresPoints<G>) {
    return g.terminal_value(p);
  } else {
    points_t<G> points{};
    const int loser = player_to_move(g, p);
    points[loser] = -1;
    points[1 - loser] = 1;
    return points;
  }
}

template <PointsGame G>
inline constexpr int points_players = int(std::tuple_size_v<points_t<G>>);

}  // namespace solver
