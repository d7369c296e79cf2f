// The transposition table of hashed perft: (exact key, remaining depth) -> subtree count.
// Full 128-bit keys are stored and compared, so a hash collision can never change a count; when
// the table is full, entries are replaced (deepest kept first), which costs time, never exactness.
// Buckets of two 32-byte entries fill one cache line; a striped spinlock guards each bucket
// (contention on a few cores is negligible, and a torn entry is impossible).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "solver/zeroed_array.h"

namespace solver {

template <typename Key>
class PerftTable {
 public:
  // Uses at most `bytes` of memory (at least one bucket).
  explicit PerftTable(std::size_t bytes)
      : buckets_(std::max<std::size_t>(1, bytes / sizeof(Bucket))), locks_(new Spinlock[kLocks]) {}

  std::size_t bytes() const { return buckets_.size() * sizeof(Bucket); }

  std::optional<std::uint64_t> probe(const Key& key, int depth) {
    const std::uint64_t h = key.mix();
    Bucket& b = bucket(h);
    Guard guard(lock(h));
    for (const Entry& e : b.entries)
      if (e.depth == std::uint32_t(depth) && e.lo == key.lo && e.hi == key.hi) return e.count;
    return std::nullopt;
  }

  void store(const Key& key, int depth, std::uint64_t count) {
    const std::uint64_t h = key.mix();
    Bucket& b = bucket(h);
    Guard guard(lock(h));
    const Entry fresh{key.lo, key.hi, count, std::uint32_t(depth), 0};
    // Entry 0 keeps the deepest (costliest) result; entry 1 always takes the newest.
    if (std::uint32_t(depth) >= b.entries[0].depth) {
      b.entries[1] = b.entries[0];
      b.entries[0] = fresh;
    } else {
      b.entries[1] = fresh;
    }
  }

 private:
  struct Entry {
    std::uint64_t lo, hi, count;
    std::uint32_t depth;  // 0 = empty; perft stores only depth >= 3
    std::uint32_t unused;
  };
  struct alignas(64) Bucket {
    Entry entries[2];
  };
  struct alignas(64) Spinlock {
    std::atomic_flag flag;
  };
  struct Guard {
    explicit Guard(Spinlock& l) : lock(l) {
      while (lock.flag.test_and_set(std::memory_order_acquire))
        while (lock.flag.test(std::memory_order_relaxed)) {
        }
    }
    ~Guard() { lock.flag.clear(std::memory_order_release); }
    Spinlock& lock;
  };
  static constexpr std::size_t kLocks = 1024;

  Bucket& bucket(std::uint64_t h) {
    return buckets_[std::size_t((static_cast<unsigned __int128>(h) * buckets_.size()) >> 64)];
  }
  Spinlock& lock(std::uint64_t h) { return locks_[h & (kLocks - 1)]; }

  ZeroedArray<Bucket> buckets_;  // zero bytes are empty buckets
  std::unique_ptr<Spinlock[]> locks_;
};

}  // namespace solver
