// drop16 solve --max-depth for games with cycles (Spock, the rook race): the bounded forward search
// (solver/cyclic_search.h) of one position and each of its moves, for positions no solved row
// holds (the 5x5 start). What it cannot decide within the depth or the time is "unknown", never
// guessed: it proves wins and losses with their exact distances, never draws.
#include <chrono>
#include <iostream>

#include "app/cyclic_search.h"
#include "app/games.h"
#include "app/resources.h"
#include "rules/spock/material.h"
#include "solver/cyclic_search.h"

namespace app {

namespace {

void print_text(const nlohmann::ordered_json& j) {
  const auto in = [](const nlohmann::ordered_json& v) {
    return v["dte"].is_null() ? std::string() : " in " + v["dte"].dump();
  };
  const auto& s = j["search"];
  std::cout << j["fen"].get<std::string>() << ": " << j["value"].get<std::string>() << in(j);
  if (j["value"] == "unknown") std::cout << " (nothing forced within " << s["depth"] << " plies)";
  std::cout << "\n";
  for (const auto& m : j["moves"])
    std::cout << "  " << m["move"].get<std::string>() << "  " << m["value"].get<std::string>()
              << in(m) << "\n";
  std::cout << "searched " << s["depth"] << " of " << s["max_depth"] << " plies, " << s["nodes"]
            << " nodes";
  if (!s["stopped"].is_null())
    std::cout << ", stopped by the " << s["stopped"].get<std::string>() << " limit";
  std::cout << std::endl;
}

}  // namespace

namespace {

template <typename G>
void search_position(const CyclicSearchRequest& r, const GameSetup<G>& s,
                     const std::string& variant, std::chrono::steady_clock::time_point start) {
  solver::CyclicSearch<G> search(*s.game, r.memory_bytes);
  const auto a = search.analyze(s.position, {*r.max_depth, r.seconds.value_or(0)});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::ordered_json j;
  j["variant"] = variant;
  j["fen"] = fen_text(*s.game, s.position);
  j.update(bounded_value_json(a.value));
  j["moves"] = nlohmann::ordered_json::array();
  for (const auto& m : a.moves) {
    nlohmann::ordered_json move = {{"move", move_text(*s.game, m.move)}};
    move.update(bounded_value_json(m.value));
    j["moves"].push_back(move);
  }
  j["search"] = {{"max_depth", *r.max_depth},
                 // Every move's value (so the position's) is decided up to this many plies.
                 {"depth", a.depth},
                 {"stopped", a.stop == solver::SearchStop::none
                                 ? nlohmann::ordered_json(nullptr)
                                 : nlohmann::ordered_json(solver::search_stop_name(a.stop))},
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

void run_cyclic_search(const CyclicSearchRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  const std::string& variant = r.position.variant;
  if (!names_spock(variant) && !games::names_rookrace(variant))
    throw UsageError(
        "--max-depth, --time-limit: the bounded search is for games with cycles (--variant "
        "spock or rookrace); the Drop 16 family is solved exactly without them");
  if (!r.max_depth) throw UsageError("--time-limit: only with --max-depth");
  if (!r.tables.empty()) throw UsageError("--max-depth searches forward and takes no --tables");
  if (games::names_rookrace(variant)) {
    const auto s = games::rookrace_setup(variant, r.position.fen);
    return search_position(r, s, variant_name(*s.game), start);
  }
  const GameSetup<spock::Game> s = make_spock_setup(r.position);
  search_position(
      r, s,
      variant == kSpockVariant ? std::string(kSpockVariant) : spock::parse_material(variant).name(),
      start);
}

}  // namespace app
