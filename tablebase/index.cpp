#include "tablebase/index.h"

#include "tablebase/divider.h"

namespace tablebase {

namespace {

struct BinomialTable {
  std::array<std::array<std::uint64_t, 65>, 65> c{};
  BinomialTable() {
    for (int n = 0; n <= 64; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k < n ? c[n - 1][k] : 0);
    }
  }
};
const BinomialTable kBinomials;

// reciprocal_of(C(n, k)) for k < 16, shared by every index: kept per slice, they cost more
// memory than the slices' other data on variants of many small slices.
const std::array<std::array<std::uint64_t, 16>, 65> kRadixReciprocals = [] {
  std::array<std::array<std::uint64_t, 16>, 65> r{};
  for (int n = 0; n <= 64; ++n)
    for (int k = 0; k < 16; ++k) r[n][k] = reciprocal_of(binomial(n, k));
  return r;
}();

// kNthInByte[b][n]: the place of the n-th (from 0) set bit of byte b.
const std::array<std::array<std::uint8_t, 8>, 256> kNthInByte = [] {
  std::array<std::array<std::uint8_t, 8>, 256> nth{};
  for (int b = 0; b < 256; ++b)
    for (int bit = 0, n = 0; bit < 8; ++bit)
      if (b >> bit & 1) nth[b][n++] = std::uint8_t(bit);
  return nth;
}();

// The square of the `n`-th (from 0) set bit of `set`, a byte at a time: unranking a placement
// asks this of every piece, and a bit at a time cost as much as the rest of it.
int nth_square(Bitboard set, int n) {
  for (int base = 0;; base += 8, set >>= 8) {
    const int in_byte = common::bitboards::popcount(set & 0xFF);
    if (n < in_byte) return base + kNthInByte[set & 0xFF][n];
    n -= in_byte;
  }
}

}  // namespace

const std::array<std::array<std::uint64_t, 16>, 65> kSmallBinomials = [] {
  std::array<std::array<std::uint64_t, 16>, 65> c{};
  for (int n = 0; n <= 64; ++n)
    for (int k = 0; k < 16; ++k) c[n][k] = k <= n ? kBinomials.c[n][k] : 0;
  return c;
}();

std::uint64_t binomial(int n, int k) {
  return (k < 0 || k > n || n > 64) ? 0 : kBinomials.c[n][k];
}

PlacementIndex::PlacementIndex(int squares, const std::array<int, kGroups>& counts)
    : squares_(squares),
      all_squares_(squares == 64 ? ~Bitboard{0} : (Bitboard{1} << squares) - 1),
      count_(counts) {
  int free = squares;
  for (int g = 0; g < kGroups; ++g) {
    if (count_[g]) groups_[group_count_++] = std::int8_t(g);
    radix_[g] = binomial(free, count_[g]);
    free -= count_[g];
    size_ *= radix_[g];
  }
  if (free < 0) size_ = 0;
}

Groups PlacementIndex::unrank(std::uint64_t index) const {
  std::array<std::uint64_t, kGroups> r{};
  // Last group first; `free` is the number of squares left before each group.
  int free_squares = squares_;
  for (int g = 0; g < kGroups; ++g) free_squares -= count_[g];
  for (int k = group_count_ - 1; k >= 0; --k) {
    const int g = groups_[k];
    free_squares += count_[g];
    const std::uint64_t reciprocal =
        count_[g] < 16 ? kRadixReciprocals[free_squares][count_[g]] : 0;
    r[g] = divide(index, radix_[g], reciprocal);
  }
  Groups groups{};
  Bitboard free = all_squares_;
  for (int k = 0; k < group_count_; ++k) {
    const int g = groups_[k];
    if (count_[g] == 1) {  // C(position, 1) = position
      groups[g] = common::bitboards::square_bit(nth_square(free, int(r[g])));
    } else {
      // Largest positions first: the combinatorial number system's greedy decoding.
      int p = common::bitboards::popcount(free);
      for (int i = count_[g]; i > 0; --i) {
        do --p;
        while (kBinomials.c[p][i] > r[g]);
        r[g] -= kBinomials.c[p][i];
        groups[g] |= common::bitboards::square_bit(nth_square(free, p));
      }
    }
    free &= ~groups[g];
  }
  return groups;
}

}  // namespace tablebase
