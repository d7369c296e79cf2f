// Exact counts that outgrow 64 bits (Drop 16's drops-only move sequences alone are 5.3e20):
// unsigned 128-bit integers whose arithmetic throws CountOverflow instead of wrapping, so a count
// is either exact or reported as too big, never silently wrong.
#pragma once

#include <span>
#include <stdexcept>
#include <string>

namespace solver {

using Count = unsigned __int128;

class CountOverflow : public std::overflow_error {
 public:
  CountOverflow() : std::overflow_error("count exceeds 2^128") {}
};

inline Count checked_add(Count a, Count b) {
  Count sum;
  if (__builtin_add_overflow(a, b, &sum)) throw CountOverflow();
  return sum;
}

inline Count checked_mul(Count a, Count b) {
  Count product;
  if (__builtin_mul_overflow(a, b, &product)) throw CountOverflow();
  return product;
}

std::string to_decimal(Count n);
// Inverse of to_decimal; throws std::invalid_argument on anything but digits that fit.
Count parse_count(const std::string& text);
double to_double(Count n);

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
