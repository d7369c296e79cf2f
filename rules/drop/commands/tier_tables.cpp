// The tier tables' part of drop16 solve, query and verify (app/table_commands.h) for the Drop 16
// family, whose tier space (rules/drop/solve/tier_space.h) they read: the tables' solve (one
// process, or --mpi over ranks: rules/drop/solve/mpi/mpi_tier_solver.h) or without --tables a DTE
// search; query from the tables with its probes timed; verify by samples against the forward
// solver or the children, or by each tier's value digest.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "app/analysis.h"
#include "app/analysis_text.h"
#include "app/command.h"
#include "app/games.h"
#include "app/mpi_ranks.h"
#include "app/query_batch.h"
#include "app/resources.h"
#include "app/stop_signals.h"
#include "app/table_commands.h"
#include "app/table_solve_faults.h"
#include "app/tier_digests.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/dte_search.h"
#include "solver/forward_solver.h"
#include "solver/outcome.h"
#include "tablebase/tablebase.h"
#include "tablebase/tables_found.h"
#include "tablebase/tier_solver.h"
#include "tablebase/value_digest.h"
#include "tablebase/value_tables.h"
#if DROP16_MPI
#include "rules/drop/solve/mpi/mpi_tier_solver.h"
#endif

namespace drop {

namespace {

// Drop 16's setup, for the tier tables commands, which read its tier space.
using Setup = registry::GameSetup<Game>;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void print_analysis(const nlohmann::ordered_json& j, bool json) {
  if (json) {
    std::cout << j.dump() << std::endl;
    return;
  }
  if (j.contains("tables") && j["tables"]["value_only"] && j["value"] != "unknown")
    return app::print_analysis_text(j, " (value-only tables)");
  if (!j.contains("dte")) {
    std::cout << j["fen"].get<std::string>() << ": " << j["value"].get<std::string>()
              << " (beyond the tables' " << j["tables"]["max_pieces"] << " pieces in play)"
              << std::endl;
    return;
  }
  app::print_analysis_text(j);
}

// --- solve ---

// The analysis object without DTEs, from value-only tables: the value of p and of every move
// ("unknown" beyond the tables' pieces in play).
nlohmann::ordered_json value_json(const TierSpace& space, const std::string& dir,
                                  const Position& p) {
  const Game& game = space.game();
  tablebase::ValueTables<TierSpace> tables(space, dir);
  const auto value = [](std::optional<bool> win) -> std::optional<solver::WdlValue> {
    if (!win) return std::nullopt;
    return solver::WdlValue{*win ? solver::Wdl::win : solver::Wdl::loss, 0};
  };
  MoveList moves;
  game.generate(p, moves);
  std::vector<tablebase::MoveValue> values;
  for (const Move m : moves) {
    Position child = p;
    game.make(child, m);
    const auto child_win = game.is_terminal(child) ? std::optional<bool>(false) : tables.win(child);
    values.push_back({registry::move_text<Entry>(game, p, m),
                      value(child_win ? std::optional<bool>(!*child_win) : std::nullopt)});
  }
  return tablebase::analysis_json(
      Entry::variant_name(game), Entry::fen(game, p),
      value(moves.size() == 0 ? std::optional<bool>(false) : tables.win(p)), values, false);
}

// The tables' solve, by this process or, with --mpi, by every rank of the mpirun it belongs to:
// nothing on ranks other than 0, which report their errors and figures through rank 0 (its
// figures per rank go to `mpi_ranks`).
std::optional<tablebase::TierSolveReport> solve_tables(const TierSpace& space,
                                                       const tablebase::TierSolveOptions& options,
                                                       bool mpi, std::uint64_t mpi_split_entries,
                                                       nlohmann::ordered_json& mpi_ranks) {
  if (!mpi) return tablebase::solve_tiers(space, options);
#if DROP16_MPI
  const std::optional<DistributedReport> solved = app::reporting_rank_failures(
      [&] { return drop::solve_tiers_mpi(space, options, mpi_split_entries); });
  if (!solved) return std::nullopt;
  mpi_ranks = app::mpi_ranks_json(solved->ranks);
  return solved->tiers;
#else
  (void)mpi_ranks;
  (void)mpi_split_entries;
  refuse_mpi_unbuilt();
#endif
}

// The tier tables' solve (the Drop 16 family's tier space, rules/drop/solve/tier_space.h), or
// without --tables the DTE search.
void solve_tier_tables(const app::SolveOptions& o, const Setup& s) {
  if (o.value_only && o.tables.empty())
    throw app::UsageError("--value-only: builds tables of values alone, with --tables");
  const auto start = std::chrono::steady_clock::now();
  const Game& game = *s.game;
  const std::uint64_t memory = app::gigabytes_to_bytes(o.memory_gb);
  nlohmann::ordered_json j;
  if (o.tables.empty()) {
    solver::DteSearch<Game> search(game, memory);
    j = app::analysis_json<Entry>(
        game, s.position, solver::with_search_progress(search, "search", 0, !o.position.quiet, [&] {
          return search.analyze(s.position);
        }));
    j["seconds"] = seconds_since(start);
    j["positions_searched"] = search.positions_stored();
  } else {
    const TierSpace space(game, true, o.max_pieces.value_or(TierLayout::kAllPieces));
    std::optional<tablebase::TierSolveReport> solved;
    nlohmann::ordered_json mpi_ranks;
    app::reporting_table_solve_faults([&] {
      tablebase::TierSolveOptions options;
      tablebase::refuse_other_tables(o.tables, space.variant_name(), registry::TableFormat::tiers);
      options.dir = o.tables;
      options.memory_bytes = memory;
      options.threads = o.threads;
      options.show_progress = !o.position.quiet;
      options.zstd_level = o.zstd_level;
      options.value_only = o.value_only;
      options.stop_requested = app::stop_on_signals();
      solved = solve_tables(space, options, o.mpi, o.mpi_split_entries, mpi_ranks);
    });
    if (!solved) return;  // an MPI rank other than 0: rank 0 answers
    const tablebase::TierSolveReport& report = *solved;
    if (o.value_only) {
      j = value_json(space, o.tables, s.position);
    } else if (tablebase::Tablebase tables(space, o.tables); tables.covers(s.position)) {
      j = app::analysis_json<Entry>(game, s.position, tables.analyze(s.position));
    } else {  // endgame tables (--max-pieces): the position is beyond them
      j["variant"] = Entry::variant_name(game);
      j["fen"] = Entry::fen(game, s.position);
      j["value"] = "unknown";
    }
    j["seconds"] = seconds_since(start);
    // The process's, every thread's: what cluster-plan's rate divides by.
    j["cpu_seconds"] = solver::cpu_seconds();
    j["tables"] = {
        {"dir", o.tables},
        {"max_pieces", space.layout().max_pieces()},
        {"value_only", o.value_only},
        {"tiers", report.tiers},
        {"tiers_solved", report.tiers_solved},
        {"tiers_resumed", report.tiers_resumed},
        {"positions", report.positions},
        {"stored_positions", report.stored},
        {"value_bytes", report.value_bytes},
        {"dte_bytes", report.dte_bytes},
        {"value_bits_per_position",
         8.0 * double(report.value_bytes) / double(std::max<std::uint64_t>(1, report.positions))},
        {"planned_memory_mb", double(report.planned_bytes) / double(1 << 20)},
        {"group_folds", report.group_folds},
        {"solve_seconds", report.seconds}};
    if (o.mpi) j["tables"]["mpi_ranks"] = mpi_ranks;
  }
  j["peak_memory_mb"] = solver::peak_memory_mb();
  print_analysis(j, o.position.json);
}

// The setup for a tier tables command: the variant named by --variant, or else the tables'. A
// directory without tables throws TableError, which refusing_bad_tables makes bad input; one
// holding another game's table is named as that.
Setup setup_for_tables(const CLI::App& cmd, const app::PositionOptions& options,
                       const std::string& dir, registry::Command command) {
  if (const std::string held = tablebase::tables_variant_in(dir);
      registry::info_of(held).id != Entry::info.id)
    throw app::UsageError("--tables " + dir + " holds " + tablebase::tables_held(dir) +
                          ", not tables of " + std::string(Entry::info.title) +
                          (cmd.count("--variant") ? " (--variant " + options.variant + ")" : "") +
                          "; " + std::string(registry::command_name(command)) +
                          " it with --variant " + held);
  const std::string found = tablebase::tables_variant(dir);
  if (cmd.count("--variant") && Entry::normalized(options.variant) != found)
    throw app::UsageError("--tables " + dir + " holds tables of variant " + found + ", not " +
                          Entry::normalized(options.variant));
  return Entry::setup(found, options.fen);
}

void query_tier_tables(const CLI::App& cmd, const app::QueryOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const Setup s = setup_for_tables(cmd, o.position, o.tables, registry::Command::query);
  if (cmd.count("--batch"))
    return app::run_query_batch({s.game->variant().name(), o.tables, o.batch, o.value_only});
  const TierSpace space(*s.game, true, tablebase::tables_max_pieces(o.tables));
  tablebase::Tablebase tables(space, o.tables);
  const auto analysis = tables.analyze(s.position);
  const double first_seconds = seconds_since(start);
  // Probe times over the position and every move's child: cold with the block caches dropped
  // before each probe (files open, OS page cache as it is), warm with them kept.
  std::vector<Position> probed{s.position};
  MoveList moves;
  s.game->generate(s.position, moves);
  for (const Move m : moves) {
    Position child = s.position;
    s.game->make(child, m);
    probed.push_back(child);
  }
  double cold_seconds = 0;
  for (const Position& p : probed) {
    tables.drop_caches();
    const auto t = std::chrono::steady_clock::now();
    tables.dte(p);
    cold_seconds += seconds_since(t);
  }
  constexpr int kWarmRounds = 100;
  const auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < kWarmRounds; ++i)
    for (const Position& p : probed) tables.dte(p);
  const double probes = double(probed.size());
  const double cold_us = cold_seconds * 1e6 / probes;
  const double warm_us = seconds_since(t) * 1e6 / probes / kWarmRounds;
  nlohmann::ordered_json j = app::analysis_json<Entry>(*s.game, s.position, analysis);
  j["seconds"] = first_seconds;
  j["probes"] = probed.size();
  j["cold_microseconds_per_probe"] = cold_us;
  j["warm_microseconds_per_probe"] = warm_us;
  print_analysis(j, o.position.json);
}

// verify --digest: each finished tier's value digest (value_digest.h), values or DTE tables alike.
void run_digest(const CLI::App& cmd, const app::VerifyOptions& o) {
  const Setup s = setup_for_tables(cmd, o.position, o.tables, registry::Command::verify);
  const TierSpace space(*s.game, true, tablebase::tables_max_pieces(o.tables));
  const std::string variant = space.variant_name();
  app::report_tier_digests(
      {variant, space.tier_count(), [&](int t) { return space.tier_name(t); },
       [&](int t) { return space.tier_size(t); },
       [&](int t) -> std::optional<std::uint64_t> {
         if (!tablebase::tier_files_present(o.tables, variant, space.tier_name(t), true))
           return std::nullopt;
         return tablebase::tier_value_digest(o.tables, variant, space.tier_name(t));
       }},
      o.tables, o.against, o.position.json, o.position.quiet);
}

// Random positions of finished tiers re-solved by the forward solver, or checked against their
// children in the tables, and compared.
void verify_tier_tables(const CLI::App& cmd, const app::VerifyOptions& o) {
  if (o.tables.empty())
    throw app::UsageError("--tables: verify checks " + std::string(Entry::info.title) +
                          "'s tier tables; give their directory");
  if (o.digest) return run_digest(cmd, o);
  const auto start = std::chrono::steady_clock::now();
  const Setup s = setup_for_tables(cmd, o.position, o.tables, registry::Command::verify);
  const Game& game = *s.game;
  const TierSpace space(game, true, tablebase::tables_max_pieces(o.tables));
  tablebase::Tablebase tables(space, o.tables);
  solver::ForwardSolver<Game> search(game, app::gigabytes_to_bytes(o.memory_gb));
  std::mt19937_64 rng(o.seed);
  // Only finished tiers are sampled, so the tables of a solve still running (or stopped) can be
  // checked as far as they go: a finished tier's children are all in finished tiers.
  std::vector<int> finished;
  std::uint64_t total = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    if (tablebase::tier_files_present(o.tables, space.variant_name(), space.tier_name(t))) {
      finished.push_back(t);
      total += space.tier_size(t);
    }
  if (total == 0)
    throw app::UsageError("--tables " + o.tables + " holds no finished tier to check");
  const auto& symmetries = game.geometry().symmetries();
  std::uint64_t mismatches = 0, positions_searched = 0, memo_clears = 0;
  nlohmann::ordered_json first_mismatch;
  // The search's table is shared by the samples, which overlap; when it fills --memory it is
  // emptied and the sample searched again, so a long run is not lost to a full table. Only a
  // sample that alone needs more than --memory stops it.
  const auto search_sample = [&](const Position& p) {
    try {
      return search.analyze(p);
    } catch (const solver::SearchMemoryError&) {  // full: emptied below, then searched again
    }
    positions_searched += search.positions_stored();
    search.clear();
    ++memo_clears;
    try {
      return search.analyze(p);
    } catch (const solver::SearchMemoryError& e) {
      throw solver::SearchMemoryError(Entry::fen(game, p) + ": " + e.what() +
                                      " (for this position alone); raise --memory, or check "
                                      "with --children");
    }
  };
  // With --per-tier every finished tier is checked: its every entry when it has at most that
  // many, else that many drawn from it. Otherwise --samples entries uniform over all of them,
  // which on a large variant leaves the small tiers out.
  std::uint64_t samples = o.samples;
  if (o.per_tier) {
    samples = 0;
    for (const int t : finished) samples += std::min(o.per_tier, space.tier_size(t));
  }
  std::vector<char> sampled(space.tier_count(), 0);
  solver::Progress progress("verify", samples, "samples", !o.position.quiet);
  const auto check = [&](int tier, std::uint64_t index) {
    sampled[tier] = 1;
    // The entry seen through a random symmetry of the board (so the tables are also asked about
    // positions they store as an image), either colour to move.
    const auto& symmetry = symmetries[rng() % symmetries.size()];
    Position p = game.transformed(space.unrank(tier, index), symmetry);
    if (rng() & 1) p = game.color_swapped(p);
    const auto from_tables = tables.analyze(p);
    if (o.children) {
      // The retrograde equation itself, one ply deep: cheap at any size.
      solver::DteFold fold;
      for (const auto& move : from_tables.moves) fold.add(move.outcome.dte - 1);
      if (fold.dte() != from_tables.dte && mismatches++ == 0)
        first_mismatch = {{"fen", Entry::fen(game, p)},
                          {"tables", app::analysis_json<Entry>(game, p, from_tables)}};
    } else {
      const auto from_search = search_sample(p);
      bool same = from_tables.dte == from_search.dte &&
                  from_tables.moves.size() == from_search.moves.size();
      for (std::size_t m = 0; same && m < from_tables.moves.size(); ++m)
        same = from_tables.moves[m].outcome.dte == from_search.moves[m].outcome.dte;
      if (!same && mismatches++ == 0)
        first_mismatch = {{"fen", Entry::fen(game, p)},
                          {"tables", app::analysis_json<Entry>(game, p, from_tables)},
                          {"search", app::analysis_json<Entry>(game, p, from_search)}};
    }
    progress.advance();
    progress.add_to_rate(1);
  };
  if (o.per_tier) {
    for (const int t : finished) {
      const std::uint64_t size = space.tier_size(t);
      for (std::uint64_t n = 0; n < std::min(o.per_tier, size); ++n)
        check(t, size <= o.per_tier
                     ? n
                     : std::uniform_int_distribution<std::uint64_t>(0, size - 1)(rng));
    }
  } else {
    for (std::uint64_t n = 0; n < samples; ++n) {
      std::uint64_t index = std::uniform_int_distribution<std::uint64_t>(0, total - 1)(rng);
      auto tier = finished.begin();
      while (index >= space.tier_size(*tier)) index -= space.tier_size(*tier++);
      check(*tier, index);
    }
  }
  const std::string against = o.children ? "their children in the tables" : "the forward solver";
  nlohmann::ordered_json j;
  j["variant"] = Entry::variant_name(game);
  j["tables"] = o.tables;
  j["samples"] = samples;
  if (o.per_tier) j["per_tier"] = o.per_tier;
  j["seed"] = o.seed;
  j["method"] = o.children ? "children" : "search";
  j["tiers_checked"] = finished.size();  // finished, so open to sampling
  j["tiers_sampled"] = std::count(sampled.begin(), sampled.end(), 1);
  j["tiers"] = space.tier_count();
  j["mismatches"] = mismatches;
  if (mismatches) j["first_mismatch"] = first_mismatch;
  j["positions_searched"] = positions_searched + search.positions_stored();
  j["memo_clears"] = memo_clears;
  j["seconds"] = seconds_since(start);
  if (o.position.json)
    std::cout << j.dump() << std::endl;
  else
    std::cout << samples << " positions of " << j["tiers_sampled"] << " tiers checked against "
              << against << ": " << mismatches << " mismatches" << std::endl;
  if (mismatches)
    throw std::runtime_error(std::to_string(mismatches) + " of " + std::to_string(samples) +
                             " positions differ between the tables and " + against);
}

}  // namespace

}  // namespace drop

template <>
void app::run_tier_solve<drop::Entry>(const SolveOptions& o) {
  drop::solve_tier_tables(o, drop::Entry::setup(o.position.variant, o.position.fen));
}
template <>
void app::run_tier_query<drop::Entry>(const CLI::App& cmd, const QueryOptions& o) {
  drop::query_tier_tables(cmd, o);
}
template <>
void app::run_tier_verify<drop::Entry>(const CLI::App& cmd, const VerifyOptions& o) {
  drop::verify_tier_tables(cmd, o);
}
