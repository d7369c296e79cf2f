// drop16 solve for the games valued per coalition of players (app/coalition_solve.h): the
// coalition solver (solver/coalition_solve.h) over every position reachable from the asked one,
// then that position's value for every coalition, named by the entry's players.
//
// --memory holds for the process's resident memory: what it holds before the solve is measured
// and the rest is the solver's counted cap (solver/counted_memory.h). The positions reachable are
// not known before they are explored, so the exploration is stopped at the first growth that would
// pass the cap (the message says how many positions and links it had reached); the labelling takes
// all its arrays before its first step, so a solve whose labelling does not fit is refused before
// it labels anything.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "app/coalition_solve.h"
#include "app/games.h"
#include "app/resources.h"
#include "solver/coalition_solve.h"
#include "solver/counted_memory.h"
#include "solver/size_text.h"
#include "solver/wdl.h"
#include "tablebase/coalition_json.h"

namespace app {

namespace {

// "white+green": a coalition by the entry's players' names.
template <registry::CoalitionEntry E>
std::string coalition_name(std::uint32_t s) {
  return tablebase::coalition_name(E::kPlayers, s);
}

template <registry::CoalitionEntry E>
nlohmann::ordered_json solution_json(const solver::CoalitionSolution& solution) {
  const solver::CoalitionSolveReport& r = solution.report;
  const int longest =
      *std::max_element(r.longest_wins.begin(), r.longest_wins.end());  // -1: no win anywhere
  nlohmann::ordered_json splits = nlohmann::ordered_json::array();
  const std::uint32_t everyone = (1u << r.players) - 1;
  for (const solver::CoalitionTally& t : r.splits)
    splits.push_back({{"coalition", coalition_name<E>(t.coalition)},
                      {"against", coalition_name<E>(everyone & ~t.coalition)},
                      {"wins", t.wins},
                      {"draws", t.draws},
                      {"losses", t.losses},
                      {"longest_win", t.longest_win},
                      {"longest_loss", t.longest_loss}});
  return {{"positions", r.positions},
          {"moves", r.moves},
          {"links", r.links},
          {"renamings", r.renamings},
          {"coalition_classes", r.coalition_classes},
          {"kingmakers", r.kingmakers},
          {"longest_forced_win", tablebase::distance_json(longest)},
          {"splits", splits},
          {"counted_peak_mb", double(r.peak_bytes) / double(1 << 20)},
          {"explore_seconds", r.explore_seconds},
          {"solve_seconds", r.solve_seconds}};
}

// Each coalition's value at the asked position, and its longest forced win anywhere reached.
template <registry::CoalitionEntry E>
nlohmann::ordered_json coalitions_json(const solver::CoalitionSolution& solution) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const std::uint32_t s : tablebase::coalitions_by_size(solution.report.players)) {
    nlohmann::ordered_json c =
        tablebase::coalition_value_json(E::kPlayers, s, solution.root_values[s]);
    c["longest_win"] = tablebase::distance_json(solution.report.longest_wins[s]);
    out.push_back(c);
  }
  return out;
}

void print_text(const nlohmann::ordered_json& j) {
  const auto& s = j["solved"];
  std::cout << j["variant"].get<std::string>() << ": " << s["positions"]
            << " positions reached (up to symmetry), " << s["links"] << " links, "
            << s["kingmakers"] << " kingmaker positions; longest forced win "
            << (s["longest_forced_win"].is_null() ? "none"
                                                  : s["longest_forced_win"].dump() + " plies")
            << "\n";
  print_coalition_values(j);
  std::cout << "solved in " << j["seconds"].get<double>() << " s, peak memory "
            << j["peak_memory_mb"].get<double>() << " MB" << std::endl;
}

template <registry::CoalitionEntry E>
void solve_position(const CoalitionSolveRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  const PositionOptions& o = r.position;
  const auto s = E::setup(o.variant, o.fen);
  const auto& game = *s.game;
  const std::uint64_t memory = coalition_memory(game.keys_fit(), game.key_bits(), r.memory_bytes);
  solver::CoalitionSolution solution;
  try {
    solution = solver::solve_coalitions(game, s.position, {memory, !o.quiet});
  } catch (const solver::CyclicMemoryError& e) {
    throw UsageError(std::string(e.what()) + " (raise --memory)");
  }
  nlohmann::ordered_json j = coalition_position_json<E>(game, s.position);
  j["coalitions"] = coalitions_json<E>(solution);
  add_winning_coalitions(j);
  j["solved"] = solution_json<E>(solution);
  j["memory_mb"] = double(r.memory_bytes) / double(1 << 20);
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["peak_memory_mb"] = peak_memory_mb();
  if (o.json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

}  // namespace

std::uint64_t coalition_memory(bool keys_fit, int key_bits, std::uint64_t memory_bytes) {
  if (!keys_fit)
    throw UsageError("solve: this variant's positions need " + std::to_string(key_bits) +
                     " bits, more than the 128-bit exact keys the solvers hold them by");
  const std::uint64_t resident = resident_bytes();
  if (resident >= memory_bytes)
    throw UsageError("--memory: this process holds " + solver::size_text(resident) +
                     " before solving, more than " + solver::size_text(memory_bytes) +
                     " (raise --memory)");
  return memory_bytes - resident;
}

void add_winning_coalitions(nlohmann::ordered_json& j) {
  j["winning_coalitions"] = nlohmann::ordered_json::array();
  for (const auto& c : j["coalitions"])
    if (c["value"] == "win") j["winning_coalitions"].push_back(c["coalition"]);
}

void print_coalition_values(const nlohmann::ordered_json& j) {
  std::cout << j["fen"].get<std::string>() << ": "
            << (j["to_move"].is_null() ? "the game is over"
                                       : j["to_move"].get<std::string>() + " to move")
            << "\n";
  std::size_t width = 0;
  for (const auto& c : j["coalitions"])
    width = std::max(width, c["coalition"].get<std::string>().size());
  for (const auto& c : j["coalitions"]) {
    const std::string name = c["coalition"].get<std::string>();
    std::cout << "  " << name << std::string(width - name.size() + 2, ' ')
              << c["value"].get<std::string>()
              << (c["distance"].is_null() ? "" : " in " + c["distance"].dump()) << "\n";
  }
  std::cout << "winning coalitions:";
  for (const auto& c : j["winning_coalitions"]) std::cout << " " << c.get<std::string>();
  std::cout << (j["winning_coalitions"].empty() ? " none" : "") << "\n";
}

void run_coalition_solve(const CoalitionSolveRequest& r) {
  with_capability<registry::Solver::coalition_values>(
      r.position.variant, [&](auto e) { solve_position<decltype(e)>(r); });
}

}  // namespace app
