// An exact rational number for the tests of expected values (expectimax's Number): a reduced
// fraction of 64-bit integers, worked out in 128 bits, that throws rather than wrap when a result
// does not fit. The dice toys' denominators are powers of the dice's totals, so games of a few
// dozen plies stay well inside.
#pragma once

#include <climits>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace test_support {

class Rational {
 public:
  Rational(std::int64_t n = 0) : num_(n), den_(1) {}  // NOLINT: implicit, as for int and double

  std::int64_t num() const { return num_; }
  std::int64_t den() const { return den_; }
  double to_double() const { return double(num_) / double(den_); }

  friend Rational operator+(const Rational& a, const Rational& b) {
    return make(__int128(a.num_) * b.den_ + __int128(b.num_) * a.den_, __int128(a.den_) * b.den_);
  }
  friend Rational operator-(const Rational& a) { return make(-__int128(a.num_), a.den_); }
  friend Rational operator*(const Rational& a, const Rational& b) {
    return make(__int128(a.num_) * b.num_, __int128(a.den_) * b.den_);
  }
  friend Rational operator/(const Rational& a, const Rational& b) {
    if (b.num_ == 0) throw std::domain_error("Rational: division by zero");
    return make(__int128(a.num_) * b.den_, __int128(a.den_) * b.num_);
  }
  friend bool operator==(const Rational&, const Rational&) = default;  // reduced, so exact
  friend bool operator<(const Rational& a, const Rational& b) {
    return __int128(a.num_) * b.den_ < __int128(b.num_) * a.den_;
  }
  friend std::ostream& operator<<(std::ostream& os, const Rational& r) {
    return os << r.num_ << '/' << r.den_;
  }

 private:
  static __int128 gcd(__int128 a, __int128 b) {
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b != 0) a = std::exchange(b, a % b);
    return a;
  }
  static Rational make(__int128 n, __int128 d) {
    if (d < 0) n = -n, d = -d;
    const __int128 g = gcd(n, d);
    if (g > 1) n /= g, d /= g;
    constexpr __int128 kMax = INT64_MAX;
    if (n > kMax || n < -kMax || d > kMax) throw std::overflow_error("Rational: out of 64 bits");
    Rational r;
    r.num_ = std::int64_t(n);
    r.den_ = std::int64_t(d);
    return r;
  }

  std::int64_t num_;
  std::int64_t den_;
};

}  // namespace test_support
