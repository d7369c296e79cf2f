// Machine facts the commands report and default to: peak memory, CPU time and physical memory
// (solver/process_resources.h).
#pragma once

#include "solver/process_resources.h"

namespace app {

using solver::cpu_seconds;
using solver::peak_memory_mb;
using solver::physical_memory_mb;
using solver::resident_bytes;

}  // namespace app
