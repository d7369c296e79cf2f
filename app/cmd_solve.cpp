// drop16 solve / query / verify: values and distances to end, by forward search or from tables.
// Each dispatches once, through the registry (app/games.h), to what the game declares: its tier
// tables (table_commands.h), its reachable retrograde and tables of whole variants
// (app/cmd_solve_cyclic.cpp, cmd_verify_cyclic.cpp), its bounded search (cmd_search_cyclic.cpp) or
// its dice player (dice_player.h).
//   solve  --tables DIR builds every table of the variant (resumable) and answers from them;
//          without --tables a DTE search (solver/dte_search.h) answers alone.
//   query  answers from tables only, and times its probes.
//   verify re-solves random tabled positions with the forward solver and compares.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "app/coalition_solve.h"
#include "app/command.h"
#include "app/cyclic_search.h"
#include "app/cyclic_solve.h"
#include "app/dice_player.h"
#include "app/games.h"
#include "app/query_batch.h"
#include "app/resources.h"
#include "app/table_commands.h"
#include "app/table_solve_faults.h"
#include "solver/cyclic_search.h"
#include "tablebase/game_tables.h"
#include "tablebase/tables_found.h"

namespace app {

namespace {

void run_solve(const CLI::App& cmd, const SolveOptions& o) {
  with_entry<registry::Command::solve>(cmd, o.position.variant, [&](auto e) {
    using E = decltype(e);
    const std::uint64_t memory = gigabytes_to_bytes(o.memory_gb);
    if (o.max_depth || o.time_limit) {  // only games with a bounded search get here
      if (!o.max_depth) throw UsageError("--time-limit: only with --max-depth");
      if (!o.tables.empty()) throw UsageError("--max-depth searches forward and takes no --tables");
      if constexpr (E::info.solvers.has(registry::Solver::coalition_values))
        return run_coalition_search({o.position, *o.max_depth, o.time_limit, memory});
      else
        return run_cyclic_search({o.position, *o.max_depth, o.time_limit, memory});
    }
    if constexpr (E::info.solvers.has(registry::Solver::reachable_retrograde))
      run_cyclic_solve({o.position, o.tables, memory, o.threads, o.zstd_level,
                        cmd.count("--zstd-level") > 0, o.plan, o.slice_minutes,
                        cmd.count("--slice-minutes") > 0, o.format, o.engine, o.mpi});
    else if constexpr (E::info.solvers.has(registry::Solver::tiers))
      run_tier_solve<E>(o);
    else if constexpr (E::info.solvers.has(registry::Solver::coalition_values))
      run_coalition_solve({o.position, memory, o.tables, o.zstd_level,
                           cmd.count("--zstd-level") > 0, o.threads, o.format, o.mpi});
    else
      static_assert(E::info.solvers.has(registry::Solver::reachable_retrograde),
                    "a game declaring solve needs a solver it runs: reachable-retrograde, tiers "
                    "or coalition-values");
  });
}

// --- query ---

// The variant a tables command serves: --variant's, else the one the tables in DIR are of.
std::string variant_for_tables(const CLI::App& cmd, const PositionOptions& o,
                               const std::string& dir) {
  return cmd.count("--variant") || dir.empty() ? o.variant : tablebase::tables_variant_in(dir);
}

void run_query(const CLI::App& cmd, const QueryOptions& o) {
  PositionOptions position = o.position;
  position.variant = variant_for_tables(cmd, o.position, o.tables);
  with_entry<registry::Command::query>(cmd, position.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (E::info.solvers.has(registry::Solver::dice_player)) {
      if (cmd.count("--tables") || cmd.count("--batch"))
        throw UsageError(std::string(E::info.title) +
                         "'s query answers by its player and takes neither --tables nor --batch");
      run_dice_player_query<E>(position, o.dice);
    } else {
      if (o.tables.empty()) throw UsageError("query needs --tables DIR");
      if constexpr (tablebase::has_whole_variant_tables<E>()) {
        if (cmd.count("--batch"))
          return run_query_batch({position.variant, o.tables, o.batch, o.value_only});
        run_cyclic_query(position, o.tables, cmd.count("--variant") > 0);
      } else if constexpr (E::info.tables.has(registry::TableFormat::coalitions)) {
        run_coalition_query(position, o.tables, cmd.count("--variant") > 0);
      } else if constexpr (E::info.tables.has(registry::TableFormat::tiers)) {
        run_tier_query<E>(cmd, o);
      } else {
        static_assert(E::info.tables.has(registry::TableFormat::tiers),
                      "a game declaring query needs what it answers from: the dice player, or "
                      "tables of whole variants, coalition tables or tier tables");
      }
    }
  });
}

// --- verify ---

void run_verify(const CLI::App& cmd, const VerifyOptions& o) {
  PositionOptions position = o.position;
  position.variant = variant_for_tables(cmd, o.position, o.tables);
  with_entry<registry::Command::verify>(cmd, position.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (E::info.solvers.has(registry::Solver::reachable_retrograde))
      run_cyclic_verify({position, o.tables, o.samples, o.seed, gigabytes_to_bytes(o.memory_gb),
                         o.children, o.digest, o.against});
    else if constexpr (E::info.tables.has(registry::TableFormat::coalitions)) {
      if (o.tables.empty())
        throw UsageError("--tables: verify checks " + std::string(E::info.title) +
                         "'s coalition tables; give their directory");
      run_coalition_verify({position, o.tables, o.samples, o.seed, gigabytes_to_bytes(o.memory_gb),
                            o.children, o.search_nodes, o.digest, o.against});
    } else if constexpr (E::info.tables.has(registry::TableFormat::tiers))
      run_tier_verify<E>(cmd, o);
    else
      static_assert(E::info.tables.has(registry::TableFormat::tiers),
                    "a game declaring verify needs what it checks: the reachable retrograde, "
                    "coalition tables or tier tables");
  });
}

