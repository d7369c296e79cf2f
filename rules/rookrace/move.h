// A move in 16 bits: a rook move (origin, target; taking the own pawn there, if any, is implied)
// or a pawn drop (target only).
#pragma once

#include <cstdint>

#include "rules/common/move_list.h"

namespace rookrace {

class Move {
 public:
  // Trivial, like a built-in: `Move m;` is unset (a MoveList is filled before it is read).
  Move() = default;
  static Move rook(int from, int to) { return Move(std::uint16_t(to | from << 6)); }
  static Move drop(int to) { return Move(std::uint16_t(to | kDropBit)); }

  bool is_drop() const { return bits_ & kDropBit; }
  int from() const { return (bits_ >> 6) & 63; }  // a rook move's origin
  int to() const { return bits_ & 63; }
  std::uint16_t raw() const { return bits_; }

  bool operator==(const Move&) const = default;

 private:
  static constexpr std::uint16_t kDropBit = 1 << 12;
  explicit Move(std::uint16_t bits) : bits_(bits) {}
  std::uint16_t bits_;
};

// Enough for any position: a rook reaches at most 14 squares, and drops go to empty squares.
using MoveList = common::FixedMoveList<Move, 80>;

// What make() must remember for unmake(): whether a rook move took its own pawn, and the mover's
// block counter before the move.
struct Undo {
  bool captured = false;
  std::uint8_t inside = 0;
};

}  // namespace rookrace
