#include "rules/drop/claims/play_counts.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "rules/drop/claims/limits.h"
#include "solver/distinct_positions.h"
#include "solver/hashed_perft.h"
#include "solver/parallel_perft.h"
#include "solver/perft.h"
#include "solver/perft_table.h"
#include "solver/progress.h"

namespace solver::claims {

json exact_perft(const drop::Game& game, const ClaimsSettings& o) {
  json j;
  std::optional<PerftTable<drop::Key>> table;
  if (game.keys_fit()) table.emplace(std::min<std::uint64_t>(o.memory_mb << 20, 2ull << 30) / 2);
  std::vector<std::uint64_t> nodes{1};
  std::vector<double> seconds{0};
  for (int d = 1; d <= 64; ++d) {
    Progress progress("perft " + std::to_string(d), 0, "nodes", !o.quiet);
    const auto start = std::chrono::steady_clock::now();
    const auto divide = parallel_divide(
        game, game.start(), d, o.threads, progress, [&](drop::Position& p, int rest) {
          return table ? hashed_perft(game, p, rest, *table) : perft(game, p, rest);
        });
    nodes.push_back(checked_u64(divide.total()));
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    // The next depth costs at most about the branching factor times more (the table usually
    // saves much of that, but less and less as the tree outgrows it).
    const std::size_t n = nodes.size();
    const double branching =
        double(nodes[n - 1]) / double(std::max<std::uint64_t>(1, nodes[n - 2]));
    if (nodes.back() == 0 || seconds.back() * branching > kPerftStepSeconds) break;
  }
  j["nodes"] = nodes;
  j["seconds_per_depth"] = seconds;
  j["hashed"] = bool(table);
  return j;
}

json capture_breadth_first(const drop::Game& game, const json& perft, const json& probes,
                           const ClaimsSettings& o) {
  if (!game.keys_fit()) return without_exact_keys();
  json j;
  // Mean moves per position at ply k, from exact perft where known, else the probes' estimate.
  auto branching = [&](std::size_t k) {
    const auto& exact = perft["nodes"];
    if (k + 1 < exact.size() && exact[k].get<double>() > 0)
      return exact[k + 1].get<double>() / exact[k].get<double>();
    const auto& estimate = probes["perft_estimate"];
    if (k + 1 < estimate.size() && estimate[k].get<double>() > 0)
      return estimate[k + 1].get<double>() / estimate[k].get<double>();
    return 0.0;
  };
  for (const bool symmetric : {false, true}) {
    const char* name = symmetric ? "up_to_symmetry" : "positions";
    std::vector<std::uint64_t> found{1};
    bool stopped_by_memory = false;
    // Deepen one ply at a time from the root (the last ply dominates the cost) while the next
    // ply's predicted work stays within the budget.
    for (int ply = 1;; ++ply) {
      const double children = double(found.back()) * branching(found.size() - 1);
      if (children <= 0 || children > kAllPlayChildBudget) break;
      const auto counts =
          count_distinct_positions(game, game.start(), ply, o.memory_mb << 20, o.threads, !o.quiet,
                                   [&](const drop::Position& p) {
                                     return symmetric ? game.symmetric_key(p) : game.raw_key(p);
                                   });
      if (!counts.complete) {
        stopped_by_memory = true;
        break;
      }
      found = counts.per_ply;
      if (found.back() == 0) break;
    }
    j[name] = found;
    j[std::string(name) + "_stopped_by_memory"] = stopped_by_memory;
  }
  return j;
}

}  // namespace solver::claims
