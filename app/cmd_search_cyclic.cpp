// drop16 solve --max-depth for games with cycles (registry entries with the bounded search): the
// bounded forward search (solver/cyclic_search.h) of one position and each of its moves, for
// positions no table holds (Spock's 5x5 start, the 8x8 rook race). What it cannot decide within the
// depth or the time is "unknown", never guessed: it proves wins and losses with their exact
// distances, never draws.
#include <chrono>
#include <iostream>

#include "app/analysis_text.h"
#include "app/cyclic_search.h"
#include "app/games.h"
#include "app/resources.h"
#include "app/search_report.h"
#include "solver/cyclic_search.h"
#include "tablebase/analysis_json.h"

namespace app {

namespace {

void print_text(const nlohmann::ordered_json& j) {
  const auto& s = j["search"];
  print_analysis_text(j, j["value"] == "unknown"
                             ? " (nothing forced within " + s["depth"].dump() + " plies)"
                             : std::string());
  print_search_line(s);
}

}  // namespace

namespace {

template <typename E, typename G = typename E::Game>
void search_position(const BoundedSearchRequest& r, std::chrono::steady_clock::time_point start) {
  const auto s = E::setup(r.position.variant, r.position.fen);
  solver::CyclicSearch<G> search(*s.game, r.memory_bytes);
  const auto a = solver::with_search_progress(
      search, "search", std::uint64_t(r.max_depth), !r.position.quiet, [&] {
        return search.analyze(s.position, {r.max_depth, r.seconds.value_or(0)});
      });

  std::vector<tablebase::MoveValue> moves;
  for (const auto& m : a.moves)
    moves.push_back({registry::move_text<E>(*s.game, s.position, m.move), m.value});
  nlohmann::ordered_json j = tablebase::analysis_json(E::normalized(r.position.variant),
                                                      E::fen(*s.game, s.position), a.value, moves);
  // Every move's value (so the position's) is decided up to a.depth plies.
  add_search_report(j, search, r.max_depth, a.depth, a.stop, start);
  if (r.position.json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

}  // namespace

void run_cyclic_search(const BoundedSearchRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  with_capability<registry::Solver::bounded_search>(
      r.position.variant, [&](auto e) { search_position<decltype(e)>(r, start); });
}

}  // namespace app
