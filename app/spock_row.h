// The positions a Spock ladder row starts from (rules/spock/material.h): every placement of its
// pieces, listed only once it is known that they fit the memory cap beside the solver's arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/command.h"
#include "rules/spock/material.h"

namespace app {

// Throws UsageError naming --memory when the placements alone would take memory_bytes or more.
inline std::vector<spock::Position> spock_row_roots(const spock::Material& m,
                                                    std::uint64_t memory_bytes) {
  const std::uint64_t count = spock::placement_count(m);
  if (count >= memory_bytes / sizeof(spock::Position))
    throw UsageError("--memory: the " + std::to_string(count) + " placements of " + m.name() +
                     " alone take more than " + std::to_string(memory_bytes >> 20) + " MB");
  return spock::placements(m);
}

}  // namespace app
