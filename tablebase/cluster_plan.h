// A plan for solving a variant's tiers on a cluster, made by replaying the MPI solver's schedule
// (tier_schedule.h) over the variant's real tier graph in simulated time: which tiers run when, on
// how many nodes, with how much memory per node, how many bytes cross the network and how long it
// all takes at a measured sweep rate. It is a model, stated in full here so it can be argued with:
//
//  - A tier of at most `split_entries` entries runs on one node. A larger one is split into
//    ceil(entries / split_entries) contiguous index ranges on as many nodes (at most the
//    cluster), and more if its bytes and its children's do not fit the nodes' memory otherwise.
//  - The nodes solving a tier hold it and its children, each node an equal share, in the memory
//    the single-process solver needs at least: the tier and its largest child, the children
//    read from the shared file system in groups (Irving's Pentago design spreads a slice and the
//    slice it reads over all ranks the same way). A child read lands on another node with
//    probability (k - 1) / k and then costs a request and an answer over the network.
//  - A tier's time is its compute (entries / (nodes x cores x rate), the rate measured on this
//    machine) plus its network time (its share of the remote reads at the node's bandwidth) plus
//    its file time (children read and the tier written at the node's file-system bandwidth). No
//    overlap between them is assumed, which overstates the time.
//  - Ready tiers start greedily in the schedule's order (the heaviest chain of work first): each
//    ready tier that finds enough idle nodes starts, the others wait for nodes to come free.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "tablebase/tier_memory_plan.h"
#include "tablebase/tier_schedule.h"
#include "tablebase/tier_space.h"

namespace tablebase {

struct ClusterSpec {
  int nodes = 1;
  int cores_per_node = 1;
  std::uint64_t node_memory_bytes = std::uint64_t{1} << 30;
  std::uint64_t node_overhead_bytes = 0;      // the tier index and buffers, on every node
  double entries_per_core_second = 1e6;       // the sweep rate measured on one core
  bool value_only = false;                    // one bit an entry, else a DTE byte
  double child_reads_per_entry = 7;           // measured by the solver (tablebase/SOLVER.md)
  double bytes_per_remote_read = 9;           // an 8-byte index asked, its entry answered
  double network_bytes_per_second = 1e10;     // per node, each way
  double file_system_bytes_per_second = 1e9;  // per node
  std::uint64_t split_entries = ~std::uint64_t{0};
};

struct TierRun {
  int tier = 0;
  std::uint64_t entries = 0;
  int nodes = 1;
  double start = 0, finish = 0;  // seconds from the start of the run
  double compute_seconds = 0, network_seconds = 0, file_seconds = 0;
  std::uint64_t memory_per_node = 0;  // its share of the tier and its children
  double network_bytes = 0;           // all nodes together
  std::uint64_t file_bytes = 0;       // children read and the tier written
};

struct ClusterPlan {
  std::vector<TierRun> runs;  // in the order they started
  double seconds = 0;         // the last tier's finish
  double node_seconds_busy = 0;
  std::uint64_t peak_memory_per_node = 0;
  double network_bytes = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t table_bytes = 0;  // the table files uncompressed: a bit an entry, and its DTE byte
  int nodes = 1;
  int most_nodes_busy = 0;
  double busy_fraction() const {
    return seconds > 0 ? node_seconds_busy / (seconds * double(nodes)) : 0;
  }
};

// A tier (with its children) that does not fit even the whole cluster's memory.
class ClusterTooSmall : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace cluster_plan_detail {

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return a / b + (a % b != 0);
}

template <TierSpace S>
TierRun plan_tier(const S& space, const ClusterSpec& c, int t) {
  TierRun r;
  r.tier = t;
  r.entries = space.tier_size(t);
  // The solver's smallest workable memory (tier_memory_plan.h): the tier and its largest child,
  // the children read in groups of what fits; every child is read from the files once.
  std::uint64_t children_bytes = 0, largest_child = 0;
  for (int child : space.tier_children(t)) {
    const std::uint64_t b = tier_memory(space, child, c.value_only);
    children_bytes += b;
    largest_child = std::max(largest_child, b);
  }
  const std::uint64_t bytes = tier_memory(space, t, c.value_only) + largest_child;
  if (c.node_memory_bytes <= c.node_overhead_bytes)
    throw ClusterTooSmall("a node's memory does not hold the tier index and buffers");
  const std::uint64_t room = c.node_memory_bytes - c.node_overhead_bytes;
  const std::uint64_t for_memory = ceil_div(bytes, room);
  const std::uint64_t for_work = ceil_div(std::max<std::uint64_t>(r.entries, 1), c.split_entries);
  const std::uint64_t k =
      std::max({std::uint64_t{1}, for_memory, std::min<std::uint64_t>(for_work, c.nodes)});
  if (k > std::uint64_t(c.nodes))
    throw ClusterTooSmall("tier " + std::string(space.tier_name(t)) + " and its children need " +
                          std::to_string(bytes) + " bytes, more than " + std::to_string(c.nodes) +
                          " nodes hold");
  r.nodes = int(k);
  r.memory_per_node = ceil_div(bytes, k) + c.node_overhead_bytes;
  const double entries = double(r.entries);
  r.compute_seconds = entries / (double(k) * c.cores_per_node * c.entries_per_core_second);
  r.network_bytes =
      entries * c.child_reads_per_entry * double(k - 1) / double(k) * c.bytes_per_remote_read;
  r.network_seconds = r.network_bytes / double(k) / c.network_bytes_per_second;
  r.file_bytes = children_bytes + tier_memory(space, t, c.value_only);
  r.file_seconds = double(r.file_bytes) / double(k) / c.file_system_bytes_per_second;
  return r;
}

}  // namespace cluster_plan_detail

