// The commands that run the bounded forward search of games whose play can cycle (Spock,
// solver/cyclic_search.h): solve --max-depth for one position, verify for a ladder row.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/command.h"
#include "solver/wdl.h"

namespace app {

// {"value": "win"|"loss"|"draw"|"unknown", "dte": number or null}: the shape solve gives Spock's
// values (a draw has no distance); none is "unknown", nothing forced within the search's depth.
inline nlohmann::ordered_json bounded_value_json(std::optional<solver::WdlValue> v) {
  nlohmann::ordered_json j;
  j["value"] = v ? solver::wdl_name(v->wdl) : "unknown";
  j["dte"] = v && v->wdl != solver::Wdl::draw ? nlohmann::ordered_json(v->distance)
                                              : nlohmann::ordered_json(nullptr);
  return j;
}

// drop16 solve --variant spock... --fen F --max-depth D [--time-limit S]: the position's value
// and every move's, each "unknown" where nothing is forced within D plies.
// Refuses (UsageError) a variant that is not Spock's, --tables, and a time limit without a depth.
struct CyclicSearchRequest {
  PositionOptions position;
  std::string tables;
  std::optional<int> max_depth;
  std::optional<double> seconds;  // none: no limit
  std::uint64_t memory_bytes = 0;
};
void run_cyclic_search(const CyclicSearchRequest& r);

// drop16 verify --variant spock:WxH:BLUE/red or rookrace:NxN:P --samples N [--children]: the row
// solved by the cyclic retrograde (or a Spock row's table, --tables), random positions of it
// checked against their children's values and, unless --children, searched again by the forward
// search and compared (app/cmd_verify_cyclic.cpp).
struct CyclicVerifyRequest {
  PositionOptions position;
  std::string tables;  // a Spock row's table to check instead of solving the row in memory
  std::uint64_t samples = 0;
  std::uint64_t seed = 1;
  std::uint64_t memory_bytes = 0;
  bool children = false;  // the check against the children only, no forward search
};
void run_cyclic_verify(const CyclicVerifyRequest& r);

}  // namespace app
