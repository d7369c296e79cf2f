// Division by a number known in advance, the dearest step of unranking a placement. Most
// dividends there fit 32 bits, and for those a multiplication by the divisor's reciprocal gives
// the exact quotient (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019:
// with M = ceil(2^64 / d), floor(n / d) = floor(M n / 2^64) for all n, d < 2^32); larger ones
// divide.
#pragma once

#include <cstdint>

namespace tablebase {

// ceil(2^64 / d) for 1 < d < 2^32; 0 otherwise, and divide() then divides.
constexpr std::uint64_t reciprocal_of(std::uint64_t d) {
  return d > 1 && d < (std::uint64_t{1} << 32) ? ~std::uint64_t{0} / d + 1 : 0;
}

// n / d, left in n; returns n % d. `reciprocal` is reciprocal_of(d).
inline std::uint64_t divide(std::uint64_t& n, std::uint64_t d, std::uint64_t reciprocal) {
  const std::uint64_t quotient =
      reciprocal && (n >> 32) == 0
          ? std::uint64_t((static_cast<unsigned __int128>(reciprocal) * n) >> 64)
          : n / d;
  const std::uint64_t rest = n - quotient * d;
  n = quotient;
  return rest;
}

}  // namespace tablebase