// Throws ClusterTooSmall when some tier cannot be placed; std::invalid_argument for a spec
// without nodes, cores or rate.
template <TierSpace S>
ClusterPlan plan_cluster_solve(const S& space, const ClusterSpec& c) {
  if (c.nodes < 1 || c.cores_per_node < 1 || !(c.entries_per_core_second > 0) ||
      c.split_entries == 0 || !(c.network_bytes_per_second > 0) ||
      !(c.file_system_bytes_per_second > 0))
    throw std::invalid_argument("a cluster needs nodes, cores, a rate and bandwidths above zero");
  const int n = space.tier_count();
  std::vector<TierRun> planned(n);
  for (int t = 0; t < n; ++t) planned[t] = cluster_plan_detail::plan_tier(space, c, t);

  TierSchedule schedule(space, std::vector<char>(n, 0));
  ClusterPlan plan;
  plan.nodes = c.nodes;
  std::vector<int> waiting;            // ready, not started: in the schedule's order
  std::multimap<double, int> running;  // finish time -> tier
  int idle = c.nodes;
  double now = 0;
  while (!schedule.all_finished()) {
    for (auto t = schedule.take(); t; t = schedule.take()) waiting.push_back(*t);
    // The schedule's own order: the heaviest first, of equal weights the earliest tier.
    std::sort(waiting.begin(), waiting.end(), [&](int a, int b) {
      return schedule.weight(a) != schedule.weight(b) ? schedule.weight(a) > schedule.weight(b)
                                                      : a < b;
    });
    for (auto it = waiting.begin(); it != waiting.end();) {
      TierRun& r = planned[*it];
      if (r.nodes > idle) {
        ++it;
        continue;
      }
      r.start = now;
      r.finish = now + r.compute_seconds + r.network_seconds + r.file_seconds;
      idle -= r.nodes;
      running.emplace(r.finish, *it);
      plan.runs.push_back(r);
      it = waiting.erase(it);
    }
    plan.most_nodes_busy = std::max(plan.most_nodes_busy, c.nodes - idle);
    if (running.empty()) throw std::logic_error("cluster plan: tiers wait but none runs");
    const auto [finish, t] = *running.begin();
    running.erase(running.begin());
    now = finish;
    idle += planned[t].nodes;
    schedule.finish(t);
  }
  plan.seconds = now;
  for (const TierRun& r : plan.runs) {
    plan.node_seconds_busy += (r.finish - r.start) * r.nodes;
    plan.peak_memory_per_node = std::max(plan.peak_memory_per_node, r.memory_per_node);
    plan.network_bytes += r.network_bytes;
    plan.file_bytes += r.file_bytes;
    plan.table_bytes += (r.entries * (c.value_only ? 1 : 9) + 7) / 8;
  }
  return plan;
}

}  // namespace tablebase
