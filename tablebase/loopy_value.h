// A solved position of a game with draws in one byte, as the loopy tier solver holds it: its
// distance to the end in plies, whose parity is the value (the winner moves last, so wins are odd
// and losses even, as in solver/outcome.h), or a mark for a draw, which has no distance. The byte
// is what solver/wdl.h's WdlValue says, in an eighth of its room; a tier in memory is an array of
// them. A solve of only the entries play reaches (LoopySolveOptions::solve_reached_only) leaves
// the others "not in the row": a code that is no value, which readers report as a position the
// tables do not hold.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "solver/wdl.h"

namespace tablebase {

using LoopyCode = std::uint8_t;

inline constexpr LoopyCode kLoopyDraw = 255;
// Only while a block is being solved: not decided yet.
inline constexpr LoopyCode kLoopyUnresolved = 254;
// An entry play does not reach, left unsolved: no value.
inline constexpr LoopyCode kLoopyNotInRow = 253;
inline constexpr int kMaxLoopyDistance = 252;

inline bool loopy_in_row(LoopyCode code) {
  return code != kLoopyNotInRow;
}

// Throws std::logic_error for kLoopyNotInRow, which has no value (callers ask loopy_in_row first).
inline solver::WdlValue loopy_value(LoopyCode code) {
  if (code == kLoopyNotInRow) throw std::logic_error("an entry not in the row has no value");
  if (code == kLoopyDraw) return {solver::Wdl::draw, 0};
  return {code & 1 ? solver::Wdl::win : solver::Wdl::loss, int(code)};
}

inline LoopyCode loopy_code(solver::WdlValue v) {
  return v.wdl == solver::Wdl::draw ? kLoopyDraw : LoopyCode(v.distance);
}

// The code of a win or loss at `distance`; throws std::overflow_error past the longest a byte
// holds, so a game longer than that is refused instead of wrapped.
inline LoopyCode loopy_decided(int distance) {
  if (distance > kMaxLoopyDistance)
    throw std::overflow_error("a distance to the end of " + std::to_string(distance) +
                              " plies passes the " + std::to_string(kMaxLoopyDistance) +
                              " a loopy table holds");
  return LoopyCode(distance);
}

// Tallies of values: over a tier, a table or the positions reached from the roots. Entries not
// in the row are counted apart (not_in_row), as no value.
struct LoopyTally {
  std::uint64_t positions = 0, wins = 0, draws = 0, losses = 0;
  std::uint64_t not_in_row = 0;
  int longest_win = 0, longest_loss = 0;

  void add(LoopyCode code) {
    if (!loopy_in_row(code)) {
      ++not_in_row;
      return;
    }
    ++positions;
    if (code == kLoopyDraw) {
      ++draws;
    } else if (code & 1) {
      ++wins;
      if (code > longest_win) longest_win = code;
    } else {
      ++losses;
      if (code > longest_loss) longest_loss = code;
    }
  }
  void add(const LoopyTally& o) {
    positions += o.positions;
    wins += o.wins;
    draws += o.draws;
    losses += o.losses;
    not_in_row += o.not_in_row;
    if (o.longest_win > longest_win) longest_win = o.longest_win;
    if (o.longest_loss > longest_loss) longest_loss = o.longest_loss;
  }
  bool operator==(const LoopyTally&) const = default;
};

}  // namespace tablebase