// For the commands that only read tables: a file they cannot trust (damaged, truncated, another
// tier's or variant's) is bad input, exit status 2 with the file named, as for solve.
template <typename Run>
void refusing_bad_tables(const Run& run) {
  try {
    run();
  } catch (const tablebase::TableError& e) {
    throw UsageError(e.what());
  }
}

// What the options some games lack need (command.h, only_for).
OptionNeed tier_tables() {
  return {.solvers = {registry::Solver::tiers}, .what = "tier tables"};
}
// --mpi: the tiers of any tier solver go to the ranks.
// verify --digest: tables of any tier format.
OptionNeed tables_by_tier() {
  return {.tables = {registry::TableFormat::tiers, registry::TableFormat::loopy_tiers,
                     registry::TableFormat::coalition_tiers},
          .what = "tier tables (Drop 16's, loopy or coalition tier tables)"};
}
OptionNeed ranked_tier_tables() {
  return {.solvers = {registry::Solver::tiers},
          .tables = {registry::TableFormat::loopy_tiers, registry::TableFormat::coalition_tiers},
          .what = "tier tables (Drop 16's, loopy or coalition tier tables)"};
}
OptionNeed bounded_search() {
  // Every game solved by coalitions has the forward search per coalition too.
  return {.solvers = {registry::Solver::bounded_search, registry::Solver::coalition_values},
          .what = "a bounded forward search"};
}
OptionNeed coalition_tables() {
  return {.tables = {registry::TableFormat::coalitions}, .what = "coalition tables"};
}
OptionNeed loopy_tier_tables() {
  return {.tables = {registry::TableFormat::loopy_tiers}, .what = "loopy tier tables"};
}
OptionNeed tables_of_two_formats() {
  return {.tables = {registry::TableFormat::loopy_tiers, registry::TableFormat::coalition_tiers},
          .what = "tables in more than one format"};
}
OptionNeed tables_on_disk() {
  return {.tables = {registry::TableFormat::tiers, registry::TableFormat::keyed,
                     registry::TableFormat::loopy_tiers, registry::TableFormat::coalitions,
                     registry::TableFormat::coalition_tiers},
          .what = "tables on disk"};
}
// query --batch answers one value and distance a line: tables of a side to move's values.
OptionNeed tables_of_one_value() {
  return {.tables = {registry::TableFormat::tiers, registry::TableFormat::keyed,
                     registry::TableFormat::loopy_tiers},
          .what = "tables of one value a position (query --batch)"};
}

