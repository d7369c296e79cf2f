// The concurrent part of the solvers' shared hash tables (perft_table.h, proof_table.h): an array
// of buckets of one cache line each, every bucket carrying its own spin lock. The only way in is
// to run a critical section on the bucket a hash selects, under that bucket's lock, so the lock
// can never be chosen apart from the bucket: two threads are never inside one bucket at once, and
// a probe touches one cache line. The critical sections are a few loads and stores, so spinning
// costs less than sleeping would.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "solver/zeroed_array.h"

namespace solver {

// Slots: a table's entries of one bucket; all-zero bytes must mean an empty bucket, and it must
// fit in a cache line beside the lock.
template <typename Slots>
class LockedBuckets {
  static_assert(std::is_trivially_copyable_v<Slots>);

 public:
  // At most `bytes` of memory, and at least one bucket.
  explicit LockedBuckets(std::size_t bytes)
      : buckets_(std::max<std::size_t>(1, bytes / sizeof(Bucket))) {}

  std::size_t size() const { return buckets_.size(); }
  std::size_t bytes() const { return buckets_.size() * sizeof(Bucket); }

  // Returns section(Slots&) run under the lock of the bucket `hash` selects (by its high bits).
  template <typename Section>
  decltype(auto) with_bucket(std::uint64_t hash, Section&& section) {
    return with_bucket_at(index(hash), section);
  }

  // Starts loading the bucket `hash` selects into the cache, so that a search which knows the
  // keys of many children can wait for their buckets' cache misses together, not one by one.
  void prefetch(std::uint64_t hash) const { __builtin_prefetch(&buckets_[index(hash)], 1); }

  // The same for bucket number n (< size()), to visit them all.
  template <typename Section>
  decltype(auto) with_bucket_at(std::size_t n, Section&& section) {
    Bucket& b = buckets_[n];
    const Guard guard(b.lock);
    return section(b.slots);
  }

 private:
  std::size_t index(std::uint64_t hash) const {
    return std::size_t((static_cast<unsigned __int128>(hash) * size()) >> 64);
  }

  struct alignas(64) Bucket {
    std::atomic<std::uint32_t> lock;  // 0 = free
    Slots slots;
  };
  static_assert(sizeof(Bucket) == 64, "Slots must fit in a cache line beside the lock");

  struct Guard {
    explicit Guard(std::atomic<std::uint32_t>& l) : lock(l) {
      while (lock.exchange(1, std::memory_order_acquire))
        while (lock.load(std::memory_order_relaxed)) {
        }
    }
    ~Guard() { lock.store(0, std::memory_order_release); }
    std::atomic<std::uint32_t>& lock;
  };

  ZeroedArray<Bucket> buckets_;  // zero bytes are free locks and empty buckets
};

}  // namespace solver
