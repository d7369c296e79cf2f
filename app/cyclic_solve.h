// `drop16 solve`, `query` and `verify` for the games whose play can cycle and whose values are
// wins, draws and losses (registry entries with the reachable retrograde, and tables of whole
// variants: Spock's keyed or loopy tiers, the rook race's loopy tiers): what the solve, query and
// verify commands hand over, and the roots of a whole variant, which solve and verify share.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/command.h"
#include "rules/registry.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/loopy_slices.h"
#include "tablebase/tables_found.h"

namespace app {

struct CyclicSolveRequest {
  PositionOptions position;
  // DIR: the whole variant's tables are written there, or loaded (keyed) or resumed (loopy
  // tiers: finished tiers skipped) from what an earlier run left
  std::string tables;
  std::uint64_t memory_bytes = 0;
  int threads = 1;  // the loopy tier solver's
  int zstd_level = 19;
  bool zstd_level_given = false;  // else the loopy tier solver takes its own default
  bool plan_only = false;         // loopy tier tables: print the solver's memory plan and stop
  // loopy tier tables: minutes of CPU a slice of a tier takes at most, about (what a stopped run
  // loses: tablebase/loopy_slices.h)
  double slice_minutes = tablebase::kLoopySliceCpuMinutes;
  bool slice_minutes_given = false;
  // The format --tables writes, as --format names it: empty for the game's default (keyed where
  // it has keyed tables, which take every variant; else loopy tiers).
  std::string format;
  // Without --tables, the engine --engine names: "tiers" (the row's loopy tier tables in a
  // temporary folder), "hash-map" (the reachable retrograde in memory), or empty to choose.
  std::string engine;
  // Loopy tier tables, under mpirun: the ranks solve the tiers together (mpi/mpi_loopy_solver.h).
  bool mpi = false;
};

void run_cyclic_solve(const CyclicSolveRequest& r);
// `drop16 query --tables DIR` for a whole variant's tables in DIR: the position's value and every
// move's, from the files alone; `variant_given` says whether --variant named the game (else DIR's
// tables do). Throws TableError for a file it cannot trust.
void run_cyclic_query(const PositionOptions& o, const std::string& dir, bool variant_given);

// A whole variant's game and the positions it starts from (everything reachable from them is what
// its tables hold).
template <typename G>
struct VariantRoots {
  std::unique_ptr<G> game;
  std::vector<typename G::Position> positions;
};

// The number of positions a whole variant starts from; throws UsageError naming what_for
// (--tables, --variant) when the variant is not whole.
template <registry::WholeVariantEntry E>
std::uint64_t whole_variant_root_count(const std::string& variant, const std::string& what_for) {
  const std::optional<std::uint64_t> count = E::root_count(variant);
  if (!count)
    throw UsageError(what_for + ": " + std::string(E::info.title) + "'s whole variants are " +
                     std::string(E::info.whole_variants) + ", not " + variant);
  return *count;
}

// The whole variant's roots (E::roots), listed only once it is known that they fit the memory
// cap; throws UsageError naming --memory when they alone would take memory_bytes or more, and
// naming --tables or --variant (with what_for) when the variant is not whole.
template <registry::WholeVariantEntry E>
VariantRoots<typename E::Game> whole_variant_roots(const std::string& variant,
                                                   std::uint64_t memory_bytes,
                                                   const std::string& what_for) {
  const std::uint64_t count = whole_variant_root_count<E>(variant, what_for);
  if (count >= memory_bytes / sizeof(typename E::Game::Position))
    throw UsageError("--memory: the " + std::to_string(count) + " positions " +
                     E::normalized(variant) + " starts from alone take more than " +
                     std::to_string(memory_bytes >> 20) + " MB");
  return {E::whole_game(variant), E::roots(variant)};
}

// Throws UsageError when DIR holds no keyed table of E's game, naming what it holds instead:
// "--tables DIR holds no table of Spock (no DIR/spock.wdl): it holds the tables of 2x2:NK
// (Drop 16)".
template <registry::KeyedEntry E>
void require_keyed_table(const std::string& dir) {
  if (tablebase::holds_keyed_table(dir, E::info.id)) return;
  const std::string held = tablebase::tables_held(dir);
  throw UsageError("--tables " + dir + " holds no table of " + std::string(E::info.title) +
                   " (no " + tablebase::keyed_table_file(dir, E::info.id).string() + ")" +
                   (held.empty() ? "; solve --tables DIR writes that of a whole variant: " +
                                       std::string(E::info.whole_variants)
                                 : ": it holds " + held));
}

}  // namespace app
