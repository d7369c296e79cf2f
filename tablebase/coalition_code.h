// A coalition's value at a position, from the coalition's side, as the coalition tier solver
// holds it (coalition_tier_solver.h), in a byte or, for rows with longer forced results, two.
// Unlike a two-player game's (loopy_value.h), whose winner moves last so that a distance's parity
// is its value, a coalition may move twice in a row (its two players in turn, or one player while
// the others are out), so the value takes a bit of its own: a loss in d plies is 2d, a win
// 2d + 1, a draw the code's largest value, and the two below it mark what is no value. A finished
// position is a win or a loss in 0 (or a draw, in pair play); a stored one is never finished, so
// its distance is 1 or more.
//
// Why two widths: the free-for-all rows end within a byte's 125 plies, and a byte an entry and
// split is most of what a solve holds; pair play has forced results longer than that. A solve
// starts in bytes and, when a distance passes them, goes on in two bytes, reading the tiers it
// wrote in bytes as they are (coalition_code_from_record).
#pragma once

#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "solver/wdl.h"

namespace tablebase {

// A byte: most rows. Two bytes: rows with results past kMaxCoalitionDistance<CoalitionCode>.
using CoalitionCode = std::uint8_t;
using WideCoalitionCode = std::uint16_t;

template <typename Code>
concept CoalitionCodeWidth =
    std::same_as<Code, CoalitionCode> || std::same_as<Code, WideCoalitionCode>;

template <CoalitionCodeWidth Code>
inline constexpr Code kCoalitionDraw = Code(~Code{0});
// Only while a block is solved: not decided yet.
template <CoalitionCodeWidth Code>
inline constexpr Code kCoalitionUnresolved = Code(kCoalitionDraw<Code> - 1);
// An entry that is no position of the row: no value.
template <CoalitionCodeWidth Code>
inline constexpr Code kCoalitionNotInRow = Code(kCoalitionDraw<Code> - 2);
// The longest distance a code holds: its win, 2d + 1, stays below the marks.
template <CoalitionCodeWidth Code>
inline constexpr int kMaxCoalitionDistance = (kCoalitionNotInRow<Code> - 2) / 2;

// A distance past what the codes hold (or a file of wider codes than asked): the solve goes on
// in wider codes where there are any, else the row is refused.
class CoalitionCodesTooNarrow : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

template <CoalitionCodeWidth Code>
bool coalition_decided(Code c) {
  return c < kCoalitionNotInRow<Code>;
}

// Win or loss at `distance`; throws CoalitionCodesTooNarrow past what Code holds, so a longer
// game is refused (or solved in wider codes) instead of wrapped.
template <CoalitionCodeWidth Code>
Code coalition_code(bool win, int distance) {
  if (distance > kMaxCoalitionDistance<Code>)
    throw CoalitionCodesTooNarrow(
        "a distance to the end of " + std::to_string(distance) + " plies passes the " +
        std::to_string(kMaxCoalitionDistance<Code>) + " coalition codes of " +
        std::to_string(sizeof(Code)) + (sizeof(Code) == 1 ? " byte" : " bytes") + " hold");
  return Code(2 * distance + (win ? 1 : 0));
}

// The same value from the other side of the split: a win becomes a loss at the same distance.
template <CoalitionCodeWidth Code>
Code coalition_flip(Code c) {
  return coalition_decided(c) ? Code(c ^ 1) : c;
}

// Throws std::logic_error for a code that is no value.
template <CoalitionCodeWidth Code>
solver::WdlValue coalition_value(Code c) {
  if (c == kCoalitionDraw<Code>) return {solver::Wdl::draw, 0};
  if (!coalition_decided(c)) throw std::logic_error("an entry not in the row has no value");
  return {c & 1 ? solver::Wdl::win : solver::Wdl::loss, int(c >> 1)};
}

// A code of another width as `To` holds it (its marks kept marks); throws
// CoalitionCodesTooNarrow for a distance `To` cannot hold.
template <CoalitionCodeWidth To, CoalitionCodeWidth From>
To coalition_recode(From c) {
  if (c >= kCoalitionNotInRow<From>)
    return To(kCoalitionNotInRow<To> + (c - kCoalitionNotInRow<From>));
  return coalition_code<To>(c & 1, int(c >> 1));
}

// A record of a tier file (8 or 16 bits, coalition_tier_files.h) as `Code`.
template <CoalitionCodeWidth Code>
Code coalition_code_from_record(std::uint32_t record, std::uint32_t bits) {
  return bits == 8 ? coalition_recode<Code>(CoalitionCode(record))
                   : coalition_recode<Code>(WideCoalitionCode(record));
}

}  // namespace tablebase
