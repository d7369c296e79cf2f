#include "tablebase/cluster_plan.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/solve/tier_space.h"
#include "tests/drop16_process.h"

namespace {

using tablebase::ClusterSpec;
using tablebase::TierRun;

// Networks and disks so fast that only compute counts.
ClusterSpec compute_only(int nodes) {
  ClusterSpec c;
  c.nodes = nodes;
  c.cores_per_node = 2;
  c.node_memory_bytes = std::uint64_t{1} << 40;
  c.entries_per_core_second = 1000;
  c.network_bytes_per_second = 1e300;
  c.file_system_bytes_per_second = 1e300;
  return c;
}

std::map<int, TierRun> by_tier(const tablebase::ClusterPlan& plan) {
  std::map<int, TierRun> runs;
  for (const TierRun& r : plan.runs) runs[r.tier] = r;
  return runs;
}

// Every tier runs once, after all its children, and no moment has more nodes busy than exist.
void check_feasible(const drop::TierSpace& space, const tablebase::ClusterPlan& plan, int nodes) {
  const auto runs = by_tier(plan);
  REQUIRE(int(plan.runs.size()) == space.tier_count());
  REQUIRE(int(runs.size()) == space.tier_count());
  for (const auto& [t, r] : runs) {
    INFO("tier " << space.tier_name(t));
    CHECK(r.finish >= r.start);
    for (int c : space.tier_children(t)) CHECK(runs.at(c).finish <= r.start);
  }
  for (const TierRun& r : plan.runs) {
    int busy = 0;
    for (const TierRun& o : plan.runs)
      if (o.start <= r.start && r.start < o.finish) busy += o.nodes;
    CHECK(busy <= nodes);
  }
}

// The longest chain of tier times through the tier graph: what any schedule with enough nodes
// needs, found here by a plain pass over the tiers instead of by the simulation.
double critical_path(const drop::TierSpace& space, const std::map<int, TierRun>& runs) {
  std::vector<double> done(space.tier_count(), 0);
  double longest = 0;
  for (int t = 0; t < space.tier_count(); ++t) {  // children come before parents
    double ready = 0;
    for (int c : space.tier_children(t)) ready = std::max(ready, done[c]);
    const TierRun& r = runs.at(t);
    done[t] = ready + (r.finish - r.start);
    longest = std::max(longest, done[t]);
  }
  return longest;
}

}  // namespace

TEST_CASE("a cluster plan replays the schedule: on one node the sum, on many the critical path",
          "[cluster_plan]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  const drop::TierSpace space(game);
  const auto one = tablebase::plan_cluster_solve(space, compute_only(1));
  check_feasible(space, one, 1);
  double work = 0;
  for (int t = 0; t < space.tier_count(); ++t) work += double(space.tier_size(t)) / 2000;
  CHECK(one.seconds == Approx(work));
  CHECK(one.busy_fraction() == Approx(1));
  CHECK(one.network_bytes == 0);

  // On one node the tiers run in the order the MPI manager hands them out.
  tablebase::TierSchedule schedule(space, std::vector<char>(space.tier_count(), 0));
  for (const TierRun& r : one.runs) {
    const auto t = schedule.take();
    REQUIRE(t);
    CHECK(*t == r.tier);
    schedule.finish(*t);
  }

  const auto many = tablebase::plan_cluster_solve(space, compute_only(space.tier_count()));
  check_feasible(space, many, space.tier_count());
  CHECK(many.seconds == Approx(critical_path(space, by_tier(many))));
  CHECK(many.seconds < one.seconds);

  const auto three = tablebase::plan_cluster_solve(space, compute_only(3));
  check_feasible(space, three, 3);
  CHECK(three.most_nodes_busy == 3);
  CHECK(three.seconds >= many.seconds);
  CHECK(three.seconds <= one.seconds);
}

TEST_CASE("a cluster plan splits the tiers that are too big, and refuses a cluster too small",
          "[cluster_plan]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  const drop::TierSpace space(game);
  std::uint64_t largest = 0;
  for (int t = 0; t < space.tier_count(); ++t) largest = std::max(largest, space.tier_size(t));

  ClusterSpec c = compute_only(8);
  c.split_entries = largest / 4;
  c.network_bytes_per_second = 1e6;
  const auto split = tablebase::plan_cluster_solve(space, c);
  check_feasible(space, split, 8);
  bool some_split = false;
  for (const TierRun& r : split.runs) {
    const std::uint64_t parts = (r.entries + c.split_entries - 1) / c.split_entries;
    CHECK(r.nodes == int(std::min<std::uint64_t>(std::max<std::uint64_t>(parts, 1), 8)));
    if (r.nodes > 1) {
      some_split = true;
      // Each child read lands on another node with probability (k - 1) / k.
      CHECK(r.network_bytes == Approx(double(r.entries) * c.child_reads_per_entry * (r.nodes - 1) /
                                      r.nodes * c.bytes_per_remote_read));
      CHECK(r.network_seconds > 0);
    } else {
      CHECK(r.network_bytes == 0);
    }
  }
  CHECK(some_split);

  // Memory alone forces a split: nodes that hold a quarter of the largest tier and its children.
  ClusterSpec small = compute_only(64);
  std::uint64_t most = 0;
  for (int t = 0; t < space.tier_count(); ++t) {
    std::uint64_t largest_child = 0;
    for (int ch : space.tier_children(t))
      largest_child = std::max(largest_child, tablebase::tier_memory(space, ch));
    most = std::max(most, tablebase::tier_memory(space, t) + largest_child);
  }
  small.node_memory_bytes = most / 4 + 1;
  const auto by_memory = tablebase::plan_cluster_solve(space, small);
  check_feasible(space, by_memory, 64);
  CHECK(by_memory.peak_memory_per_node <= small.node_memory_bytes);
  int widest = 0;
  for (const TierRun& r : by_memory.runs) widest = std::max(widest, r.nodes);
  CHECK(widest >= 4);

  small.nodes = 2;
  CHECK_THROWS_AS(tablebase::plan_cluster_solve(space, small), tablebase::ClusterTooSmall);
  small.nodes = 0;
  CHECK_THROWS_AS(tablebase::plan_cluster_solve(space, small), std::invalid_argument);
}

TEST_CASE("drop16 cluster-plan prints a plan, and refuses bad input with exit 2",
          "[cluster_plan][cli]") {
  const auto ok = test_support::run_drop16({"cluster-plan", "--variant", "3x3:NBRK", "--nodes", "4",
                                            "--cores", "2", "--rate", "1e6", "--json"});
  REQUIRE(ok.status == 0);
  const auto j = nlohmann::json::parse(ok.out);
  CHECK(j["tiers"].get<int>() > 1);
  CHECK(j["wall_seconds"].get<double>() > 0);
  CHECK(test_support::run_drop16({"cluster-plan", "--variant", "3x3:NBRK", "--rate", "0"}).status ==
        2);
  CHECK(test_support::run_drop16({"cluster-plan", "--variant", "3x3:NBRK"}).status == 2);
  CHECK(test_support::run_drop16({"cluster-plan", "--variant", "3x3:NBRK", "--rate", "1e6", "--fen",
                                  "1N1/3/3[nbrkBRK] w"})
            .status == 2);
  CHECK(test_support::run_drop16(
            {"cluster-plan", "--variant", "3x3:NBRK", "--rate", "1e6", "--node-memory", "0.000001"})
            .status == 2);
}
