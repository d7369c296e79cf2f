// A contiguous range of a tier's entries, and copying entries of one between arrays that hold
// them packed (a DTE byte or a value bit an entry, LSB first in 64-bit words).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>

namespace tablebase {

struct IndexRange {
  std::uint64_t begin = 0, end = 0;
};

inline IndexRange intersection(IndexRange a, IndexRange b) {
  const std::uint64_t begin = std::max(a.begin, b.begin);
  return {begin, std::max(begin, std::min(a.end, b.end))};
}

// Copies entries `range`, `entry_bits` each (8 or 1), from `from`, whose first word holds entry
// `from_first` (a multiple of 64), to `to`, which holds the tier from entry 0; the other entries
// of `to`, also those sharing a word with the range, keep theirs.
inline void copy_entries(std::span<const std::uint64_t> from, std::uint64_t from_first,
                         std::span<std::uint64_t> to, IndexRange range, int entry_bits) {
  if (range.begin >= range.end) return;
  if (entry_bits == 8) {
    std::memcpy(reinterpret_cast<char*>(to.data()) + range.begin,
                reinterpret_cast<const char*>(from.data()) + (range.begin - from_first),
                range.end - range.begin);
    return;
  }
  for (std::uint64_t w = range.begin / 64; w * 64 < range.end; ++w) {
    const std::uint64_t lo = std::max(range.begin, w * 64) - w * 64;
    const std::uint64_t hi = std::min(range.end, w * 64 + 64) - w * 64;
    const std::uint64_t mask =
        (hi - lo == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (hi - lo)) - 1) << lo;
    to[w] = (to[w] & ~mask) | (from[w - from_first / 64] & mask);
  }
}

}  // namespace tablebase
