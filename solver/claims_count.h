// The combinatorics of the claims counts, in exact 128-bit counts (exact_count.h).
#pragma once

#include <span>

#include "solver/exact_count.h"

namespace solver {

Count factorial(int n);
// n (n-1) ... (n-k+1): the ways to fill k of n squares in order (exact where n! is not).
Count falling_factorial(int n, int k);
Count binomial(int n, int k);
// (k_1 + ... + k_m)! / (k_1! ... k_m!): the arrangements of a multiset with k_i copies of item i.
Count multinomial(std::span<const int> parts);
// Words of `length` letters drawn without replacement from a multiset with counts[i] copies of
// letter i (the orders in which a side can empty part of its hand, by piece type).
Count words_from_multiset(std::span<const int> counts, int length);

}  // namespace solver
