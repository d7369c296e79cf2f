// The transposition table of hashed perft: (exact key, remaining depth) -> subtree count.
// Full 128-bit keys are stored and compared, so a hash collision can never change a count; when
// the table is full, entries are replaced (deepest kept first), which costs time, never exactness.
// A bucket of two entries and its lock fill one cache line (locked_buckets.h), so threads share
// the table without ever reading an entry half written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "solver/locked_buckets.h"

namespace solver {

template <typename Key>
class PerftTable {
 public:
  // Uses at most `bytes` of memory (at least one bucket).
  explicit PerftTable(std::size_t bytes) : buckets_(bytes) {}

  std::size_t bytes() const { return buckets_.bytes(); }

  std::optional<std::uint64_t> probe(const Key& key, int depth) {
    return buckets_.with_bucket(key.mix(), [&](const Slots& s) -> std::optional<std::uint64_t> {
      for (int i = 0; i < kWays; ++i)
        if (s.depth[i] == std::uint32_t(depth) && s.lo[i] == key.lo && s.hi[i] == key.hi)
          return s.count[i];
      return std::nullopt;
    });
  }

  void store(const Key& key, int depth, std::uint64_t count) {
    buckets_.with_bucket(key.mix(), [&](Slots& s) {
      // Entry 0 keeps the deepest (costliest) result; entry 1 always takes the newest.
      int i = 1;
      if (std::uint32_t(depth) >= s.depth[0]) {
        s.move(0, 1);
        i = 0;
      }
      s.lo[i] = key.lo;
      s.hi[i] = key.hi;
      s.count[i] = count;
      s.depth[i] = std::uint32_t(depth);
    });
  }

 private:
  static constexpr int kWays = 2;
  struct Slots {
    std::uint64_t lo[kWays], hi[kWays], count[kWays];
    std::uint32_t depth[kWays];  // 0 = empty; perft stores only depth >= 3
    void move(int from, int to) {
      lo[to] = lo[from];
      hi[to] = hi[from];
      count[to] = count[from];
      depth[to] = depth[from];
    }
  };

  LockedBuckets<Slots> buckets_;
};

}  // namespace solver
