// The commands that run the bounded forward search of games whose play can cycle
// (solver/cyclic_search.h): solve --max-depth for one position, verify for a whole variant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/command.h"

namespace app {

// drop16 solve --variant V [--fen F] --max-depth D [--time-limit S]: what the solve command hands
// the bounded searches (this one, and the search per coalition of app/coalition_solve.h).
struct BoundedSearchRequest {
  PositionOptions position;
  int max_depth = 0;
  std::optional<double> seconds;  // none: no limit
  std::uint64_t memory_bytes = 0;
};

// The position's value and every move's, each "unknown" where nothing is forced within D plies.
// The game must have the bounded search (the solve command's options check says so; it also
// refuses --tables and a time limit without a depth, once for both searches).
void run_cyclic_search(const BoundedSearchRequest& r);

// drop16 verify --variant V --samples N [--children] [--tables DIR]: the whole variant solved by
// the cyclic retrograde (or its keyed table in DIR), random positions of it checked against their
// children's values and, unless --children, searched again by the forward search and compared
// (app/cmd_verify_cyclic.cpp).
struct CyclicVerifyRequest {
  PositionOptions position;
  std::string tables;  // DIR: the variant's tables to check instead of solving it in memory
  std::uint64_t samples = 0;
  std::uint64_t seed = 1;
  std::uint64_t memory_bytes = 0;
  bool children = false;  // the check against the children only, no forward search
  bool digest = false;  // loopy tier tables: each tier's digest instead of samples (tier_digests.h)
  std::string against;  // with digest: an earlier run's JSON to compare with
};
void run_cyclic_verify(const CyclicVerifyRequest& r);

}  // namespace app
