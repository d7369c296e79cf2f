// What this process has used of the machine, and what the machine has (Linux): peak resident
// memory, CPU time, physical memory. Commands report them beside their results (app/resources.h),
// and long computations note them beside their figures (the claims record, the proof session).
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>

namespace solver {

// Peak resident memory of this process so far, in MB.
inline double peak_memory_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KB on Linux
}

// Resident memory of this process now, in bytes (Linux: /proc/self/statm); 0 if unreadable. What
// a command holds before a solve whose own memory is counted against a cap (counted_memory.h), so
// that the cap and what is resident already stay under --memory together.
inline std::uint64_t resident_bytes() {
  unsigned long long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu %llu", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * std::uint64_t(sysconf(_SC_PAGE_SIZE));
}

// CPU seconds this process has had, user and system, over all its threads.
inline double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

inline std::uint64_t physical_memory_mb() {
  return std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE)) >> 20;
}

}  // namespace solver
