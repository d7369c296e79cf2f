// drop16 solve / query / verify: values and distances to end, by forward search or from tables.
// Each dispatches once, through the registry (app/games.h), to what the game declares: its tier
// tables (here), its reachable retrograde and tables of whole variants (app/cmd_solve_cyclic.cpp,
// cmd_verify_cyclic.cpp), its bounded search (cmd_search_cyclic.cpp) or its dice player
// (dice_player.h).
//   solve  --tables DIR builds every table of the variant (resumable) and answers from them;
//          without --tables a DTE search (solver/dte_search.h) answers alone.
//   query  answers from tables only, and times its probes.
//   verify re-solves random tabled positions with the forward solver and compares.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "app/analysis.h"
#include "app/analysis_text.h"
#include "app/coalition_solve.h"
#include "app/command.h"
#include "app/cyclic_search.h"
#include "app/cyclic_solve.h"
#include "app/dice_player.h"
#include "app/games.h"
#include "app/mpi_ranks.h"
#include "app/query_batch.h"
#include "app/resources.h"
#include "app/table_solve_faults.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/cyclic_search.h"
#include "solver/dte_search.h"
#include "solver/forward_solver.h"
#include "solver/outcome.h"
#include "tablebase/game_tables.h"
#include "tablebase/tablebase.h"
#include "tablebase/tables_found.h"
#include "tablebase/tier_solver.h"
#include "tablebase/value_digest.h"
#include "tablebase/value_tables.h"
#if DROP16_MPI
#include "mpi/mpi_tier_solver.h"
#endif

