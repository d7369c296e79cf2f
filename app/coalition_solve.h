// `drop16 solve`, `query` and `verify` for the games valued per coalition of players (registry
// entries with the coalition solver, Solver::coalition_values: Nevsky checkers): what the
// commands hand over.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "app/command.h"

namespace app {

struct CoalitionSolveRequest {
  PositionOptions position;
  std::uint64_t memory_bytes = 0;  // --memory: the process's resident memory stays under it
  // --tables DIR (games with coalition tables): the variant's table, everything reachable from its
  // start, written there, or loaded from what an earlier run finished
  std::string tables;
  int zstd_level = 19;
};

// Solves every position reachable from the asked position (--fen, else the variant's start) for
// every coalition (solver/coalition_solve.h) and prints, for that position, each coalition's value
// and distance, the coalitions that force a win, the counts over the positions reached (with the
// kingmakers and the longest forced win) and the cost. With --tables, everything reachable from
// the variant's start instead, written to DIR (tablebase/coalition_table.h), the asked position
// answered from the file. Throws UsageError when the positions' keys do not fit, when the solve
// does not fit under --memory (the message says how far it got), or when DIR holds another
// variant's table or a damaged one (never overwritten).
void run_coalition_solve(const CoalitionSolveRequest& r);

// The text of a position's values (coalition_json.h's objects under "coalitions", with "fen" and
// "to_move"): its player to move, then a line a coalition.
void print_coalition_values(const nlohmann::ordered_json& j);

// `drop16 query --tables DIR`: every coalition's value at the position (--fen, else the start)
// and after each of its moves, from DIR's coalition table alone; `variant_given` says whether
// --variant named the variant (else DIR's table does). Throws TableError for a file it cannot
// trust, UsageError for a position the table does not hold.
void run_coalition_query(const PositionOptions& o, const std::string& dir, bool variant_given);

struct CoalitionVerifyRequest {
  PositionOptions position;
  std::string tables;
  std::uint64_t samples = 1000;
  std::uint64_t seed = 1;
  std::uint64_t memory_bytes = 0;  // the forward search's cap
  bool children = false;           // the children check alone, no forward search
};

// `drop16 verify --tables DIR`: sampled positions of DIR's coalition table checked against their
// children's stored values and (unless --children) every coalition's bounded forward search
// (solver/coalition_search.h); prints the figures, throws std::runtime_error (exit status 1) on a
// mismatch and TableError for a file it cannot trust.
void run_coalition_verify(const CoalitionVerifyRequest& r);

}  // namespace app
