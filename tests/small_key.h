// The key of the toy games in tests/ (graph, dice race, three-player nim, ring): two small numbers,
// exact, so a table keyed on it has no collisions, and hashed cheaply, as the games' positions are
// few. Each game says what lo and hi hold.
#pragma once

#include <compare>
#include <cstdint>
#include <utility>

namespace test_support {

struct SmallKey {
  std::uint64_t lo = 0, hi = 0;
  std::uint64_t mix() const { return lo * 0x9E3779B97F4A7C15ull + hi; }
  friend bool operator==(const SmallKey&, const SmallKey&) = default;
  friend auto operator<=>(const SmallKey&, const SmallKey&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const SmallKey& k) {
    return H::combine(std::move(h), k.lo, k.hi);
  }
};

}  // namespace test_support
