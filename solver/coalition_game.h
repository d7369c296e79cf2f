// The class of game the coalition solver (coalition_retrograde.h) takes: 2 to 8 players moving in
// any order, play that may cycle, and finished positions where the game says who is still in.
//
// Contract
// - A KeyedGame (game_concept.h) that names its players (turn_order.h): players() in 2..8, and
//   player_to_move(p) at every position, finished ones included.
// - A position is finished when is_terminal(p) holds or it has no legal move (its moves, if the
//   game lists any, are not played). There players_left(p) is the set of players still in (bit q
//   for player q), never empty; the solver asks it only there. The forward search
//   (coalition_search.h) asks it everywhere: it must then be the players still in at every
//   position, a move never adding one (so a coalition with no player left never wins).
// - A coalition S is a set of players, neither empty nor everyone. Its value at a finished
//   position: a win when every player left is in S, a loss when none is, else a draw (pair play's
//   end, when S holds one partner of the pair left). Elsewhere S chooses when the player to move
//   is in S, the rest of the players otherwise: S against the rest is a two-sided game with draws,
//   valued from S's side whoever moves, with distances in plies as in wdl.h (the winner hurries:
//   1 + the least of the children that win for it; the loser delays: 1 + the greatest, when every
//   child loses for it). Play that never ends is a draw. S and its complement have opposite values
//   with the same distance, so n players need 2^(n-1) - 1 coalitions solved (7 for four: each
//   player alone against the rest, and the three splits into pairs).
// - Symmetry (optional): canonical_form(p) returns {key, renamed}, key == canonical_key(p) and
//   renamed[q] the name player q has in the canonical image (renamed[0..players()-1] a
//   permutation). The image must be p mapped by a symmetry of the game (a map of positions that
//   carries moves to moves and finished positions to finished ones, renaming the players by
//   `renamed`), and positions with equal keys must be images of each other so. Then S at p has
//   the value of renamed(S) at the image, which is how one canonical position serves every
//   renaming of it (a quarter turn of a four-corner board with the colours following the corners).
//   A game that does not declare canonical_form renames no one: its canonical keys must join only
//   positions whose players keep their names (a key taken from the mover's side, as Drop 16's,
//   does rename: such a game must declare canonical_form).
// - A two-player game that alternates is the case players() == 2 where the player left at a
//   finished position is the one not to move: the coalition {player to move} is the side to move
//   of cyclic_retrograde.h, with the same values.
#pragma once

#include <concepts>
#include <cstdint>

#include "solver/game_concept.h"
#include "solver/player_renaming.h"
#include "solver/turn_order.h"

namespace solver {

template <typename G>
concept RenamesPlayers = KeyedGame<G> && NamesPlayers<G> &&
    requires(const G& g, const typename G::Position& p) {
  { g.canonical_form(p).key } -> std::convertible_to<typename G::Key>;
  { int(g.canonical_form(p).renamed[0]) } -> std::same_as<int>;
};

template <typename G>
concept CoalitionGame = KeyedGame<G> && NamesPlayers<G> &&
    requires(const G& g, const typename G::Position& p) {
  { g.players_left(p) } -> std::convertible_to<std::uint32_t>;
};

// A canonical key and the renaming that took the position to its canonical image.
template <typename Key>
struct CanonicalImage {
  Key key;
  PlayerRenaming renaming;
};

// The game's canonical_form, or its canonical_key with no one renamed.
template <KeyedGame G>
CanonicalImage<typename G::Key> canonical_image(const G& g, const typename G::Position& p) {
  if constexpr (RenamesPlayers<G>) {
    const auto form = g.canonical_form(p);
    return {form.key, PlayerRenaming::of(form.renamed, g.players())};
  } else {
    return {g.canonical_key(p), {}};
  }
}

}  // namespace solver
