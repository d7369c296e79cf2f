// A move: the cell the piece starts on, the cell it ends on, and the set of checkers it captured.
// NEVSKY.md's "one move": capture routes that agree on these three are one move, so the route
// itself is not part of it (notation.h prints one canonical route). A step is a move that
// captures nothing. Whether the piece is a king, and whether a man is crowned, follow from the
// position.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rules/nevsky/bitboard.h"
#include "rules/nevsky/position.h"

namespace nevsky {

class Move {
 public:
  // Trivial, like a built-in: `Move m;` is unset (a MoveList is filled before it is read).
  Move() = default;
  static Move step(int from, int to) { return Move(from, to, 0); }
  static Move capture(int from, int to, Bitboard captured) { return Move(from, to, captured); }

  int from() const { return from_; }
  int to() const { return to_; }
  Bitboard captured() const { return captured_; }
  bool is_capture() const { return captured_ != 0; }

  bool operator==(const Move&) const = default;

 private:
  Move(int from, int to, Bitboard captured)
      : captured_(captured), from_(std::uint8_t(from)), to_(std::uint8_t(to)) {}
  Bitboard captured_;
  std::uint8_t from_, to_;
};

// The moves of a position. Almost every position has fewer than kInline moves, kept in place;
// the rest (many kings, or a man with many capture routes on a crowded 8x8 grid, which no fixed
// bound covers) go to the heap, so no position overflows the list.
class MoveList {
 public:
  static constexpr int kInline = 128;

  void push(Move m) {
    if (size_ < kInline)
      inline_[size_] = m;
    else
      spill_.push_back(m);
    ++size_;
  }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { truncate(0); }
  // Keeps the first n moves.
  void truncate(int n) {
    size_ = n;
    if (!spill_.empty()) spill_.resize(std::size_t(n > kInline ? n - kInline : 0));
  }
  Move operator[](int i) const { return i < kInline ? inline_[i] : spill_[i - kInline]; }

  class Iterator {
   public:
    Iterator(const MoveList* list, int i) : list_(list), i_(i) {}
    Move operator*() const { return (*list_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const Iterator&) const = default;

   private:
    const MoveList* list_;
    int i_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size_}; }

 private:
  std::array<Move, kInline> inline_;
  std::vector<Move> spill_;
  int size_ = 0;
};

// What make() must remember for unmake(): the whole position before the move. A move may take
// checkers of three players, crown a man and take a blocked player's checkers off the board, and
// the position is only nine words, so keeping it is simpler and no slower than a diff.
using Undo = Position;

}  // namespace nevsky
