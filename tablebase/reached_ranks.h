// The rank of a marked entry among a tier's marked ones (its reached bits, loopy_reach.h): what
// lets a solve hold a byte for each reached entry instead of one for each entry
// (loopy_compact.h). A count of the marks before every 512 entries, so a rank costs that count
// and at most eight popcounts: an eighth of a bit an entry.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace tablebase {

class ReachedRanks {
 public:
  static constexpr std::uint64_t kWordsPerCount = 8;

  ReachedRanks() = default;
  // `words` (the bits of `entries` entries) must outlive this and not change.
  ReachedRanks(const std::uint64_t* words, std::uint64_t entries)
      : words_(words), entries_(entries) {
    const std::uint64_t n = (entries + 63) / 64;
    before_.resize(n / kWordsPerCount + 2);
    std::uint64_t count = 0;
    for (std::uint64_t w = 0; w < n; ++w) {
      if (w % kWordsPerCount == 0) before_[w / kWordsPerCount] = count;
      count += std::uint64_t(std::popcount(words[w]));
    }
    before_[(n + kWordsPerCount - 1) / kWordsPerCount] = count;
    count_ = count;
  }

  std::uint64_t entries() const { return entries_; }
  std::uint64_t count() const { return count_; }  // marked entries
  const std::uint64_t* words() const { return words_; }
  bool has(std::uint64_t i) const { return words_[i >> 6] >> (i & 63) & 1; }
  // The marked entries before i (i's rank when i is marked).
  std::uint64_t rank(std::uint64_t i) const {
    const std::uint64_t w = i >> 6, first = w / kWordsPerCount * kWordsPerCount;
    std::uint64_t r = before_[w / kWordsPerCount];
    for (std::uint64_t k = first; k < w; ++k) r += std::uint64_t(std::popcount(words_[k]));
    return r + std::uint64_t(std::popcount(words_[w] & ((std::uint64_t{1} << (i & 63)) - 1)));
  }
  // The marked entries before word w * kWordsPerCount.
  std::uint64_t before_group(std::uint64_t g) const { return before_[g]; }
  std::uint64_t groups() const { return ((entries_ + 63) / 64 + kWordsPerCount - 1) / kWordsPerCount; }
  std::uint64_t memory_bytes() const { return before_.size() * sizeof(std::uint64_t); }

 private:
  const std::uint64_t* words_ = nullptr;
  std::uint64_t entries_ = 0, count_ = 0;
  std::vector<std::uint64_t> before_;
};

}  // namespace tablebase
