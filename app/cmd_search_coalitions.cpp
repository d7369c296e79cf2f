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
#include "solver/coalition_search.h"
#include "solver/size_text.h"
#include "tablebase/coalition_json.h"

namespace app {

namespace {

void print_text(const nlohmann::ordered_json& j) {
  print_coalition_values(j);
  const auto& s = j["search"];
  std::cout << "searched " << s["depth"] << " of " << s["max_depth"] << " plies, " << s["nodes"]
            << " nodes";
  if (!s["stopped"].is_null())
    std::cout << ", stopped by the " << s["stopped"].get<std::string>() << " limit";
  std::cout << std::endl;
}

template <registry::CoalitionEntry E>
void search_position(const CoalitionSearchRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  const auto s = E::setup(r.position.variant, r.position.fen);
  const auto& game = *s.game;
  if (!game.keys_fit())
    throw UsageError("solve: this variant's positions need " + std::to_string(game.key_bits()) +
                     " bits, more than the 128-bit exact keys the search holds them by");
  const std::uint64_t resident = resident_bytes();
  if (resident >= r.memory_bytes)
    throw UsageError("--memory: this process holds " + solver::size_text(resident) +
                     " before searching, more than " + solver::size_text(r.memory_bytes) +
                     " (raise --memory)");
  solver::CoalitionSearch<typename E::Game> search(game, r.memory_bytes - resident);
  const solver::CoalitionBounded found =
      search.analyze(s.position, {*r.max_depth, r.seconds.value_or(0)});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::ordered_json j;
  j["variant"] = E::variant_name(game);
  j["fen"] = E::fen(game, s.position);
  j["to_move"] = game.is_terminal(s.position)
                     ? nlohmann::ordered_json()
                     : nlohmann::ordered_json(E::kPlayers[game.player_to_move(s.position)]);
  j["coalitions"] = nlohmann::ordered_json::array();
  j["winning_coalitions"] = nlohmann::ordered_json::array();
  for (const std::uint32_t c : tablebase::coalitions_by_size(game.players())) {
    const auto& v = found.values[c];
    nlohmann::ordered_json one =
        tablebase::coalition_value_json(E::kPlayers, c, v.value_or(solver::WdlValue{}));
    if (!v) {
      one["value"] = "unknown";  // nothing forced within the depth searched
      one["distance"] = nullptr;
    }
    if (one["value"] == "win") j["winning_coalitions"].push_back(one["coalition"]);
    j["coalitions"].push_back(one);
  }
  j["search"] = {{"max_depth", *r.max_depth},
                 // Every coalition without a value has nothing forced up to this many plies.
                 {"depth", found.depth},
                 {"stopped", found.stop == solver::SearchStop::none
                                 ? nlohmann::ordered_json(nullptr)
                                 : nlohmann::ordered_json(solver::search_stop_name(found.stop))},
                 {"nodes", search.nodes()},
                 {"nodes_per_second", double(search.nodes()) / std::max(seconds, 1e-9)},
                 {"table_clears", search.table_clears()},
                 {"positions_stored", search.positions_stored()},
                 {"table_mb", double(search.table_bytes()) / double(1 << 20)}};
  j["seconds"] = seconds;
  j["peak_memory_mb"] = peak_memory_mb();
  if (r.position.json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

}  // namespace

void run_coalition_search(const CoalitionSearchRequest& r) {
  if (!r.max_depth) throw UsageError("--time-limit: only with --max-depth");
  if (!r.tables.empty()) throw UsageError("--max-depth searches forward and takes no --tables");
  with_capability<registry::Solver::coalition_values>(
      r.position.variant, [&](auto e) { search_position<decltype(e)>(r); });
}

}  // namespace app
