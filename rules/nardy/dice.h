// The roll of two dice as a chance event (solver/chance.h): 21 distinct rolls, a double weighted
// 1 and any other 2, out of 36.
#pragma once

#include <array>
#include <cstdint>

#include "rules/nardy/position.h"

namespace nardy {

inline constexpr int kDistinctRolls = 21;
inline constexpr std::uint32_t kRollsTotalWeight = 36;

struct WeightedRoll {
  Roll roll;
  std::uint32_t weight;
};

// 6-6, 6-5, ..., 1-1: high die first, then low.
inline constexpr std::array<WeightedRoll, kDistinctRolls> all_rolls() {
  std::array<WeightedRoll, kDistinctRolls> out{};
  int i = 0;
  for (int high = 6; high >= 1; --high)
    for (int low = high; low >= 1; --low)
      out[i++] = {Roll{std::uint8_t(high), std::uint8_t(low)}, high == low ? 1u : 2u};
  return out;
}

// Position of r in all_rolls(), 0..20.
inline constexpr int roll_index(Roll r) {
  int i = 0;
  for (int high = 6; high > r.high; --high) i += high;
  return i + (r.high - r.low);
}

}  // namespace nardy
