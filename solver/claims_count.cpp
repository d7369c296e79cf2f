#include "solver/claims_count.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace solver {

Count factorial(int n) {
  Count f = 1;
  for (int i = 2; i <= n; ++i) f = checked_mul(f, Count(i));
  return f;
}

Count falling_factorial(int n, int k) {
  Count f = 1;
  for (int i = 0; i < k; ++i) f = checked_mul(f, Count(n - i));
  return f;
}

Count binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  k = std::min(k, n - k);
  // After step i, c = C(n - k + i, i), so every division is exact.
  Count c = 1;
  for (int i = 1; i <= k; ++i) c = checked_mul(c, Count(n - k + i)) / Count(i);
  return c;
}

Count multinomial(std::span<const int> parts) {
  Count m = 1;
  int placed = 0;
  for (int k : parts) {
    placed += k;
    m = checked_mul(m, binomial(placed, k));
  }
  return m;
}

Count words_from_multiset(std::span<const int> counts, int length) {
  if (length < 0) return 0;
  // ways[j]: words of length j over the letters seen so far. Adding a copies of a new letter to a
  // word of length j gives C(j + a, a) words: choose the a positions the new letter takes.
  std::vector<Count> ways(length + 1, 0);
  ways[0] = 1;
  for (int copies : counts) {
    std::vector<Count> next(length + 1, 0);
    for (int j = 0; j <= length; ++j) {
      if (ways[j] == 0) continue;
      for (int a = 0; a <= copies && j + a <= length; ++a)
        next[j + a] = checked_add(next[j + a], checked_mul(ways[j], binomial(j + a, a)));
    }
    ways = std::move(next);
  }
  return ways[length];
}

}  // namespace solver
