// What a rule set must offer the solvers. Solvers are templates over this concept, so a new game
// (a sibling of rules/drop/) plugs in without touching solver code, and calls are inlined.
// Beyond moves and keys, a game may say who moves next (turn_order.h), what its positions are
// worth (game_value.h) and where chance decides (chance.h); each defaults to what drop has (two
// sides in turn, win/loss, no chance), so today's games declare none of it.
#pragma once

#include <concepts>
#include <cstdint>

namespace solver {

template <typename G>
concept PerftGame = requires(const G& g, typename G::Position& p, const typename G::Position& cp,
                             typename G::Move m, typename G::MoveList& list, typename G::Undo u) {
  {g.generate(cp, list)};
  { g.count_moves(cp) } -> std::convertible_to<std::uint64_t>;
  { g.make(p, m) } -> std::same_as<typename G::Undo>;
  {g.unmake(p, m, u)};
  { g.is_terminal(cp) } -> std::same_as<bool>;
  { list.size() } -> std::convertible_to<int>;
  { list[0] } -> std::convertible_to<typename G::Move>;
};

// Games whose positions have exact keys: what hashed perft, position counting and tables need.
// canonical_key(p) must be equal only for positions with the same game tree up to isomorphism
// (symmetry, colour swap); raw_key must be exact and invertible by from_key.
template <typename G>
concept KeyedGame = PerftGame<G> &&
    requires(const G& g, const typename G::Position& p, typename G::Key k) {
  { g.keys_fit() } -> std::same_as<bool>;
  { g.canonical_key(p) } -> std::same_as<typename G::Key>;
  { g.raw_key(p) } -> std::same_as<typename G::Key>;
  { g.symmetric_key(p) } -> std::same_as<typename G::Key>;
  { g.from_key(k) } -> std::same_as<typename G::Position>;
  { k.mix() } -> std::convertible_to<std::uint64_t>;
};

}  // namespace solver
