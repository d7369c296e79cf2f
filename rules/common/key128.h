// A position key of 128 bits, shared by the rule sets whose positions pack exactly into 128 bits
// (each game's own key.h says how). Exact, so it can key a table without any risk of collisions.
#pragma once

#include <compare>
#include <cstdint>
#include <utility>

namespace common {

struct Key {
  std::uint64_t lo = 0, hi = 0;

  // Ordered as the 128-bit number hi:lo, the order the least-image computation uses.
  friend auto operator<=>(const Key& a, const Key& b) {
    return a.hi != b.hi ? a.hi <=> b.hi : a.lo <=> b.lo;
  }
  friend bool operator==(const Key&, const Key&) = default;

  template <typename H>
  friend H AbslHashValue(H h, const Key& k) {
    return H::combine(std::move(h), k.lo, k.hi);
  }
  // A well-mixed 64-bit hash for open-addressed tables of our own.
  std::uint64_t mix() const {
    std::uint64_t x = lo ^ (hi * 0x9E3779B97F4A7C15ull);
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ull;
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ull;
    return x ^ (x >> 32);
  }
};

using Key128 = unsigned __int128;
inline Key to_key(Key128 v) {
  return Key{std::uint64_t(v), std::uint64_t(v >> 64)};
}
inline Key128 from_key(Key k) {
  return Key128(k.hi) << 64 | k.lo;
}

}  // namespace common
