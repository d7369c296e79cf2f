// A move in 16 bits: a drop (target only) or a step (origin and target, adjacent squares).
#pragma once

#include <cstdint>

#include "rules/common/move_list.h"

namespace teeko {

class Move {
 public:
  // Trivial, like a built-in: `Move m;` is unset (a MoveList is filled before it is read).
  Move() = default;
  static Move drop(int to) { return Move(std::uint16_t(to | kDropBit)); }
  static Move step(int from, int to) { return Move(std::uint16_t(to | from << 6)); }

  bool is_drop() const { return bits_ & kDropBit; }
  int from() const { return (bits_ >> 6) & 63; }  // a step's origin
  int to() const { return bits_ & 63; }
  std::uint16_t raw() const { return bits_; }

  bool operator==(const Move&) const = default;

 private:
  static constexpr std::uint16_t kDropBit = 1 << 12;
  explicit Move(std::uint16_t bits) : bits_(bits) {}
  std::uint16_t bits_;
};

// Enough for any position: drops go to empty squares (at most 49), and four pieces step to at
// most eight squares each.
using MoveList = common::FixedMoveList<Move, 64>;

// make() changes nothing unmake() could not work out from the move.
struct Undo {};

}  // namespace teeko
