// A move in 16 bits: a step (origin and target; a Chick's promotion is implied by its target) or
// a drop (the kind from the hand and the target).
#pragma once

#include <cstdint>

#include "rules/common/move_list.h"
#include "rules/dobutsu/position.h"

namespace dobutsu {

class Move {
 public:
  // Trivial, like a built-in: `Move m;` is unset (a MoveList is filled before it is read).
  Move() = default;
  static Move step(int from, int to) { return Move(std::uint16_t(to | from << 4)); }
  static Move drop(Kind k, int to) { return Move(std::uint16_t(to | k << 4 | kDropBit)); }

  bool is_drop() const { return bits_ & kDropBit; }
  int from() const { return (bits_ >> 4) & 15; }  // a step's origin
  Kind dropped() const { return Kind((bits_ >> 4) & 3); }
  int to() const { return bits_ & 15; }
  std::uint16_t raw() const { return bits_; }

  bool operator==(const Move&) const = default;

 private:
  static constexpr std::uint16_t kDropBit = 1 << 8;
  explicit Move(std::uint16_t bits) : bits_(bits) {}
  std::uint16_t bits_;
};

// Enough for any position: at most 3 kinds dropped on at most 10 empty squares, and steps of at
// most 8 pieces to at most 8 squares each (far fewer in fact).
using MoveList = common::FixedMoveList<Move, 96>;

// What make() changed that unmake() cannot work out from the move: what the target held, and
// whether the mover was a Chick that promoted.
struct Undo {
  Cell captured = kEmpty;
  bool promoted = false;
};

}  // namespace dobutsu
