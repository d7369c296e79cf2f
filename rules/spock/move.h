// A move in 16 bits: origin, target and the moving piece's type. The type is implied by the
// position; carrying it spares make() a lookup. A Spock move's transformation is implied too.
#pragma once

#include <cstdint>

#include "rules/common/move_list.h"
#include "rules/spock/piece.h"

namespace spock {

class Move {
 public:
  // Trivial, like a built-in: `Move m;` is unset (a MoveList is filled before it is read, and
  // creating one must not clear it), `Move{}` is the null move 0.
  Move() = default;
  Move(PieceType mover, int from, int to) : bits_(std::uint16_t(to | from << 6 | mover << 12)) {}

  int from() const { return (bits_ >> 6) & 63; }
  int to() const { return bits_ & 63; }
  PieceType mover() const { return PieceType(bits_ >> 12); }
  std::uint16_t raw() const { return bits_; }

  bool operator==(const Move&) const = default;

 private:
  std::uint16_t bits_;
};

// Enough for any position on an 8x8 board: a piece reaches at most 27 squares (a Lizard in the
// middle) and never a friend's, so k pieces have at most k * min(27, 64 - k) <= 999 moves.
using MoveList = common::FixedMoveList<Move, 1000>;

// What make() must remember for unmake(): the piece on the target square, if any.
struct Undo {
  bool captured = false;
  PieceType captured_type = kRock;
  Color captured_color = kBlue;
};

}  // namespace spock
