// The bounded table of df-pn (dfpn_search.h): the proof and disproof numbers of positions not yet
// decided, keyed exactly, with the number of nodes searched below each so far. These numbers are
// estimates that only guide the search (a lost or stale entry costs time, never a wrong value);
// decided positions go to the exact ProofTable instead.
//
// Two entries and the bucket's lock fill a cache line (locked_buckets.h). A new entry always gets
// in; when its bucket is full it replaces the entry with the least work, so the roots of large
// unfinished subtrees, which are the costliest to rebuild, stay.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "solver/locked_buckets.h"

namespace solver {

template <typename Key>
class DfpnTable {
 public:
  explicit DfpnTable(std::size_t bytes) : buckets_(bytes) {}

  std::size_t bytes() const { return buckets_.bytes(); }
  std::size_t capacity() const { return buckets_.size() * kWays; }
  std::uint64_t occupied() const { return occupied_.load(std::memory_order_relaxed); }

  struct Numbers {
    std::uint32_t phi, delta;  // proof and disproof number for the side to move
  };
  std::optional<Numbers> probe(const Key& key) {
    return buckets_.with_bucket(key.mix(), [&](const Slots& b) -> std::optional<Numbers> {
      for (int i = 0; i < kWays; ++i)
        if (b.work[i] && b.lo[i] == key.lo && b.hi[i] == key.hi)
          return Numbers{b.phi[i], b.delta[i]};
      return std::nullopt;
    });
  }

  // Starts loading key's bucket into the cache (locked_buckets.h), ahead of a probe.
  void prefetch(const Key& key) const { buckets_.prefetch(key.mix()); }

  // Sets key's numbers and adds `work` (> 0, the nodes this visit searched) to its total.
  void store(const Key& key, Numbers n, std::uint32_t work) {
    buckets_.with_bucket(key.mix(), [&](Slots& b) {
      int victim = -1;
      for (int i = 0; i < kWays; ++i)
        if (b.work[i] && b.lo[i] == key.lo && b.hi[i] == key.hi) victim = i;
      if (victim >= 0) {
        work = saturated_sum(work, b.work[victim]);
      } else {
        victim = 0;  // an empty slot, else the one with the least work
        for (int i = 0; i < kWays && b.work[victim]; ++i)
          if (!b.work[i] || b.work[i] < b.work[victim]) victim = i;
        if (!b.work[victim]) occupied_.fetch_add(1, std::memory_order_relaxed);
      }
      b.lo[victim] = key.lo;
      b.hi[victim] = key.hi;
      b.phi[victim] = n.phi;
      b.delta[victim] = n.delta;
      b.work[victim] = std::max<std::uint32_t>(work, 1);
    });
  }

  // Removes key (decided now, so its numbers are of no more use); returns its work, 0 if absent.
  std::uint32_t erase(const Key& key) {
    return buckets_.with_bucket(key.mix(), [&](Slots& b) -> std::uint32_t {
      for (int i = 0; i < kWays; ++i)
        if (b.work[i] && b.lo[i] == key.lo && b.hi[i] == key.hi) {
          const std::uint32_t work = b.work[i];
          b.work[i] = 0;
          occupied_.fetch_sub(1, std::memory_order_relaxed);
          return work;
        }
      return 0;
    });
  }

  static std::uint32_t saturated_sum(std::uint32_t a, std::uint32_t b) {
    return std::uint32_t(std::min<std::uint64_t>(std::uint64_t(a) + b, UINT32_MAX));
  }

 private:
  static constexpr int kWays = 2;
  struct Slots {
    std::uint64_t lo[kWays], hi[kWays];
    std::uint32_t phi[kWays], delta[kWays];
    std::uint32_t work[kWays];  // 0 = empty slot
  };

  LockedBuckets<Slots> buckets_;
  std::atomic<std::uint64_t> occupied_{0};
};

}  // namespace solver
