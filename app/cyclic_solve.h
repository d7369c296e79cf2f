// `drop16 solve` for the games whose play can cycle (Spock): what the solve command hands over.
#pragma once

#include <cstdint>
#include <string>

#include "app/command.h"

namespace app {

struct CyclicSolveRequest {
  PositionOptions position;
  std::string tables;  // not supported yet: refused with a message
  std::uint64_t memory_bytes = 0;
};

void run_cyclic_solve(const CyclicSolveRequest& r);

}  // namespace app
