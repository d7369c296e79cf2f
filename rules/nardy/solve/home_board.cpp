#include "rules/nardy/solve/home_board.h"

#include <stdexcept>

namespace nardy::bearoff {

HomeIndex::HomeIndex(int max_checkers) : max_(max_checkers) {
  if (max_checkers < 0 || max_checkers > 15)
    throw std::invalid_argument("a home board holds 0 to 15 checkers");
  binomial_.assign(max_ + kHome + 1, std::vector<std::uint64_t>(kHome + 1, 0));
  for (int n = 0; n <= max_ + kHome; ++n)
    for (int k = 0; k <= kHome && k <= n; ++k)
      binomial_[n][k] = k == 0 || k == n ? 1 : binomial_[n - 1][k - 1] + binomial_[n - 1][k];
  for (int mask = 0; mask < 64; ++mask)
    offset_[mask + 1] = offset_[mask] + tuples(kHome, max_ - __builtin_popcount(mask));
}

std::uint64_t HomeIndex::index(const HomeBoard& b) const {
  int budget = max_ - __builtin_popcount(b.royal);
  std::uint64_t rank = offset_[b.royal];
  for (int i = 0; i < kHome; ++i) {
    for (int v = 0; v < b.plain[i]; ++v) rank += tuples(kHome - 1 - i, budget - v);
    budget -= b.plain[i];
  }
  return rank;
}

HomeBoard HomeIndex::board(std::uint64_t index) const {
  HomeBoard b;
  int mask = 0;
  while (offset_[mask + 1] <= index) ++mask;
  b.royal = std::uint8_t(mask);
  std::uint64_t rank = index - offset_[mask];
  int budget = max_ - __builtin_popcount(mask);
  for (int i = 0; i < kHome; ++i) {
    int v = 0;
    while (rank >= tuples(kHome - 1 - i, budget - v)) rank -= tuples(kHome - 1 - i, budget - v++);
    b.plain[i] = std::uint8_t(v);
    budget -= v;
  }
  return b;
}

}  // namespace nardy::bearoff
