// The transposition table of proof search: exact key -> proven win or loss, with the (log2) size
// of the subtree that proved it. Values in a win/loss game without draws do not depend on depth
// or bounds, so an entry is a theorem: it can be shared by threads, saved to a checkpoint and
// loaded into another run. Full 128-bit keys are stored, so a collision can never forge a proof.
//
// A bucket of three entries and its lock fill one cache line (locked_buckets.h). When a bucket is
// full the entry with the smallest subtree is replaced: losing it costs the least work to redo.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "solver/locked_buckets.h"

namespace solver {

struct ProvenEntry {
  std::uint64_t lo, hi;  // the key
  bool win;              // for the side to move
  int work_log2;         // bit width of the node count that proved it (0..63)
};

// Bit width of a node count: the `work_log2` of an entry.
inline int work_log2(std::uint64_t nodes) {
  return std::min(63, int(std::bit_width(nodes)));
}

template <typename Key>
class ProofTable {
 public:
  explicit ProofTable(std::size_t bytes) : buckets_(bytes) {}

  std::size_t bytes() const { return buckets_.bytes(); }
  std::size_t capacity() const { return buckets_.size() * kWays; }
  std::uint64_t occupied() const { return occupied_.load(std::memory_order_relaxed); }

  struct Hit {
    bool win;  // for the side to move
    int work_log2;
  };
  // The proven value of key, if stored.
  std::optional<Hit> probe(const Key& key) {
    return buckets_.with_bucket(key.mix(), [&](const Slots& b) -> std::optional<Hit> {
      for (int i = 0; i < kWays; ++i)
        if (b.data[i] && b.lo[i] == key.lo && b.hi[i] == key.hi)
          return Hit{(b.data[i] & kWin) != 0, work_of(b.data[i])};
      return std::nullopt;
    });
  }

  // Starts loading key's bucket into the cache (locked_buckets.h), ahead of a probe.
  void prefetch(const Key& key) const { buckets_.prefetch(key.mix()); }

  // work: a work_log2, 0..63.
  void store(const Key& key, bool win, int work) {
    const std::uint8_t data = kUsed | (win ? kWin : 0) | std::uint8_t(work << kWorkShift);
    buckets_.with_bucket(key.mix(), [&](Slots& b) {
      for (int i = 0; i < kWays; ++i)
        if (b.data[i] && b.lo[i] == key.lo && b.hi[i] == key.hi) {
          b.data[i] = std::max(b.data[i], data);  // same value; keep the larger work
          return;
        }
      int victim = 0;  // an empty slot, else the one with the least work
      for (int i = 0; i < kWays && b.data[victim]; ++i)
        if (!b.data[i] || work_of(b.data[i]) < work_of(b.data[victim])) victim = i;
      if (!b.data[victim]) occupied_.fetch_add(1, std::memory_order_relaxed);
      b.lo[victim] = key.lo;
      b.hi[victim] = key.hi;
      b.data[victim] = data;
    });
  }

  // Calls visit(ProvenEntry) for every entry whose work_log2 is at least min_work, bucket by
  // bucket under its lock: safe while other threads search.
  template <typename Visit>
  void for_each(int min_work, Visit visit) {
    for (std::size_t n = 0; n < buckets_.size(); ++n) {
      ProvenEntry found[kWays];
      int count = 0;
      buckets_.with_bucket_at(n, [&](const Slots& b) {
        for (int i = 0; i < kWays; ++i)
          if (b.data[i] && work_of(b.data[i]) >= min_work)
            found[count++] = {b.lo[i], b.hi[i], (b.data[i] & kWin) != 0, work_of(b.data[i])};
      });
      for (int i = 0; i < count; ++i) visit(found[i]);  // outside the lock: visit may be slow
    }
  }

 private:
  static constexpr int kWays = 3;
  // An entry's data byte: used, win, and work_log2 (6 bits) above them.
  static constexpr std::uint8_t kUsed = 1, kWin = 2;
  static constexpr int kWorkShift = 2;
  static int work_of(std::uint8_t data) { return data >> kWorkShift; }

  struct Slots {
    std::uint64_t lo[kWays], hi[kWays];
    std::uint8_t data[kWays];  // 0 = empty
  };

  LockedBuckets<Slots> buckets_;
  std::atomic<std::uint64_t> occupied_{0};
};

}  // namespace solver
