// Exact counts that outgrow 64 bits (Drop 16's drops-only move sequences alone are 5.3e20):
// unsigned 128-bit integers whose arithmetic throws CountOverflow instead of wrapping, so a count
// is either exact or reported as too big, never silently wrong.
#pragma once

#include <cstdint>
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

// n as 64 bits, or CountOverflow when it does not fit.
inline std::uint64_t checked_u64(Count n) {
  if (n >> 64) throw CountOverflow();
  return std::uint64_t(n);
}

std::string to_decimal(Count n);
// Inverse of to_decimal; throws std::invalid_argument on anything but digits that fit.
Count parse_count(const std::string& text);
double to_double(Count n);

}  // namespace solver
