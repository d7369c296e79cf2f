// What the bounded forward searches (solver/cyclic_search.h, solver/coalition_search.h) report
// of their work, one shape for `solve --max-depth` of every game: the "search" object of the JSON
// and its line for people.
#pragma once

#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "solver/cyclic_search.h"
#include "solver/process_resources.h"

namespace app {

// Adds to j the search's "search" object, the seconds since `start` and the process's peak
// memory. depth: every value not found has nothing forced up to this many plies.
template <typename Search>
void add_search_report(nlohmann::ordered_json& j, const Search& search, int max_depth, int depth,
                       solver::SearchStop stop, std::chrono::steady_clock::time_point start) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["search"] = {{"max_depth", max_depth},
                 {"depth", depth},
                 {"stopped", stop == solver::SearchStop::none
                                 ? nlohmann::ordered_json(nullptr)
                                 : nlohmann::ordered_json(solver::search_stop_name(stop))},
                 {"nodes", search.nodes()},
                 {"nodes_per_second", double(search.nodes()) / std::max(seconds, 1e-9)},
                 {"table_clears", search.table_clears()},
                 {"positions_stored", search.positions_stored()},
                 {"table_mb", double(search.table_bytes()) / double(1 << 20)}};
  j["seconds"] = seconds;
  j["peak_memory_mb"] = solver::peak_memory_mb();
}

// "searched 12 of 20 plies, 35512 nodes, stopped by the time limit"
inline void print_search_line(const nlohmann::ordered_json& s) {
  std::cout << "searched " << s["depth"] << " of " << s["max_depth"] << " plies, " << s["nodes"]
            << " nodes";
  if (!s["stopped"].is_null())
    std::cout << ", stopped by the " << s["stopped"].get<std::string>() << " limit";
  std::cout << std::endl;
}

}  // namespace app