CLI::Option* add_tables_option(CLI::App& cmd, std::string& dir, bool required) {
  auto* option = cmd.add_option("--tables", dir, "directory of the variant's table files");
  if (required) option->required();
  return option;
}

}  // namespace

void register_solve(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  CLI::App* cmd = app.add_subcommand(
      "solve",
      "value of a position: builds every table of the variant with --tables (resumable), "
      "else searches forward");
  add_position_options(*cmd, o->position);
  only_for(add_tables_option(*cmd, o->tables, false), tables_on_disk());
  add_memory_option(*cmd, o->memory_gb);
  add_threads_option(*cmd, o->threads);
  only_for(cmd->add_option("--zstd-level", o->zstd_level,
                           "compression level of the table files (default 19; loopy tier "
                           "tables 8)")
               ->check(CLI::Range(1, 22)),
           tables_on_disk());
  only_for(cmd->add_flag("--plan", o->plan,
                         "with --tables: print how the solve would hold its tiers within "
                         "--memory and --slice-minutes (whole, or a slice of blocks at a time), "
                         "what it needs and what it writes, and solve nothing")
               ->needs("--tables"),
           loopy_tier_tables());
  only_for(cmd->add_option("--slice-minutes", o->slice_minutes,
                           "with --tables: a tier is solved in slices of blocks of at most about "
                           "this many minutes of CPU each, each written as it finishes: what a "
                           "stopped solve loses")
               ->check(CLI::Range(0.001, 1e6))
               ->capture_default_str()
               ->needs("--tables"),
           loopy_tier_tables());
  only_for(cmd->add_option("--format", o->format,
                           "with --tables: the tables' format, for a game that has two: keyed or "
                           "coalitions (the default: every variant), or loopy-tiers or "
                           "coalition-tiers (the variants its tier space indexes, in a few bytes a "
                           "position)")
               ->needs("--tables"),
           tables_of_two_formats());
  only_for(cmd->add_option("--engine", o->engine,
                           "without --tables: tiers (the row's loopy tier tables in a temporary "
                           "folder, removed after: a byte or two a position; the default without "
                           "--fen) or hash-map (every position reached from the asked one in "
                           "memory, a few hundred bytes each; the default with --fen)")
               ->check(CLI::IsMember({"tiers", "hash-map"}))
               ->excludes("--tables"),
           loopy_tier_tables());
  only_for(cmd->add_option("--max-pieces", o->max_pieces,
                           "endgame tables: only the tiers of at most this many pieces in play "
                           "(hands and board); default all")
               ->check(CLI::Range(0, 128)),
           tier_tables());
  only_for(cmd->add_flag("--value-only", o->value_only,
                         "with --tables: one bit a position, the value, no DTEs (.value files "
                         "only): faster and an eighth of the memory"),
           tier_tables());
  only_for(cmd->add_flag("--mpi", o->mpi,
                         "with --tables, under mpirun: the ranks solve the tiers together, rank 0 "
                         "handing out each tier whose children are finished; --memory and "
                         "--threads are each rank's")
               ->needs("--tables"),
           ranked_tier_tables());
  only_for(cmd->add_option("--mpi-split-entries", o->mpi_split_entries,
                           "with --mpi: a tier of more entries is solved by all ranks together, "
                           "each its part of every pass")
               ->check(CLI::Range(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max()))
               ->needs("--mpi")
               ->capture_default_str(),
           tier_tables());
  only_for(cmd->add_option("--max-depth", o->max_depth,
                           "search forward this many plies (wins and losses within it, exact; "
                           "\"unknown\" beyond) instead of solving everything reachable")
               ->check(CLI::Range(1, solver::kCyclicSearchMaxDepth)),
           bounded_search());
  only_for(cmd->add_option("--time-limit", o->time_limit,
                           "with --max-depth: stop searching after this many seconds")
               ->check(CLI::Range(0.001, 1e9)),
           bounded_search());
  cmd->callback([cmd, o] { run_solve(*cmd, *o); });
}

