// Children's bytes read in address order instead of as their entries find them.
//
// A big tier's children are scattered over gigabytes, and in a virtual machine a read at random
// costs a walk of the host's page tables as well as a miss, even with the reads of a few entries
// prefetched together: on the largest tier of 4x4:NBRQK the sweep's time was almost all on the
// prefetches. Here a window of entries first only locates its children, each as (address, the
// entry's slot in the window); the reads are then sorted by address (two stable counting passes
// over the top 16 bits of their span) and made in that order, so neighbouring reads share pages,
// page-table lines and DRAM rows. A child reaches its entry through the slot: the folds that use
// this (solver/outcome.h, deciding_after) do not depend on the order of the children.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace tablebase {

class AddressOrderedReads {
 public:
  // The key keeps a read's slot in its low bits and its address above them.
  static constexpr int kSlotBits = 17;
  static constexpr std::uint64_t kMostSlots = std::uint64_t{1} << kSlotBits;
  // A read's key and its copy while sorting, and at most one slot a read (an entry's, in the
  // caller's fold).
  static constexpr std::uint64_t kBytesPerRead = 2 * sizeof(std::uint64_t) + 1;

  // An entry's reads stay in one window, so a window leaves room for this many after its last
  // entry but one: more than any entry has children on the boards of up to 8x8 (5 kinds of piece
  // onto 64 squares and the captures of 16 pieces).
  static constexpr std::size_t kMostReadsAnEntry = 1024;

  // Room for `reads` reads a window (at least kMostReadsAnEntry).
  explicit AddressOrderedReads(std::size_t reads) : capacity_(std::max(reads, kMostReadsAnEntry)) {
    keys_.reserve(capacity_);
    scratch_.reserve(capacity_);
  }
  // Entries a window takes at most: one slot each.
  std::uint64_t slots() const { return std::min<std::uint64_t>(kMostSlots, capacity_); }
  // Whether the window should take no further entry, after `entries` of them.
  bool full(std::uint64_t entries) const {
    return entries >= slots() || keys_.size() + kMostReadsAnEntry > capacity_;
  }
  // Whether a byte's address fits a key: user-space addresses of x86-64 and AArch64 Linux take
  // at most 47 bits.
  static bool fits(const void* p) { return std::uintptr_t(p) >> (64 - kSlotBits) == 0; }
  void add(const std::uint8_t* byte, std::uint64_t slot) {
    keys_.push_back(std::uint64_t(std::uintptr_t(byte)) << kSlotBits | slot);
  }
  // Calls f(slot, byte) for every read added since the last call, in address order, and empties
  // the window.
  template <typename F>
  void read(const F& f) {
    sort();
    constexpr std::size_t kAhead = 16;
    const std::size_t n = keys_.size();
    for (std::size_t j = 0; j < n; ++j) {
      if (j + kAhead < n) __builtin_prefetch(address(keys_[j + kAhead]));
      f(keys_[j] & (kMostSlots - 1), *address(keys_[j]));
    }
    keys_.clear();
  }

 private:
  static const std::uint8_t* address(std::uint64_t key) {
    return reinterpret_cast<const std::uint8_t*>(std::uintptr_t(key >> kSlotBits));
  }
  // Runs of a few hundred kilobytes are enough for the pages, so only the top 16 bits are sorted.
  void sort() {
    if (keys_.size() < 2) return;
    const auto [lo, hi] = std::minmax_element(keys_.begin(), keys_.end());
    const std::uint64_t low = *lo, span = *hi - low;
    const int shift = std::max(0, 64 - __builtin_clzll(span | 1) - 16);
    scratch_.resize(keys_.size());
    for (int at = shift; at < shift + 16; at += 8) {
      std::array<std::size_t, 257> count{};
      for (const std::uint64_t k : keys_) ++count[((k - low) >> at & 255) + 1];
      for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
      for (const std::uint64_t k : keys_) scratch_[count[(k - low) >> at & 255]++] = k;
      keys_.swap(scratch_);
    }
  }

  std::size_t capacity_;
  std::vector<std::uint64_t> keys_, scratch_;
};

}  // namespace tablebase
