// Distinct positions after each ply, by breadth-first search over exact keys. With raw_key every
// position counts; with symmetric_key mirror images count once. Each ply's set lives in sharded
// hash sets whose memory is accounted before every growth, so the search stops cleanly (with the
// plies it finished) instead of overrunning the user's memory cap.
#pragma once

#include <absl/container/flat_hash_set.h>
#include <tbb/blocked_range.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "solver/game_concept.h"
#include "solver/parallel_for.h"
#include "solver/progress.h"

namespace solver {

struct DistinctCounts {
  std::vector<std::uint64_t> per_ply;  // per_ply[d] = positions after d plies; per_ply[0] = 1
  bool complete = true;                // false: stopped by the memory cap at ply per_ply.size()
  std::uint64_t memory_needed_lower_bound = 0;  // bytes, when stopped
};

class MemoryCapReached : public std::exception {
 public:
  const char* what() const noexcept override { return "memory cap reached"; }
};

template <typename Key>
class ShardedKeySet {
 public:
  static constexpr int kShards = 256;
  explicit ShardedKeySet(std::atomic<std::uint64_t>& bytes, std::uint64_t cap)
      : shards_(kShards), bytes_(bytes), cap_(cap) {}

  // Inserts a batch of keys, taking each shard's lock once for all of its keys.
  void insert(std::vector<Key>& keys) {
    std::sort(keys.begin(), keys.end(),
              [](const Key& a, const Key& b) { return shard_of(a) < shard_of(b); });
    for (std::size_t i = 0; i < keys.size();) {
      Shard& s = shards_[shard_of(keys[i])];
      std::lock_guard lock(s.mutex);
      for (const int shard = shard_of(keys[i]); i < keys.size() && shard_of(keys[i]) == shard; ++i)
        insert_locked(s, keys[i]);
    }
    keys.clear();
  }

  std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& s : shards_) n += s.set.size();
    return n;
  }

  // Moves every key into a vector, freeing each shard as it goes.
  std::vector<Key> drain() {
    std::vector<Key> out;
    out.reserve(size());
    for (auto& s : shards_) {
      out.insert(out.end(), s.set.begin(), s.set.end());
      bytes_ -= s.set.capacity() * kSlotBytes;
      absl::flat_hash_set<Key>().swap(s.set);
    }
    return out;
  }

 private:
  static constexpr std::uint64_t kSlotBytes = sizeof(Key) + 1;
  static int shard_of(const Key& k) { return int(k.mix() >> 56); }
  struct Shard {
    std::mutex mutex;
    absl::flat_hash_set<Key> set;
  };
  void insert_locked(Shard& s, const Key& k) {
    const std::size_t before = s.set.capacity();
    // absl doubles a full table (7/8 load); while it rehashes, old and new arrays both live.
    if (s.set.size() + 1 > before - before / 8 &&
        bytes_.load() + (2 * before + 1) * kSlotBytes > cap_)
      throw MemoryCapReached();
    s.set.insert(k);
    bytes_ += (s.set.capacity() - before) * kSlotBytes;
  }

  std::vector<Shard> shards_;
  std::atomic<std::uint64_t>& bytes_;
  std::uint64_t cap_;
};

// Counts plies 1..max_ply. key_of is game.raw_key or game.symmetric_key (anything whose from_key
// gives a position with the same successors up to that key's equivalence).
template <KeyedGame G, typename KeyOf>
DistinctCounts count_distinct_positions(const G& game, const typename G::Position& root,
                                        int max_ply, std::uint64_t memory_bytes, int threads,
                                        bool show_progress, KeyOf key_of) {
  using Key = typename G::Key;
  DistinctCounts result;
  result.per_ply.push_back(1);
  std::atomic<std::uint64_t> bytes{0};
  std::vector<Key> level{key_of(root)};
  bytes += sizeof(Key);
  tbb::task_arena arena(threads);
  for (int ply = 1; ply <= max_ply && !level.empty(); ++ply) {
    ShardedKeySet<Key> next(bytes, memory_bytes);
    Progress progress("positions at ply " + std::to_string(ply), level.size(), "parents",
                      show_progress);
    try {
      arena.execute([&] {
        solver::parallel_for(tbb::blocked_range<std::size_t>(0, level.size(), 256),
                             [&](auto range) {
                               typename G::MoveList moves;
                               std::vector<Key> children;
                               for (std::size_t i = range.begin(); i != range.end(); ++i) {
                                 auto p = game.from_key(level[i]);
                                 game.generate(p, moves);
                                 for (int m = 0; m < moves.size(); ++m) {
                                   const auto undo = game.make(p, moves[m]);
                                   children.push_back(key_of(p));
                                   game.unmake(p, moves[m], undo);
                                 }
                               }
                               next.insert(children);
                               progress.advance(range.size());
                               progress.add_to_rate(range.size());
                             });
      });
    } catch (const MemoryCapReached&) {
      result.complete = false;
      result.memory_needed_lower_bound = bytes.load() + next.size() * sizeof(Key);
      return result;
    }
    bytes -= level.size() * sizeof(Key);
    std::vector<Key>().swap(level);
    level = next.drain();
    bytes += level.size() * sizeof(Key);
    result.per_ply.push_back(level.size());
  }
  while (int(result.per_ply.size()) <= max_ply) result.per_ply.push_back(0);
  return result;
}

}  // namespace solver
