// The options of drop16 solve, query and verify (app/cmd_solve.cpp parses them and dispatches each
// command through the registry to what the game declares), and the tier tables' part of the three
// commands (registry::Solver::tiers, TableFormat::tiers: value and DTE tables a file pair a tier,
// --value-only, --max-pieces, --mpi, verify --digest), declared here for the front end and
// defined by each game that has them (below).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/command.h"
#include "app/dice_player.h"
#include "tablebase/loopy_slices.h"  // kLoopySliceCpuMinutes

#if DROP16_MPI
#include "mpi/mpi_tier_manager.h"  // kDefaultSplitEntries
#endif

namespace app {

struct SolveOptions {
  PositionOptions position;
  std::string tables;
  double memory_gb = 0;
  int threads = 1;
  int zstd_level = 19;
  std::optional<int> max_pieces;  // tier tables: only tiers of at most this many pieces; none: all
  bool value_only = false;
  std::optional<int> max_depth;  // games with cycles: the bounded search instead of the retrograde
  std::optional<double> time_limit;
  bool mpi = false;   // the tables solved by the ranks of an mpirun (mpi/)
  bool plan = false;  // loopy tier tables: the memory plan printed, nothing solved
  // loopy tier tables: the CPU minutes a slice of a tier takes at most, about
  double slice_minutes = tablebase::kLoopySliceCpuMinutes;
  std::string format;  // of the tables written (games with more than one): empty for the default
  std::string engine;  // without --tables, games with loopy tier tables: empty to choose
#if DROP16_MPI
  std::uint64_t mpi_split_entries = mpi_solve::kDefaultSplitEntries;
#else
  std::uint64_t mpi_split_entries = 0;  // --mpi is refused without MPI
#endif
};

struct QueryOptions {
  PositionOptions position;
  std::string tables;
  std::string batch;  // --batch FILE: app/cmd_query_batch.cpp answers it
  bool value_only = false;
  // A game its dice player answers, without tables (dice_player.h).
  DicePlayerOptions dice;
};

struct VerifyOptions {
  PositionOptions position;
  std::string tables;
  std::uint64_t samples = 1000;
  std::uint64_t per_tier = 0;  // instead of samples: this many from each tier, or all it has
  std::uint64_t seed = 1;
  double memory_gb = 0;
  bool children = false;  // check against the children in the tables instead of a search
  std::uint64_t search_nodes = std::uint64_t{1} << 23;  // coalition tables: a question's budget
  bool digest = false;  // print each finished tier's value digest instead of sampling
  std::string against;  // with digest: an earlier run's JSON to compare the digests with
};

// The tier tables' part of the three commands, for the entry E of a game with tier tables
// (registry::Solver::tiers, TableFormat::tiers): defined by that game, as specializations for its
// entry in its commands/ folder (Drop 16's rules/drop/commands/tier_tables.cpp over its tier
// space), so that a game declaring tier tables without them fails to link, and no front end
// names a game's types.
//
// solve: with --tables the variant's tables (resumable; --mpi over ranks) and the position
// answered from them, else a DTE search.
template <typename E>
void run_tier_solve(const SolveOptions& o);
// query --tables DIR from tier tables (--batch: app/query_batch.h), with the probes timed.
template <typename E>
void run_tier_query(const CLI::App& cmd, const QueryOptions& o);
// verify of tier tables: random positions against the forward solver (or their children), or
// with --digest each finished tier's value digest.
template <typename E>
void run_tier_verify(const CLI::App& cmd, const VerifyOptions& o);

}  // namespace app
