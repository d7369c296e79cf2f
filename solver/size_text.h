// Sizes in messages (memory plans, caps): in GB, the unit of the --memory options, or in MB below
// one GB, to three significant digits so that a small size does not print as 0.00.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace solver {

inline std::string size_text(std::uint64_t bytes) {
  const double gb = double(bytes) / double(1ull << 30);
  char text[32];
  if (gb >= 1)
    std::snprintf(text, sizeof text, "%.3g GB", gb);
  else
    std::snprintf(text, sizeof text, "%.3g MB", gb * 1024);
  return text;
}

}  // namespace solver
