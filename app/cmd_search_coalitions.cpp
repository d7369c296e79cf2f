// drop16 solve --max-depth for the games valued per coalition of players (app/coalition_solve.h):
// the forward search per coalition (solver/coalition_search.h) of one position, each coalition's
// value named by the entry's players, "unknown" where nothing is forced within the depth searched.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>

#include "app/coalition_solve.h"
#include "app/games.h"
#include "app/resources.h"
#include "app/search_report.h"
#include "solver/coalition_search.h"
#include "tablebase/coalition_json.h"

namespace app {

namespace {

void print_text(const nlohmann::ordered_json& j) {
  print_coalition_values(j);
  print_winning_coalitions(j);
  print_search_line(j["search"]);
}

template <registry::CoalitionEntry E>
void search_position(const BoundedSearchRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  const auto s = E::setup(r.position.variant, r.position.fen);
  const auto& game = *s.game;
  solver::CoalitionSearch<typename E::Game> search(
      game, coalition_memory(game.keys_fit(), game.key_bits(), r.memory_bytes));
  const solver::CoalitionBounded found = solver::with_search_progress(
      search, "search", std::uint64_t(r.max_depth) + 1, !r.position.quiet, [&] {
        return search.analyze(s.position, {r.max_depth, r.seconds.value_or(0)});
      });

  nlohmann::ordered_json j = coalition_position_json<E>(game, s.position);
  j["coalitions"] = nlohmann::ordered_json::array();
  for (const std::uint32_t c : tablebase::coalitions_by_size(game.players())) {
    const auto& v = found.values[c];
    nlohmann::ordered_json one =
        tablebase::coalition_value_json(E::kPlayers, c, v.value_or(solver::WdlValue{}));
    if (!v) {
      one["value"] = "unknown";  // nothing forced within the depth searched
      one["distance"] = nullptr;
    }
    j["coalitions"].push_back(one);
  }
  add_winning_coalitions(j);
  // Every coalition without a value has nothing forced up to found.depth plies.
  add_search_report(j, search, r.max_depth, found.depth, found.stop, start);
  if (r.position.json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

}  // namespace

void run_coalition_search(const BoundedSearchRequest& r) {
  with_capability<registry::Solver::coalition_values>(
      r.position.variant, [&](auto e) { search_position<decltype(e)>(r); });
}

}  // namespace app
