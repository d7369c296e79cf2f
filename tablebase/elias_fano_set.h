// A sorted set of distinct values below a bound, in Elias and Fano's encoding: each value's low
// `low_bits` bits packed as they are, its high part as a run of ones in unary over the buckets.
// It takes 2 + log2(bound / size) bits a value (a byte a value where one place in 64 is in the
// set, where a sorted list of 64-bit values takes eight), and still answers both what the tier
// space asks of a block's reached places: the k-th value (select on the high bits) and the index
// of a value (select of its bucket's start, then a scan of the bucket, which holds about one
// value). Samples of every kSample-th one and zero keep each select to a few words.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "rules/common/bitboard.h"

namespace tablebase {

class EliasFanoSet {
 public:
  static constexpr std::uint64_t npos = ~std::uint64_t{0};

  EliasFanoSet() = default;
  // The set of `values`, strictly increasing, each below `bound`.
  EliasFanoSet(std::span<const std::uint64_t> values, std::uint64_t bound)
      : size_(values.size()), bound_(bound), low_bits_(low_bits_for(bound, values.size())) {
    low_.assign(low_words(), 0);
    high_.assign(high_words(), 0);
    for (std::uint64_t k = 0; k < size_; ++k) {
      const std::uint64_t v = values[k];
      if (v >= bound || (k && v <= values[k - 1]))
        throw std::invalid_argument("an Elias-Fano set takes increasing values below its bound");
      put_low(k, v & low_mask());
      const std::uint64_t bit = (v >> low_bits_) + k;
      high_[bit / 64] |= std::uint64_t{1} << (bit % 64);
    }
    sample();
  }

  // The set whose words (as words() gives them) are `words`; throws std::invalid_argument when
  // they are not the encoding of `size` increasing values below `bound`.
  static EliasFanoSet from_words(std::uint64_t size, std::uint64_t bound,
                                 std::span<const std::uint64_t> words) {
    EliasFanoSet set;
    set.size_ = size;
    set.bound_ = bound;
    set.low_bits_ = low_bits_for(bound, size);
    if (words.size() != set.low_words() + set.high_words())
      throw std::invalid_argument("an Elias-Fano set's words are too few or too many");
    set.low_.assign(words.begin(), words.begin() + std::ptrdiff_t(set.low_words()));
    set.high_.assign(words.begin() + std::ptrdiff_t(set.low_words()), words.end());
    std::uint64_t ones = 0;
    for (std::uint64_t w : set.high_) ones += std::uint64_t(std::popcount(w));
    if (ones != size) throw std::invalid_argument("an Elias-Fano set's high bits are damaged");
    set.sample();
    std::uint64_t last = 0;
    for (std::uint64_t k = 0; k < size; ++k) {
      const std::uint64_t v = set.at(k);
      if (v >= bound || (k && v <= last))
        throw std::invalid_argument("an Elias-Fano set's values are not increasing in bounds");
      last = v;
    }
    return set;
  }
  // The words to keep: the low bits', then the high bits'. word_count(size, bound) of them.
  void append_words(std::vector<std::uint64_t>& to) const {
    to.insert(to.end(), low_.begin(), low_.end());
    to.insert(to.end(), high_.begin(), high_.end());
  }
  static std::uint64_t word_count(std::uint64_t size, std::uint64_t bound) {
    EliasFanoSet set;
    set.size_ = size;
    set.bound_ = bound;
    set.low_bits_ = low_bits_for(bound, size);
    return set.low_words() + set.high_words();
  }

  std::uint64_t size() const { return size_; }
  std::uint64_t bound() const { return bound_; }
  std::uint64_t memory_bytes() const {
    return 8 * (low_.capacity() + high_.capacity() + ones_.capacity() + zeros_.capacity());
  }

