// The rank of a marked entry among a tier's marked ones (its reached bits, loopy_reach.h): what
// lets a solve hold a byte for each reached entry instead of one for each entry
// (loopy_compact.h). The bits are copied into lines of a cache line each: the count of marks
// before the line, then 448 bits, so whether an entry is marked and its rank cost one line read
// (a solve looks up its parents at random: one cache miss, not one for the bits and one for a
// separate count). 9.1% more than the bits alone.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace tablebase {

class ReachedRanks {
 public:
  static constexpr std::uint64_t kWordsPerLine = 7, kLineEntries = 64 * kWordsPerLine;

  ReachedRanks() = default;
  // From `words`, the bits of `entries` entries packed 64 to a word, lowest first.
  ReachedRanks(const std::uint64_t* words, std::uint64_t entries)
      : entries_(entries), lines_((entries + kLineEntries - 1) / kLineEntries) {
    const std::uint64_t n = (entries + 63) / 64;
    std::uint64_t count = 0;
    for (std::uint64_t l = 0; l < lines_.size(); ++l) {
      lines_[l].before = count;
      for (std::uint64_t k = 0; k < kWordsPerLine && l * kWordsPerLine + k < n; ++k) {
        lines_[l].bits[k] = words[l * kWordsPerLine + k];
        count += std::uint64_t(std::popcount(lines_[l].bits[k]));
      }
    }
    count_ = count;
  }

  std::uint64_t entries() const { return entries_; }
  std::uint64_t count() const { return count_; }  // marked entries
  bool has(std::uint64_t i) const {
    const Line& line = lines_[i / kLineEntries];
    const std::uint64_t at = i % kLineEntries;
    return line.bits[at / 64] >> (at % 64) & 1;
  }
  // The marked entries before i (i's rank when i is marked).
  std::uint64_t rank(std::uint64_t i) const {
    const Line& line = lines_[i / kLineEntries];
    const std::uint64_t at = i % kLineEntries, w = at / 64;
    std::uint64_t r = line.before;
    for (std::uint64_t k = 0; k < w; ++k) r += std::uint64_t(std::popcount(line.bits[k]));
    return r + std::uint64_t(std::popcount(line.bits[w] & ((std::uint64_t{1} << (at % 64)) - 1)));
  }
  // Asks for i's line to be brought into the cache (a rank or a look-up of it to come).
  void prefetch(std::uint64_t i) const { __builtin_prefetch(&lines_[i / kLineEntries]); }
  std::uint64_t lines() const { return lines_.size(); }
  // The marked entries before line l (l == lines(): all of them).
  std::uint64_t before_line(std::uint64_t l) const {
    return l < lines_.size() ? lines_[l].before : count_;
  }
  // body(index, rank) for each marked entry of lines [first, end), in order.
  template <typename Body>
  void for_each_marked(std::uint64_t first, std::uint64_t end, const Body& body) const {
    std::uint64_t rank = before_line(first);
    for (std::uint64_t l = first; l < end && l < lines_.size(); ++l)
      for (std::uint64_t k = 0; k < kWordsPerLine; ++k)
        for (std::uint64_t b = lines_[l].bits[k]; b; b &= b - 1)
          body(l * kLineEntries + 64 * k + std::uint64_t(std::countr_zero(b)), rank++);
  }
  std::uint64_t memory_bytes() const { return lines_.size() * sizeof(Line); }
  // What the lines of `entries` entries take.
  static std::uint64_t bytes_for(std::uint64_t entries) {
    return (entries + kLineEntries - 1) / kLineEntries * sizeof(Line);
  }

 private:
  struct alignas(64) Line {
    std::uint64_t before = 0;
    std::uint64_t bits[kWordsPerLine] = {};
  };
  std::uint64_t entries_ = 0, count_ = 0;
  std::vector<Line> lines_;
};

}  // namespace tablebase