void register_query(CLI::App& app) {
  auto o = std::make_shared<QueryOptions>();
  CLI::App* cmd = app.add_subcommand(
      "query",
      "value, DTE and every move's value and DTE of a position, from tables only "
      "(--variant defaults to the tables' variant)");
  add_position_options(*cmd, o->position);
  add_tables_option(*cmd, o->tables, false);  // required but for games of a dice player
  add_dice_player_options(*cmd, o->dice);
  auto* batch = only_for(cmd->add_option("--batch", o->batch,
                                         "answer one FEN a line of FILE ('-': standard input), "
                                         "one JSON line each; exit 1 if any line got an error")
                             ->excludes("--fen"),
                         tables_of_one_value());
  only_for(
      cmd->add_flag("--value-only", o->value_only, "with --batch: only each line's value and dte")
          ->needs(batch),
      tables_of_one_value());
  cmd->callback([cmd, o] { refusing_bad_tables([&] { run_query(*cmd, *o); }); });
}

void register_verify(CLI::App& app) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "verify",
      "re-solve random positions of the tables with the forward solver and compare "
      "(exit 1 on any mismatch)");
  add_position_options(*cmd, o->position, false);
  add_tables_option(*cmd, o->tables, false);
  auto* samples = cmd->add_option("--samples", o->samples,
                                  "positions to check, drawn uniformly over the entries")
                      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
                      ->capture_default_str();
  only_for(cmd->add_option("--per-tier", o->per_tier,
                           "instead of --samples: this many positions from each finished tier "
                           "(all of a tier that has fewer), so that every tier is checked")
               ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
               ->excludes(samples),
           tier_tables());
  cmd->add_option("--seed", o->seed, "random seed")->check(unsigned_64())->capture_default_str();
  add_memory_option(*cmd, o->memory_gb);
  cmd->add_flag("--children", o->children,
                "instead of searching, check each position's value and distance against its "
                "children's (one ply: fast on variants too big to search, finds damaged or "
                "inconsistent tables, not a solver wrong everywhere alike); the games with draws "
                "check the children always, the search too without it");
  only_for(cmd->add_option("--search-nodes", o->search_nodes,
                           "the most nodes one question of a coalition's forward search may "
                           "visit (0: no limit); a value whose question needs more is left open, "
                           "counted apart, neither passed nor failed")
               ->check(unsigned_64())
               ->excludes("--children")
               ->capture_default_str(),
           coalition_tables());
  auto* digest =
      only_for(cmd->add_flag("--digest", o->digest,
                             "instead of sampling, print a CRC-64 of each finished tier's values "
                             "(Drop 16: its value bits, with or without DTEs; loopy and coalition "
                             "tier tables: every value and distance), the same for any "
                             "compression level, thread count or machine, to compare two solves "
                             "tier by tier")
                   ->excludes("--children")
                   ->excludes("--per-tier")
                   ->excludes("--samples"),
               tables_by_tier());
  only_for(cmd->add_option("--against", o->against,
                           "with --digest: an earlier run's --json output; exit 1 if a tier's "
                           "digest differs")
               ->needs(digest),
           tables_by_tier());
  cmd->callback([cmd, o] { refusing_bad_tables([&] { run_verify(*cmd, *o); }); });
}

}  // namespace app
