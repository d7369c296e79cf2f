#include "solver/exact_count.h"

#include <algorithm>
#include <cstdint>

namespace solver {

std::string to_decimal(Count n) {
  if (n == 0) return "0";
  std::string digits;
  for (; n; n /= 10) digits.push_back(char('0' + int(n % 10)));
  std::reverse(digits.begin(), digits.end());
  return digits;
}

Count parse_count(const std::string& text) {
  if (text.empty()) throw std::invalid_argument("empty count");
  Count n = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') throw std::invalid_argument("count '" + text + "' is not a number");
    n = checked_add(checked_mul(n, 10), Count(ch - '0'));
  }
  return n;
}

double to_double(Count n) {
  return double(std::uint64_t(n >> 64)) * 18446744073709551616.0 + double(std::uint64_t(n));
}

}  // namespace solver
