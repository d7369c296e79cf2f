// The coalition solver's entry point for front ends (a command, the ladder tool, a test): solve
// every position reachable from one position of any coalition game (coalition_game.h; for
// Nevsky, a variant's start), and return what answers NEVSKY.md's questions: every coalition's
// value there, the counts of the positions reached, the kingmakers, each coalition's longest
// forced win, and what the solve cost. The solver (coalition_retrograde.h) is freed on return:
// a caller that wants values of other positions keeps a CoalitionRetrograde itself.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "solver/coalition_game.h"
#include "solver/coalition_retrograde.h"
#include "solver/wdl.h"

namespace solver {

struct CoalitionSolution {
  CoalitionSolveReport report;  // counts over the positions reached, cost
  // Every coalition's value at the root, from its side: root_values[s] for coalition s (bit q for
  // player q, 0 < s < 2^players - 1; entries 0 and 2^players - 1 are unused draws).
  std::vector<WdlValue> root_values;
  // The coalitions that force a win from the root, in increasing order.
  std::vector<std::uint32_t> root_winners;
};

// Throws what CoalitionRetrograde throws (CyclicMemoryError past options.memory_bytes,
// std::invalid_argument when keys do not fit or the game has not 2 to 8 players).
template <CoalitionGame G>
CoalitionSolution solve_coalitions(const G& game, const typename G::Position& root,
                                   CoalitionSolveOptions options) {
  const CoalitionRetrograde<G> solved(game, std::span(&root, 1), options);
  CoalitionSolution out{solved.report(), {}, solved.winning_coalitions(root)};
  const std::uint32_t everyone = (1u << solved.players()) - 1;
  out.root_values.assign(everyone + 1, {Wdl::draw, 0});
  for (std::uint32_t s = 1; s < everyone; ++s) out.root_values[s] = *solved.value(root, s);
  return out;
}

}  // namespace solver
