// A move in 16 bits: a rook move (origin, target; taking the own pawn there, if any, is implied)
// or a pawn drop (target only).
#pragma once

#include <array>
#include <cstdint>

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
class MoveList {
 public:
  static constexpr int kCapacity = 80;
  void push(Move m) { moves_[size_++] = m; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  Move operator[](int i) const { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }

 private:
  std::array<Move, kCapacity> moves_;
  int size_ = 0;
};

// What make() must remember for unmake(): whether a rook move took its own pawn, and the mover's
// block counter before the move.
struct Undo {
  bool captured = false;
  std::uint8_t inside = 0;
};

}  // namespace rookrace
