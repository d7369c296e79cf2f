// A hash map that refuses to grow past a memory cap: the transposition tables of the forward
// searches, which would otherwise grow until the machine swaps. The caller learns of a full table
// by SearchMemoryError and decides (stop, or clear and go on: the entries are exact, only time is
// lost).
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace solver {

// The transposition table would outgrow the memory cap the solver was given.
class SearchMemoryError : public std::runtime_error {
 public:
  explicit SearchMemoryError(const std::string& what) : std::runtime_error(what) {}
};

template <typename Key, typename Value>
class CappedMap {
 public:
  explicit CappedMap(std::uint64_t memory_bytes) : memory_bytes_(memory_bytes) {}

  const Value* find(const Key& key) const {
    const auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  // The entry of key, made (value-initialised) if new; throws SearchMemoryError instead of growing
  // past the cap.
  Value& operator[](const Key& key) {
    if (const auto it = map_.find(key); it != map_.end()) return it->second;
    reserve_one();
    return map_[key];
  }

  std::uint64_t size() const { return map_.size(); }
  std::uint64_t bytes() const { return map_.capacity() * kSlotBytes; }
  // Forgets every entry and frees the memory.
  void clear() { map_ = decltype(map_)(); }

 private:
  // One control byte per slot besides the (key, value) pair.
  static constexpr std::uint64_t kSlotBytes = sizeof(std::pair<const Key, Value>) + 1;

  // absl grows a full table (7/8 load) by doubling, old and new arrays alive together: refuse
  // that growth when it would pass the cap.
  void reserve_one() {
    const std::uint64_t capacity = map_.capacity();
    if (map_.size() + 1 <= capacity - capacity / 8) return;
    if ((3 * capacity + 1) * kSlotBytes > memory_bytes_)
      throw SearchMemoryError("forward search needs more than " +
                              std::to_string(memory_bytes_ >> 20) + " MB for its table after " +
                              std::to_string(map_.size()) + " positions");
  }

  std::uint64_t memory_bytes_;
  absl::flat_hash_map<Key, Value> map_;
};

}  // namespace solver