namespace app {

namespace {

// Drop 16's setup, for the tier tables commands, which read its tier space.
using Setup = GameSetup<drop::Game>;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void print_analysis(const nlohmann::ordered_json& j, bool json) {
  if (json) {
    std::cout << j.dump() << std::endl;
    return;
  }
  if (j.contains("tables") && j["tables"]["value_only"] && j["value"] != "unknown")
    return print_analysis_text(j, " (value-only tables)");
  if (!j.contains("dte")) {
    std::cout << j["fen"].get<std::string>() << ": " << j["value"].get<std::string>()
              << " (beyond the tables' " << j["tables"]["max_pieces"] << " pieces in play)"
              << std::endl;
    return;
  }
  print_analysis_text(j);
}

// --- solve ---

// The analysis object without DTEs, from value-only tables: the value of p and of every move
// ("unknown" beyond the tables' pieces in play).
template <typename E>
nlohmann::ordered_json value_json(const tablebase::DropTierSpace& space, const std::string& dir,
                                  const drop::Position& p) {
  const drop::Game& game = space.game();
  tablebase::ValueTables<tablebase::DropTierSpace> tables(space, dir);
  const auto value = [](std::optional<bool> win) -> std::optional<solver::WdlValue> {
    if (!win) return std::nullopt;
    return solver::WdlValue{*win ? solver::Wdl::win : solver::Wdl::loss, 0};
  };
  drop::MoveList moves;
  game.generate(p, moves);
  std::vector<tablebase::MoveValue> values;
  for (const drop::Move m : moves) {
    drop::Position child = p;
    game.make(child, m);
    const auto child_win = game.is_terminal(child) ? std::optional<bool>(false) : tables.win(child);
    values.push_back({registry::move_text<E>(game, p, m),
                      value(child_win ? std::optional<bool>(!*child_win) : std::nullopt)});
  }
  return tablebase::analysis_json(
      E::variant_name(game), E::fen(game, p),
      value(moves.size() == 0 ? std::optional<bool>(false) : tables.win(p)), values, false);
}

// The first SIGINT or SIGTERM asks the tier solver to save its work and stop after the chunk of
// entries it is on (seconds); a second one kills the process as usual.
std::atomic<bool> stop_signalled{false};
extern "C" void on_stop_signal(int signal) {
  stop_signalled.store(true);
  std::signal(signal, SIG_DFL);
}

struct SolveOptions {
  PositionOptions position;
  std::string tables;
  double memory_gb = 0;
  int threads = 1;
  int zstd_level = 19;
  int max_pieces = tablebase::TierLayout::kAllPieces;
  bool value_only = false;
  std::optional<int> max_depth;  // games with cycles: the bounded search instead of the retrograde
  std::optional<double> time_limit;
  bool mpi = false;   // the tables solved by the ranks of an mpirun (mpi/mpi_tier_solver.h)
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

// The tables' solve, by this process or, with --mpi, by every rank of the mpirun it belongs to:
// nothing on ranks other than 0, which report their errors and figures through rank 0 (its
// figures per rank go to `mpi_ranks`).
std::optional<tablebase::TierSolveReport> solve_tables(const tablebase::DropTierSpace& space,
                                                       const tablebase::TierSolveOptions& options,
                                                       bool mpi, std::uint64_t mpi_split_entries,
                                                       nlohmann::ordered_json& mpi_ranks) {
  if (!mpi) return tablebase::solve_tiers(space, options);
#if DROP16_MPI
  const std::optional<mpi_solve::DistributedReport> solved = reporting_rank_failures(
      [&] { return mpi_solve::solve_tiers_mpi(space, options, mpi_split_entries); });
  if (!solved) return std::nullopt;
  mpi_ranks = mpi_ranks_json(solved->ranks);
  return solved->tiers;
#else
  (void)mpi_ranks;
  (void)mpi_split_entries;
  refuse_mpi_unbuilt();
#endif
}

// The tier tables' solve (the Drop 16 family's tier space, rules/drop/solve/tier_space.h), or
// without --tables the DTE search.
template <typename E>
void run_tier_solve(const SolveOptions& o, const Setup& s) {
  if (o.value_only && o.tables.empty())
    throw UsageError("--value-only: builds tables of values alone, with --tables");
  const auto start = std::chrono::steady_clock::now();
  const drop::Game& game = *s.game;
  const std::uint64_t memory = gigabytes_to_bytes(o.memory_gb);
  nlohmann::ordered_json j;
  if (o.tables.empty()) {
    solver::DteSearch<drop::Game> search(game, memory);
    j = analysis_json<E>(game, s.position,
                         solver::with_search_progress(search, "search", 0, !o.position.quiet,
                                                      [&] { return search.analyze(s.position); }));
    j["seconds"] = seconds_since(start);
    j["positions_searched"] = search.positions_stored();
  } else {
    const tablebase::DropTierSpace space(game, true, o.max_pieces);
    std::optional<tablebase::TierSolveReport> solved;
    nlohmann::ordered_json mpi_ranks;
    reporting_table_solve_faults([&] {
      tablebase::TierSolveOptions options;
      tablebase::refuse_other_tables(o.tables, space.variant_name(), registry::TableFormat::tiers);
      options.dir = o.tables;
      options.memory_bytes = memory;
      options.threads = o.threads;
      options.show_progress = !o.position.quiet;
      options.zstd_level = o.zstd_level;
      options.value_only = o.value_only;
      options.stop_requested = [] { return stop_signalled.load(); };
      std::signal(SIGINT, on_stop_signal);
      std::signal(SIGTERM, on_stop_signal);
      solved = solve_tables(space, options, o.mpi, o.mpi_split_entries, mpi_ranks);
    });
    if (!solved) return;  // an MPI rank other than 0: rank 0 answers
    const tablebase::TierSolveReport& report = *solved;
    if (o.value_only) {
      j = value_json<E>(space, o.tables, s.position);
    } else if (tablebase::Tablebase tables(space, o.tables); tables.covers(s.position)) {
      j = analysis_json<E>(game, s.position, tables.analyze(s.position));
    } else {  // endgame tables (--max-pieces): the position is beyond them
      j["variant"] = E::variant_name(game);
      j["fen"] = E::fen(game, s.position);
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
  j["peak_memory_mb"] = peak_memory_mb();
  print_analysis(j, o.position.json);
}

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
      run_tier_solve<E>(o, E::setup(o.position.variant, o.position.fen));
    else if constexpr (E::info.solvers.has(registry::Solver::coalition_values))
      run_coalition_solve({o.position, memory, o.tables, o.zstd_level});
    else
      static_assert(E::info.solvers.has(registry::Solver::reachable_retrograde),
                    "a game declaring solve needs a solver it runs: reachable-retrograde, tiers "
                    "or coalition-values");
  });
}

// --- query ---

struct QueryOptions {
  PositionOptions position;
  std::string tables;
  std::string batch;  // --batch FILE: app/cmd_query_batch.cpp answers it
  bool value_only = false;
  // A game its dice player answers, without tables (dice_player.h).
  DicePlayerOptions dice;
};

// The setup for a tier tables command: the variant named by --variant, or else the tables'. A
// directory without tables throws TableError, which refusing_bad_tables makes bad input; one
// holding another game's table is named as that.
template <typename E>
Setup setup_for_tables(const CLI::App& cmd, const PositionOptions& options, const std::string& dir,
                       registry::Command command) {
  if (const std::string held = tablebase::tables_variant_in(dir);
      registry::info_of(held).id != E::info.id)
    throw UsageError("--tables " + dir + " holds " + tablebase::tables_held(dir) +
                     ", not tables of " + std::string(E::info.title) +
                     (cmd.count("--variant") ? " (--variant " + options.variant + ")" : "") + "; " +
                     std::string(registry::command_name(command)) + " it with --variant " + held);
  const std::string found = tablebase::tables_variant(dir);
  if (cmd.count("--variant") && E::normalized(options.variant) != found)
    throw UsageError("--tables " + dir + " holds tables of variant " + found + ", not " +
                     E::normalized(options.variant));
  return E::setup(found, options.fen);
}

// The variant a tables command serves: --variant's, else the one the tables in DIR are of.
std::string variant_for_tables(const CLI::App& cmd, const PositionOptions& o,
                               const std::string& dir) {
  return cmd.count("--variant") || dir.empty() ? o.variant : tablebase::tables_variant_in(dir);
}

template <typename E>
void run_tier_query(const CLI::App& cmd, const QueryOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const Setup s = setup_for_tables<E>(cmd, o.position, o.tables, registry::Command::query);
  if (cmd.count("--batch"))
    return run_query_batch({s.game->variant().name(), o.tables, o.batch, o.value_only});
  const tablebase::DropTierSpace space(*s.game, true, tablebase::tables_max_pieces(o.tables));
  tablebase::Tablebase tables(space, o.tables);
  const auto analysis = tables.analyze(s.position);
  const double first_seconds = seconds_since(start);
  // Probe times over the position and every move's child: cold with the block caches dropped
  // before each probe (files open, OS page cache as it is), warm with them kept.
  std::vector<drop::Position> probed{s.position};
  drop::MoveList moves;
  s.game->generate(s.position, moves);
  for (const drop::Move m : moves) {
    drop::Position child = s.position;
    s.game->make(child, m);
    probed.push_back(child);
  }
  double cold_seconds = 0;
  for (const drop::Position& p : probed) {
    tables.drop_caches();
    const auto t = std::chrono::steady_clock::now();
    tables.dte(p);
    cold_seconds += seconds_since(t);
  }
  constexpr int kWarmRounds = 100;
  const auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < kWarmRounds; ++i)
    for (const drop::Position& p : probed) tables.dte(p);
  const double probes = double(probed.size());
  const double cold_us = cold_seconds * 1e6 / probes;
  const double warm_us = seconds_since(t) * 1e6 / probes / kWarmRounds;
  nlohmann::ordered_json j = analysis_json<E>(*s.game, s.position, analysis);
  j["seconds"] = first_seconds;
  j["probes"] = probed.size();
  j["cold_microseconds_per_probe"] = cold_us;
  j["warm_microseconds_per_probe"] = warm_us;
  print_analysis(j, o.position.json);
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
      run_dice_player_query(position, o.dice);
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

std::string hex64(std::uint64_t x) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(x));
  return text;
}

