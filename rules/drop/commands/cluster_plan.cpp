// drop16 cluster-plan: the schedule, memory, traffic and time of a tier solve on a stated
// cluster, replayed over the variant's real tier graph (tablebase/cluster_plan.h has the model).
#include "tablebase/cluster_plan.h"

#include <chrono>
#include <fstream>
#include <iostream>

#include "app/command.h"
#include "app/games.h"
#include "rules/drop/game.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/size_text.h"

namespace drop {

namespace {

struct ClusterPlanOptions {
  app::PositionOptions position;
  tablebase::ClusterSpec spec;
  double node_memory_gb = 256;
  double overhead_gb = -1;  // default: this variant's tier index, as the solver holds it
  double network_gb_per_second = 10;
  double file_system_gb_per_second = 1;
  double split_entries = 0;  // none: split only when memory demands it
  std::optional<int> max_pieces;
  std::string tiers_out;
};

nlohmann::ordered_json run_json(const TierSpace& space, const tablebase::TierRun& r) {
  return {{"tier", space.tier_name(r.tier)},
          {"entries", r.entries},
          {"nodes", r.nodes},
          {"start_s", r.start},
          {"finish_s", r.finish},
          {"compute_s", r.compute_seconds},
          {"network_s", r.network_seconds},
          {"file_s", r.file_seconds},
          {"memory_per_node_bytes", r.memory_per_node},
          {"network_bytes", r.network_bytes},
          {"file_bytes", r.file_bytes}};
}

void run_cluster_plan(const CLI::App& cmd, ClusterPlanOptions o) {
  const auto s = app::own_setup<Entry>(cmd, o.position);
  if (o.position.fen)
    throw app::UsageError("cluster-plan plans a variant's tables: --fen does not apply");
  const auto started = std::chrono::steady_clock::now();
  const TierSpace space(*s.game, true, o.max_pieces.value_or(TierLayout::kAllPieces));
  const double index_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  tablebase::ClusterSpec& c = o.spec;
  c.node_memory_bytes = app::gigabytes_to_bytes(o.node_memory_gb);
  c.node_overhead_bytes = o.overhead_gb < 0 ? space.memory_bytes() + tablebase::kIoBufferBytes
                                            : app::gigabytes_to_bytes(o.overhead_gb);
  if (o.split_entries > 0) c.split_entries = std::uint64_t(o.split_entries);
  c.network_bytes_per_second = o.network_gb_per_second * 1e9;
  c.file_system_bytes_per_second = o.file_system_gb_per_second * 1e9;
  tablebase::ClusterPlan plan;
  try {
    plan = tablebase::plan_cluster_solve(space, c);
  } catch (const tablebase::ClusterTooSmall& e) {
    throw app::UsageError(std::string("cluster-plan: ") + e.what());
  }
  if (!o.tiers_out.empty()) {
    std::ofstream out(o.tiers_out);
    for (const auto& r : plan.runs) out << run_json(space, r).dump() << "\n";
    if (!out) throw std::runtime_error("cluster-plan: could not write " + o.tiers_out);
  }
  std::uint64_t split = 0, largest = 0;
  const tablebase::TierRun* longest = nullptr;
  for (const auto& r : plan.runs) {
    split += r.nodes > 1;
    largest = std::max(largest, r.entries);
    if (!longest || r.finish - r.start > longest->finish - longest->start) longest = &r;
  }
  nlohmann::ordered_json j;
  j["variant"] = space.variant_name();
  j["value_only"] = c.value_only;
  j["tiers"] = space.tier_count();
  j["positions"] = space.total_positions();
  j["stored_entries"] = space.stored_positions();
  j["largest_tier_entries"] = largest;
  j["tiers_split"] = split;
  j["cluster"] = {{"nodes", c.nodes},
                  {"cores_per_node", c.cores_per_node},
                  {"node_memory_bytes", c.node_memory_bytes},
                  {"node_overhead_bytes", c.node_overhead_bytes},
                  {"entries_per_core_second", c.entries_per_core_second},
                  {"child_reads_per_entry", c.child_reads_per_entry},
                  {"bytes_per_remote_read", c.bytes_per_remote_read},
                  {"network_bytes_per_second", c.network_bytes_per_second},
                  {"file_system_bytes_per_second", c.file_system_bytes_per_second},
                  {"split_entries", c.split_entries}};
  j["wall_seconds"] = plan.seconds;
  j["busy_fraction"] = plan.busy_fraction();
  j["most_nodes_busy"] = plan.most_nodes_busy;
  j["peak_memory_per_node_bytes"] = plan.peak_memory_per_node;
  j["network_bytes"] = plan.network_bytes;
  j["file_bytes"] = plan.file_bytes;
  j["table_bytes_uncompressed"] = plan.table_bytes;
  if (longest) j["longest_tier"] = run_json(space, *longest);
  j["index_seconds"] = index_seconds;
  if (o.position.json) {
    std::cout << j.dump() << std::endl;
    return;
  }
  std::cout << space.variant_name() << ": " << space.tier_count() << " tiers, "
            << space.stored_positions() << " stored entries, " << split << " tiers split\n"
            << "on " << c.nodes << " nodes of " << c.cores_per_node << " cores and "
            << solver::size_text(c.node_memory_bytes) << ": " << plan.seconds / 3600
            << " hours, nodes busy " << 100 * plan.busy_fraction() << "% of the time\n"
            << "peak memory per node " << solver::size_text(plan.peak_memory_per_node)
            << ", network " << plan.network_bytes / 1e12 << " TB, file system "
            << double(plan.file_bytes) / 1e12 << " TB, tables " << double(plan.table_bytes) / 1e12
            << " TB uncompressed\n";
}

void add_cluster_plan(CLI::App& app) {
  auto o = std::make_shared<ClusterPlanOptions>();
  CLI::App* cmd = app.add_subcommand(
      "cluster-plan",
      "plan a tier solve on a cluster: the MPI schedule replayed over the variant's real tiers "
      "at a measured rate (schedule, memory per node, network and file bytes, wall time)");
  app::add_position_options(*cmd, o->position);
  const auto positive = CLI::PositiveNumber;
  cmd->add_option("--nodes", o->spec.nodes, "nodes (MPI ranks)")
      ->check(CLI::Range(1, 1 << 24))
      ->capture_default_str();
  cmd->add_option("--cores", o->spec.cores_per_node, "cores per node")
      ->check(CLI::Range(1, 1 << 16))
      ->capture_default_str();
  cmd->add_option("--node-memory", o->node_memory_gb, "memory per node, GB")
      ->check(positive)
      ->capture_default_str();
  cmd->add_option("--node-overhead", o->overhead_gb,
                  "memory per node taken by the index and buffers, GB (default: this variant's "
                  "tier index as the solver holds it)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--rate", o->spec.entries_per_core_second,
                  "stored entries solved per core second, as measured by solve (--json: "
                  "tables.stored_positions / solver::cpu_seconds)")
      ->required()
      ->check(positive);
  cmd->add_option("--child-reads", o->spec.child_reads_per_entry,
                  "children read per entry, as measured (tablebase/SOLVER.md)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--network", o->network_gb_per_second, "network bandwidth per node, GB/s")
      ->check(positive)
      ->capture_default_str();
  cmd->add_option("--file-system", o->file_system_gb_per_second,
                  "file-system bandwidth per node, GB/s")
      ->check(positive)
      ->capture_default_str();
  cmd->add_option("--split-entries", o->split_entries,
                  "split a tier of more entries than this over ceil(entries / this) nodes "
                  "(default: only when memory demands it)")
      ->check(CLI::Range(1.0, 1e19));
  cmd->add_flag("--value-only", o->spec.value_only, "tables of values alone (one bit an entry)");
  cmd->add_option("--max-pieces", o->max_pieces, "only the tiers of at most this many pieces")
      ->check(CLI::Range(0, 128));
  cmd->add_option("--tiers-out", o->tiers_out, "write every tier's run, one JSON line each");
  cmd->callback([cmd, o] { run_cluster_plan(*cmd, *o); });
}

[[maybe_unused]] const bool kClusterPlanAdded =
    app::add_game_command({&Entry::info, "cluster-plan", add_cluster_plan});

}  // namespace

}  // namespace drop