  // The k-th least value (k < size()).
  std::uint64_t at(std::uint64_t k) const {
    return (select(ones_, k, false) - k) << low_bits_ | get_low(k);
  }
  // The index of v among the values, npos when v is not one of them.
  std::uint64_t find(std::uint64_t v) const {
    if (v >= bound_) return npos;
    const std::uint64_t bucket = v >> low_bits_, low = v & low_mask();
    // The bucket's values start after its bucket-th zero; their high bits are ones from there.
    std::uint64_t bit = bucket ? select(zeros_, bucket - 1, true) + 1 : 0;
    for (std::uint64_t k = bit - bucket; high_[bit / 64] >> (bit % 64) & 1; ++bit, ++k) {
      const std::uint64_t here = get_low(k);
      if (here == low) return k;
      if (here > low) break;
    }
    return npos;
  }

 private:
  static constexpr std::uint64_t kSample = 256;

  static int low_bits_for(std::uint64_t bound, std::uint64_t size) {
    return size && bound / size > 1 ? std::bit_width(bound / size) - 1 : 0;
  }
  std::uint64_t low_mask() const { return (std::uint64_t{1} << low_bits_) - 1; }
  std::uint64_t low_words() const { return (size_ * std::uint64_t(low_bits_) + 63) / 64; }
  // A one a value and a zero a bucket (the last bucket's closing zero too).
  std::uint64_t high_bit_count() const { return size_ + (bound_ >> low_bits_) + 1; }
  std::uint64_t high_words() const { return (high_bit_count() + 63) / 64; }

  void put_low(std::uint64_t k, std::uint64_t v) {
    if (!low_bits_) return;
    const std::uint64_t bit = k * std::uint64_t(low_bits_);
    low_[bit / 64] |= v << (bit % 64);
    if (bit % 64 + std::uint64_t(low_bits_) > 64) low_[bit / 64 + 1] |= v >> (64 - bit % 64);
  }
  std::uint64_t get_low(std::uint64_t k) const {
    if (!low_bits_) return 0;
    const std::uint64_t bit = k * std::uint64_t(low_bits_);
    std::uint64_t v = low_[bit / 64] >> (bit % 64);
    if (bit % 64 + std::uint64_t(low_bits_) > 64) v |= low_[bit / 64 + 1] << (64 - bit % 64);
    return v & low_mask();
  }

  // Where the high bits' kSample-th ones and zeros are: ones_[i] the word holding the
  // (i kSample)-th one, and how many ones come before that word (likewise zeros_).
  void sample() {
    ones_.clear();
    zeros_.clear();
    std::uint64_t ones = 0, zeros = 0;
    const std::uint64_t bits = high_bit_count();
    for (std::uint64_t w = 0; w < high_.size(); ++w) {
      const std::uint64_t valid = std::min<std::uint64_t>(64, bits - 64 * w);
      const std::uint64_t in = std::uint64_t(std::popcount(high_[w]));
      const std::uint64_t out = valid - in;
      while (ones_.size() / 2 * kSample < ones + in) ones_.insert(ones_.end(), {w, ones});
      while (zeros_.size() / 2 * kSample < zeros + out) zeros_.insert(zeros_.end(), {w, zeros});
      ones += in;
      zeros += out;
    }
  }
  // The position in the high bits of the r-th one (or zero), from the samples on.
  std::uint64_t select(const std::vector<std::uint64_t>& samples, std::uint64_t r,
                       bool zero) const {
    const std::uint64_t s = 2 * (r / kSample);
    std::uint64_t seen = samples[s + 1];
    for (std::uint64_t w = samples[s];; ++w) {
      const std::uint64_t word = zero ? ~high_[w] : high_[w];
      const std::uint64_t in = std::uint64_t(std::popcount(word));
      if (seen + in > r)
        return 64 * w + std::uint64_t(std::countr_zero(
                            common::bitboards::deposit_bits(std::uint64_t{1} << (r - seen), word)));
      seen += in;
    }
  }

  std::uint64_t size_ = 0, bound_ = 0;
  int low_bits_ = 0;
  std::vector<std::uint64_t> low_, high_;
  std::vector<std::uint64_t> ones_, zeros_;  // pairs: word, count before it
};

}  // namespace tablebase