// The digests of an earlier `verify --digest --json`, by tier, checked to be that.
std::map<std::string, std::string> read_digests(const std::string& file,
                                                const std::string& variant) {
  std::ifstream in(file);
  if (!in) throw UsageError("--against " + file + ": cannot be read");
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("digests") || !j["digests"].is_object() ||
      !j.contains("variant") || !j["variant"].is_string())
    throw UsageError("--against " + file + ": not the JSON of verify --digest --json");
  if (j["variant"] != variant)
    throw UsageError("--against " + file + " holds digests of variant " +
                     j["variant"].get<std::string>() + ", not " + variant);
  std::map<std::string, std::string> digests;
  for (const auto& [tier, digest] : j["digests"].items()) {
    if (!digest.is_string()) throw UsageError("--against " + file + ": tier " + tier + "'s digest");
    digests[tier] = digest;
  }
  return digests;
}

// verify --digest: each finished tier's value digest (value_digest.h), values or DTE tables alike,
// and with --against, the tiers whose digest differs from an earlier run's.
template <typename E>
void run_digest(const CLI::App& cmd, const VerifyOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const Setup s = setup_for_tables<E>(cmd, o.position, o.tables, registry::Command::verify);
  const tablebase::DropTierSpace space(*s.game, true, tablebase::tables_max_pieces(o.tables));
  const std::string variant = space.variant_name();
  const auto expected =
      o.against.empty() ? std::map<std::string, std::string>{} : read_digests(o.against, variant);
  nlohmann::ordered_json digests = nlohmann::ordered_json::object();
  std::vector<std::string> differ, unmatched;
  std::uint64_t chained = 0, entries = 0;
  solver::Progress progress("digest", space.tier_count(), "entries", !o.position.quiet);
  for (int t = 0; t < space.tier_count(); ++t) {
    const std::string& tier = space.tier_name(t);
    progress.advance();
    if (!tablebase::tier_files_present(o.tables, variant, tier, true)) continue;
    const std::uint64_t value = tablebase::tier_value_digest(o.tables, variant, tier);
    chained = tablebase::chain_digest(chained, value);
    const std::string digest = hex64(value);
    digests[tier] = digest;
    entries += space.tier_size(t);
    progress.add_to_rate(space.tier_size(t));
    if (expected.empty()) continue;
    const auto e = expected.find(tier);
    if (e == expected.end())
      unmatched.push_back(tier);
    else if (e->second != digest)
      differ.push_back(tier);
  }
  if (digests.empty()) throw UsageError("--tables " + o.tables + " holds no finished tier");
  nlohmann::ordered_json j;
  j["variant"] = variant;
  j["tables"] = o.tables;
  j["method"] = "digest";
  j["tiers_checked"] = digests.size();
  j["tiers"] = space.tier_count();
  j["entries"] = entries;
  // Of the whole set only: a partial set's chain is not a later full one's.
  if (int(digests.size()) == space.tier_count()) j["tables_digest"] = hex64(chained);
  j["digests"] = digests;
  if (!o.against.empty()) {
    j["against"] = o.against;
    j["differ"] = differ;
    j["not_in_against"] = unmatched;
  }
  j["seconds"] = seconds_since(start);
  if (o.position.json) {
    std::cout << j.dump() << std::endl;
  } else {
    for (const auto& [tier, digest] : digests.items())
      std::cout << tier << ' ' << digest.template get<std::string>() << '\n';
    std::cout << digests.size() << " of " << space.tier_count() << " tiers";
    if (j.contains("tables_digest")) std::cout << ", tables digest " << hex64(chained);
    if (!o.against.empty())
      std::cout << "; against " << o.against << ": " << differ.size() << " differ, "
                << unmatched.size() << " not in it";
    std::cout << std::endl;
  }
  if (!differ.empty())
    throw std::runtime_error(std::to_string(differ.size()) + " tiers' value digests differ from " +
                             o.against + "'s, the first " + differ.front());
}

