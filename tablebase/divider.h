// Division by a number fixed in advance, the dearest step of unranking a placement. Most
// dividends there fit 32 bits, and for those a multiplication by the divisor's reciprocal gives
// the exact quotient (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019:
// with M = ceil(2^64 / d), floor(n / d) = floor(M n / 2^64) for all n, d < 2^32); larger ones
// divide.
#pragma once

#include <cstdint>

namespace tablebase {

class Divider {
 public:
  Divider() = default;
  explicit Divider(std::uint64_t divisor)
      : divisor_(divisor),
        reciprocal_(divisor > 1 && divisor < (std::uint64_t{1} << 32)
                        ? ~std::uint64_t{0} / divisor + 1
                        : 0) {}

  std::uint64_t divisor() const { return divisor_; }
  // n / divisor, left in n; returns n % divisor.
  std::uint64_t divide(std::uint64_t& n) const {
    const std::uint64_t quotient =
        reciprocal_ && (n >> 32) == 0
            ? std::uint64_t((static_cast<unsigned __int128>(reciprocal_) * n) >> 64)
            : n / divisor_;
    const std::uint64_t rest = n - quotient * divisor_;
    n = quotient;
    return rest;
  }

 private:
  std::uint64_t divisor_ = 1;
  std::uint64_t reciprocal_ = 0;  // 0 where the divisor is 1 or does not fit 32 bits
};

}  // namespace tablebase
