// Machine facts the commands report and default to: peak memory, CPU time and physical memory
// (solver/process_resources.h), and what a solve has left of --memory.
#pragma once

#include <cstdint>
#include <string>

#include "app/command.h"
#include "solver/process_resources.h"
#include "solver/size_text.h"

namespace app {

using solver::cpu_seconds;
using solver::peak_memory_mb;
using solver::physical_memory_mb;
using solver::resident_bytes;

// The process's resident memory before solving (binary, libraries, what it built already), which
// counts against --memory with the solve's own; refused when it is --memory already.
inline std::uint64_t resident_under(std::uint64_t memory_bytes) {
  const std::uint64_t resident = resident_bytes();
  if (resident >= memory_bytes)
    throw UsageError("--memory: this process holds " + solver::size_text(resident) +
                     " before solving, more than " + solver::size_text(memory_bytes) +
                     " (raise --memory)");
  return resident;
}

}  // namespace app
