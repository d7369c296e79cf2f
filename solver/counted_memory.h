// The memory of the in-memory retrograde solvers (cyclic_retrograde.h, coalition_retrograde.h),
// counted against a cap before each allocation, so that a solve too big for --memory stops with a
// message naming the numbers instead of swapping. What is counted is what the solvers' arrays
// and hash map hold (their capacities), not the process's resident memory: the caller keeps its
// own inputs out of the cap.
//
// Every growth is taken before it happens and given back when freed; a vector grows by doubling,
// old and new arrays held together while it moves, as std::vector does. The first take that would
// pass the cap throws CyclicMemoryError; peak() is the most held at once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/size_text.h"

namespace solver {

// The exploration or the solve would pass the memory cap; the message says how far it got.
class CyclicMemoryError : public std::runtime_error {
 public:
  explicit CyclicMemoryError(const std::string& what) : std::runtime_error(what) {}
};

class CountedMemory {
 public:
  // `who` opens the refusal's message ("cyclic retrograde needs more than ...").
  CountedMemory(std::uint64_t cap_bytes, std::string who) : cap_(cap_bytes), who_(std::move(who)) {}
  CountedMemory(const CountedMemory&) = delete;
  CountedMemory& operator=(const CountedMemory&) = delete;

  // What the refusal says of the work done when it comes (" at N positions and L links"); set by
  // the one who does the work, and called only when refusing.
  void describe_progress(std::function<std::string()> where) { where_ = std::move(where); }

  void take(std::uint64_t bytes, const char* what) {
    if (held_ + bytes > cap_)
      throw CyclicMemoryError(who_ + " needs more than the memory cap of " + size_text(cap_) +
                              ": " + size_text(held_) + " held" + (where_ ? where_() : "") +
                              ", and " + what + " would take " + size_text(bytes) + " more");
    held_ += bytes;
    peak_ = std::max(peak_, held_);
  }
  void give(std::uint64_t bytes) { held_ -= bytes; }

  // Makes room for one more element, doubling the array (old and new held while it moves).
  template <typename T>
  void make_room(std::vector<T>& v, const char* what) {
    if (v.size() < v.capacity()) return;
    const std::size_t old = v.capacity();
    const std::size_t grown = std::max<std::size_t>(2 * old, 1024);
    take(grown * sizeof(T), what);
    v.reserve(grown);
    give(old * sizeof(T));
  }
  // Frees a counted array.
  template <typename T>
  void release(std::vector<T>& v) {
    give(v.capacity() * sizeof(T));
    std::vector<T>().swap(v);
  }
  // A counted array of n elements, each `fill`.
  template <typename T>
  std::vector<T> counted(std::size_t n, T fill, const char* what) {
    take(n * sizeof(T), what);
    return std::vector<T>(n, fill);
  }

  std::uint64_t held() const { return held_; }
  std::uint64_t peak() const { return peak_; }

 private:
  std::uint64_t cap_, held_ = 0, peak_ = 0;
  std::string who_;
  std::function<std::string()> where_;
};

}  // namespace solver
