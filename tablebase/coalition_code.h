// A coalition's value at a position in one byte, from the coalition's side, as the coalition tier
// solver holds it (coalition_tier_solver.h). Unlike a two-player game's (loopy_value.h), whose
// winner moves last so that a distance's parity is its value, a coalition may move twice in a
// row (its two players in turn, or one player while the others are out), so the value takes a
// bit of its own: a loss in d plies is 2d, a win 2d + 1, a draw 255. A finished position is a
// win or a loss in 0 (or a draw, in pair play); a stored one is never finished, so its distance
// is 1 or more.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "solver/wdl.h"

namespace tablebase {

using CoalitionCode = std::uint8_t;

inline constexpr CoalitionCode kCoalitionDraw = 255;
// Only while a block is solved: not decided yet.
inline constexpr CoalitionCode kCoalitionUnresolved = 254;
// An entry that is no position of the row: no value.
inline constexpr CoalitionCode kCoalitionNotInRow = 253;
inline constexpr int kMaxCoalitionDistance = 126;

inline bool coalition_decided(CoalitionCode c) {
  return c < kCoalitionNotInRow;
}

// Win or loss at `distance`; throws std::overflow_error past what a byte holds, so a longer game
// is refused instead of wrapped.
inline CoalitionCode coalition_code(bool win, int distance) {
  if (distance > kMaxCoalitionDistance)
    throw std::overflow_error("a distance to the end of " + std::to_string(distance) +
                              " plies passes the " + std::to_string(kMaxCoalitionDistance) +
                              " a coalition table holds");
  return CoalitionCode(2 * distance + (win ? 1 : 0));
}

// The same value from the other side of the split: a win becomes a loss at the same distance.
inline CoalitionCode coalition_flip(CoalitionCode c) {
  return coalition_decided(c) ? CoalitionCode(c ^ 1) : c;
}

// Throws std::logic_error for a code that is no value.
inline solver::WdlValue coalition_value(CoalitionCode c) {
  if (c == kCoalitionDraw) return {solver::Wdl::draw, 0};
  if (!coalition_decided(c)) throw std::logic_error("an entry not in the row has no value");
  return {c & 1 ? solver::Wdl::win : solver::Wdl::loss, c >> 1};
}

}  // namespace tablebase
