// A game's moves of one position in a fixed array, for games whose every position has a known
// small bound on its moves (each game states its bound and why beside its MoveList): no heap, and
// generation is a store and an increment.
#pragma once

#include <array>

namespace common {

template <typename Move, int Capacity>
class FixedMoveList {
 public:
  static constexpr int kCapacity = Capacity;
  void push(Move m) { moves_[size_++] = m; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  Move operator[](int i) const { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }

 private:
  std::array<Move, Capacity> moves_;
  int size_ = 0;
};

}  // namespace common
