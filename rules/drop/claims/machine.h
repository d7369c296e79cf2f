// The machine facts a claims record notes beside its figures: each section's own peak memory,
// the load it ran under and when, and the machine (counts do not depend on them; times do, and
// the machine is shared).
#pragma once

#include <string>

namespace solver::claims {

// Resets the kernel's peak-RSS mark so each section's peak is its own (Linux >= 4.0).
void reset_peak_memory();
// The peak resident memory since the last reset_peak_memory, in MB.
double section_peak_memory_mb();
double load_average();
std::string utc_now();
// The CPU model, cores and physical memory.
std::string machine_line();

}  // namespace solver::claims
