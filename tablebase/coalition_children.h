// The retrograde equation of the coalition values, one ply deep: every coalition's value at a
// position recomputed from its children's values as a table (or any source by position) gives
// them, the check `drop16 verify` makes of every sample. It finds a changed or mislabelled value
// wherever it is, and is the only local check a draw gets.
//
// For coalition S at a position p (coalition_game.h): finished (terminal, or no legal move), a win
// in 0 when every player left is in S, a loss in 0 when none is, else a draw; otherwise, with the
// side choosing S when the player to move is in S and the rest when not, what it wants (a win for
// S when S chooses, a loss for S when the rest does) in 1 + the least distance of the children
// giving it, else what it fears in 1 + the greatest distance when every child gives that, else a
// draw. tests/coalition_fixed_point.h sweeps the same fold to its fixed point.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

#include "solver/coalition_game.h"
#include "solver/wdl.h"

namespace tablebase {

struct CoalitionChildrenCheck {
  // By coalition (bit q for player q; the entries for none and everyone unused draws).
  std::vector<solver::WdlValue> stored, from_children;
  bool agrees() const { return stored == from_children; }
};

// `values_at(position)` gives every coalition's value there by coalition, or nullopt when the
// source does not hold it; nullopt here when it lacks p or one of its children.
template <solver::CoalitionGame G, typename ValuesAt>
std::optional<CoalitionChildrenCheck> check_coalitions_against_children(
    const G& game, const typename G::Position& p, ValuesAt&& values_at) {
  using solver::Wdl;
  auto stored = values_at(p);
  if (!stored) return std::nullopt;
  const std::uint32_t everyone = (1u << game.players()) - 1;
  CoalitionChildrenCheck out{std::move(*stored), {}};
  out.from_children.assign(everyone + 1, {Wdl::draw, 0});
  typename G::MoveList moves;
  if (!game.is_terminal(p)) game.generate(p, moves);
  if (game.is_terminal(p) || moves.size() == 0) {
    const std::uint32_t left = game.players_left(p);
    for (std::uint32_t s = 1; s < everyone; ++s)
      if (!(left & ~s))
        out.from_children[s] = {Wdl::win, 0};
      else if (!(left & s))
        out.from_children[s] = {Wdl::loss, 0};
    return out;
  }
  std::vector<std::vector<solver::WdlValue>> children;
  for (int i = 0; i < moves.size(); ++i) {
    typename G::Position child = p;
    game.make(child, moves[i]);
    auto values = values_at(child);
    if (!values) return std::nullopt;
    children.push_back(std::move(*values));
  }
  const int mover = game.player_to_move(p);
  for (std::uint32_t s = 1; s < everyone; ++s) {
    const bool s_chooses = s >> mover & 1;
    const Wdl wanted = s_chooses ? Wdl::win : Wdl::loss, feared = s_chooses ? Wdl::loss : Wdl::win;
    int quickest_wanted = INT_MAX, slowest_feared = -1;
    bool all_feared = true;
    for (const auto& c : children) {
      if (c[s].wdl == wanted) quickest_wanted = std::min(quickest_wanted, c[s].distance);
      if (c[s].wdl == feared)
        slowest_feared = std::max(slowest_feared, c[s].distance);
      else
        all_feared = false;
    }
    if (quickest_wanted != INT_MAX)
      out.from_children[s] = {wanted, quickest_wanted + 1};
    else if (all_feared)
      out.from_children[s] = {feared, slowest_feared + 1};
  }
  return out;
}

}  // namespace tablebase
