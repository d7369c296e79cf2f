// Machine facts the commands report and default to: peak memory and physical memory.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>

namespace app {

// Peak resident memory of this process so far, in MB.
inline double peak_memory_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KB on Linux
}

inline std::uint64_t physical_memory_mb() {
  return std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE)) >> 20;
}

}  // namespace app
