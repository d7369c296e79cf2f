// The move (or chance) list of the tests' toy games: up to kCapacity items in place, what the
// solvers' MoveList concept asks (clear, push, size, empty, operator[]).
#pragma once

namespace test_support {

template <typename T, int Capacity>
class FixedList {
 public:
  static constexpr int kCapacity = Capacity;
  void clear() { size_ = 0; }
  void push(T x) { items_[size_++] = x; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](int i) const { return items_[i]; }

 private:
  T items_[kCapacity];
  int size_ = 0;
};

}  // namespace test_support
