// A move in 16 bits: a drop (piece type, target square) or a capture (from, to).
#pragma once

#include <cstdint>

#include "rules/common/move_list.h"
#include "rules/drop/piece.h"

namespace drop {

class Move {
 public:
  // Trivial, like a built-in: `Move m;` is unset (a MoveList is filled before it is read, and
  // creating one must not clear its 1.6 KB), `Move{}` or `Move()` is the null move 0.
  Move() = default;
  static Move drop(PieceType t, int to) { return Move(std::uint16_t(to | (t + 1) << 12)); }
  static Move capture(int from, int to) { return Move(std::uint16_t(to | from << 6)); }

  bool is_drop() const { return bits_ >> 12; }
  PieceType dropped() const { return PieceType((bits_ >> 12) - 1); }
  int from() const { return (bits_ >> 6) & 63; }
  int to() const { return bits_ & 63; }
  std::uint16_t raw() const { return bits_; }

  bool operator==(const Move&) const = default;

 private:
  explicit Move(std::uint16_t bits) : bits_(bits) {}
  std::uint16_t bits_;
};

// Enough for any position on an 8x8 board: 5 drops a square plus 8 captures per piece.
using MoveList = common::FixedMoveList<Move, 64 * 5 + 64 * 8>;

// What make() must remember for unmake(): the piece a capture removed.
struct Undo {
  PieceType captured_type = kKnight;
  Color captured_color = kWhite;
};

}  // namespace drop
