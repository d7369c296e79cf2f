// `drop16 solve` and `query` for the games whose play can cycle (Spock, the rook race): what the
// solve and query commands hand over.
#pragma once

#include <cstdint>
#include <string>

#include "app/command.h"

namespace app {

struct CyclicSolveRequest {
  PositionOptions position;
  std::string tables;  // DIR: the row's table is written there, or loaded if finished
  std::uint64_t memory_bytes = 0;
  int zstd_level = 19;
};

void run_cyclic_solve(const CyclicSolveRequest& r);
// `drop16 query` for a Spock row's table in DIR: the position's value and every move's, from the
// file alone. Throws TableError for a file it cannot trust.
void run_cyclic_query(const PositionOptions& o, const std::string& dir);

}  // namespace app