// Random positions of finished tiers re-solved by the forward solver, or checked against their
// children in the tables, and compared.
template <typename E>
void run_tier_verify(const CLI::App& cmd, const VerifyOptions& o) {
  if (o.tables.empty())
    throw UsageError("--tables: verify checks " + std::string(E::info.title) +
                     "'s tier tables; give their directory");
  if (o.digest) return run_digest<E>(cmd, o);
  const auto start = std::chrono::steady_clock::now();
  const Setup s = setup_for_tables<E>(cmd, o.position, o.tables, registry::Command::verify);
  const drop::Game& game = *s.game;
  const tablebase::DropTierSpace space(game, true, tablebase::tables_max_pieces(o.tables));
  tablebase::Tablebase tables(space, o.tables);
  solver::ForwardSolver<drop::Game> search(game, gigabytes_to_bytes(o.memory_gb));
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
  if (total == 0) throw UsageError("--tables " + o.tables + " holds no finished tier to check");
  const auto& symmetries = game.geometry().symmetries();
  std::uint64_t mismatches = 0, positions_searched = 0, memo_clears = 0;
  nlohmann::ordered_json first_mismatch;
  // The search's table is shared by the samples, which overlap; when it fills --memory it is
  // emptied and the sample searched again, so a long run is not lost to a full table. Only a
  // sample that alone needs more than --memory stops it.
  const auto search_sample = [&](const drop::Position& p) {
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
      throw solver::SearchMemoryError(E::fen(game, p) + ": " + e.what() +
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
    drop::Position p = game.transformed(space.unrank(tier, index), symmetry);
    if (rng() & 1) p = game.color_swapped(p);
    const auto from_tables = tables.analyze(p);
    if (o.children) {
      // The retrograde equation itself, one ply deep: cheap at any size.
      solver::DteFold fold;
      for (const auto& move : from_tables.moves) fold.add(move.outcome.dte - 1);
      if (fold.dte() != from_tables.dte && mismatches++ == 0)
        first_mismatch = {{"fen", E::fen(game, p)},
                          {"tables", analysis_json<E>(game, p, from_tables)}};
    } else {
      const auto from_search = search_sample(p);
      bool same = from_tables.dte == from_search.dte &&
                  from_tables.moves.size() == from_search.moves.size();
      for (std::size_t m = 0; same && m < from_tables.moves.size(); ++m)
        same = from_tables.moves[m].outcome.dte == from_search.moves[m].outcome.dte;
      if (!same && mismatches++ == 0)
        first_mismatch = {{"fen", E::fen(game, p)},
                          {"tables", analysis_json<E>(game, p, from_tables)},
                          {"search", analysis_json<E>(game, p, from_search)}};
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
  j["variant"] = E::variant_name(game);
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

void run_verify(const CLI::App& cmd, const VerifyOptions& o) {
  PositionOptions position = o.position;
  position.variant = variant_for_tables(cmd, o.position, o.tables);
  with_entry<registry::Command::verify>(cmd, position.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (E::info.solvers.has(registry::Solver::reachable_retrograde))
      run_cyclic_verify(
          {position, o.tables, o.samples, o.seed, gigabytes_to_bytes(o.memory_gb), o.children});
    else if constexpr (E::info.tables.has(registry::TableFormat::coalitions)) {
      if (o.tables.empty())
        throw UsageError("--tables: verify checks " + std::string(E::info.title) +
                         "'s coalition tables; give their directory");
      run_coalition_verify({position, o.tables, o.samples, o.seed, gigabytes_to_bytes(o.memory_gb),
                            o.children, o.search_nodes});
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
// --mpi: the tiers of either tier solver go to the ranks.
OptionNeed ranked_tier_tables() {
  return {.solvers = {registry::Solver::tiers},
          .tables = {registry::TableFormat::loopy_tiers},
          .what = "tier tables (Drop 16's, or loopy tier tables)"};
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
OptionNeed tables_on_disk() {
  return {.tables = {registry::TableFormat::tiers, registry::TableFormat::keyed,
                     registry::TableFormat::loopy_tiers, registry::TableFormat::coalitions},
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
  only_for(
      cmd->add_option("--format", o->format,
                      "with --tables: the tables' format, for a game that has both: keyed (the "
                      "default: every variant) or loopy-tiers (the variants its tier space "
                      "indexes, in a few bytes a position)")
          ->needs("--tables"),
      loopy_tier_tables());
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
                             "instead of sampling, print a CRC-64 of each finished tier's value "
                             "bits (the same for any compression level, thread count or machine, "
                             "with or without DTEs), to compare two solves tier by tier")
                   ->excludes("--children")
                   ->excludes("--per-tier")
                   ->excludes("--samples"),
               tier_tables());
  only_for(cmd->add_option("--against", o->against,
                           "with --digest: an earlier run's --json output; exit 1 if a tier's "
                           "digest differs")
               ->needs(digest),
           tier_tables());
  cmd->callback([cmd, o] { refusing_bad_tables([&] { run_verify(*cmd, *o); }); });
}

}  // namespace app
