// drop16 solve and query for games with cycles and draws (registry entries with the reachable
// retrograde). solve: the cyclic retrograde solver (solver/cyclic_retrograde.h) over every
// position reachable from the roots, then the analysis of the position asked about. The roots are
// the asked position (--fen, else the variant's start), or, for a variant that has no start of its
// own (a Spock ladder row: every placement of its pieces), the whole variant's. With --tables DIR
// the whole variant's tables are written to DIR, in the format its entry declares: a keyed table
// DIR/<game>.wdl (tablebase/keyed_tables.h, solved by the reachable retrograde; a rerun loads it),
// or loopy tier tables, a file a tier (tablebase/loopy_tier_solver.h, tablebase/LOOPY.md; a rerun
// skips the finished tiers). query: the same answer from the files alone (tablebase/
// game_tables.h).
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>

#include "app/analysis_text.h"
#include "app/cyclic_solve.h"
#include "app/games.h"
#include "app/mpi_ranks.h"
#include "app/resources.h"
#include "app/table_solve_faults.h"
#include "solver/cyclic_retrograde.h"
#include "solver/size_text.h"
#include "tablebase/analysis_json.h"
#include "tablebase/directory_lock.h"
#include "tablebase/game_tables.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/loopy_compact.h"
#include "tablebase/loopy_tier_solver.h"
#include "tablebase/tables_found.h"
#include "tablebase/temporary_folder.h"
#include "tablebase/wdl_analysis.h"

#if DROP16_MPI
#include "mpi/mpi_loopy_solver.h"
#endif

namespace app {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

nlohmann::ordered_json report_json(const solver::CyclicSolveReport& r, std::size_t roots) {
  return {{"roots", roots},
          {"positions", r.positions},
          {"moves", r.moves},
          {"links", r.links},
          {"wins", r.wins},
          {"draws", r.draws},
          {"losses", r.losses},
          {"longest_win", r.longest_win},
          {"longest_loss", r.longest_loss},
          {"counted_peak_mb", double(r.peak_bytes) / double(1 << 20)},
          {"explore_seconds", r.explore_seconds},
          {"solve_seconds", r.solve_seconds}};
}

void print_text(const nlohmann::ordered_json& j) {
  const auto& s = j["solved"];
  std::cout << j["variant"].get<std::string>() << ": " << s["positions"] << " positions ("
            << s["wins"] << " wins, " << s["draws"] << " draws, " << s["losses"]
            << " losses; longest win " << s["longest_win"] << " plies)\n";
  if (j.contains("fen")) print_analysis_text(j);
  std::cout << std::flush;
}

// A solve's answer j, with its time and peak memory, as JSON or as text.
void print_solved(nlohmann::ordered_json& j, std::chrono::steady_clock::time_point start,
                  bool json) {
  j["seconds"] = seconds_since(start);
  j["peak_memory_mb"] = peak_memory_mb();
  if (json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

// --- the answer, from whatever knows values by canonical key ---

// The analysis of p (the contract object, tablebase/analysis_json.h) into j, whose "variant" is
// set; refused when the probe does not know p or one of its children.
template <typename E, typename G, typename Probe>
void add_analysis(nlohmann::ordered_json& j, const G& game, const typename G::Position& p,
                  Probe&& probe) {
  const auto a = tablebase::analyze_wdl(game, p, probe);
  if (!a)
    throw UsageError("--fen: this position is not among " + j["variant"].get<std::string>() +
                     "'s (not reached from the positions it starts from)");
  std::vector<tablebase::MoveValue> moves;
  for (const auto& m : a->moves)
    moves.push_back({registry::move_text<E>(game, p, m.move), m.value});
  j.update(
      tablebase::analysis_json(j["variant"].get<std::string>(), E::fen(game, p), a->value, moves));
}

// The winning moves of the analysis in j, apart: what a player asks first.
void add_winning_moves(nlohmann::ordered_json& j) {
  j["winning_moves"] = nlohmann::ordered_json::array();
  for (const auto& m : j["moves"])
    if (m["value"] == "win") j["winning_moves"].push_back(m["move"]);
}

// The counts of a keyed table's header (tablebase::WdlTableInfo) or a loopy solve's
// (tablebase::LoopyTally): positions reached, by value, and the longest distances.
template <typename Counts>
nlohmann::ordered_json counts_json(const Counts& info) {
  return {{"positions", info.positions},
          {"wins", info.wins},
          {"draws", info.draws},
          {"losses", info.losses},
          {"longest_win", info.longest_win},
          {"longest_loss", info.longest_loss}};
}

nlohmann::ordered_json table_json(const std::string& dir, const std::string& file,
                                  const tablebase::WdlTable& t, bool loaded) {
  return {{"dir", dir},
          {"file", file},
          {"loaded", loaded},
          {"file_bytes", t.file_bytes()},
          {"bits_per_position",
           8.0 * double(t.file_bytes()) / double(std::max<std::uint64_t>(1, t.info().positions))}};
}

// The keyed table of what `solved` holds, written to DIR (solve --tables) and opened as query will
// open it. The entries are copied beside the solver's map and values, which are then freed for the
// writer's columns: both steps stay under --memory or the write is refused before it starts.
template <registry::KeyedEntry E, typename Solved, typename Roots>
tablebase::WdlTable write_keyed_table(const CyclicSolveRequest& r, const std::string& name,
                                      std::optional<Solved>& solved, Roots& roots) {
  using Entry = std::pair<common::Key, solver::WdlValue>;
  const std::uint64_t n = solved->report().positions;
  roots = {};
  const std::uint64_t need = std::max(solved->held_bytes() + n * sizeof(Entry),
                                      n * sizeof(Entry) + tablebase::wdl_table_write_bytes(n));
  if (need > r.memory_bytes)
    throw UsageError("--memory: writing the table of " + std::to_string(n) + " positions needs " +
                     std::to_string(need >> 20) + " MB, more than " +
                     std::to_string(r.memory_bytes >> 20) + " MB (raise --memory)");
  std::vector<Entry> entries;
  entries.reserve(n);
  solved->for_each_value(
      [&](const common::Key& k, solver::WdlValue v) { entries.emplace_back(k, v); });
  solved.reset();
  try {
    tablebase::write_wdl_table(
        tablebase::keyed_table_file(r.tables, E::info.id),
        {std::string(E::info.id), name, tablebase::key_format(E::info.id, E::kKeyFormat)},
        std::move(entries), r.zstd_level);
    return tablebase::open_keyed_table(r.tables, E::info.id, E::kKeyFormat, name);
  } catch (const tablebase::TableWriteError& e) {  // the machine's fault: status 1
    throw std::runtime_error(e.what());
  }
}

// A finished keyed table in DIR (locked for the solve), loaded rather than solved again; nullopt
// when DIR holds none. Other tables (another variant's, another format's) are never written
// beside, a damaged file is refused, named.
template <registry::KeyedEntry E>
std::optional<tablebase::WdlTable> finished_keyed_table(
    const CyclicSolveRequest& r, const std::string& name,
    std::optional<tablebase::DirectoryLock>& lock) {
  std::optional<tablebase::WdlTable> table;
  locking_tables_dir(r.tables, lock, [&] {
    tablebase::refuse_other_tables(r.tables, name, registry::TableFormat::keyed);
    if (tablebase::holds_keyed_table(r.tables, E::info.id))
      table.emplace(tablebase::open_keyed_table(r.tables, E::info.id, E::kKeyFormat));
  });
  return table;
}

// The reachable retrograde in memory, and with --tables (games with keyed tables) the whole
// variant's table written or loaded.
template <registry::WholeVariantEntry E>
void solve_reachable(const CyclicSolveRequest& r) {
  using G = typename E::Game;
  using Position = typename G::Position;
  const auto start = std::chrono::steady_clock::now();
  const PositionOptions& o = r.position;
  const std::string name = E::normalized(o.variant);
  const bool tabled = !r.tables.empty();
  // The game the roots are on, the roots, and the position asked about (none for a variant
  // without a start when no --fen is given).
  std::unique_ptr<G> game;
  std::vector<Position> roots;
  std::optional<Position> asked;
  if (o.fen || E::has_start(o.variant)) {
    auto s = E::setup(o.variant, o.fen);
    asked = s.position;
    game = std::move(s.game);
  }
  if (tabled || !E::has_start(o.variant)) {
    auto whole = whole_variant_roots<E>(o.variant, r.memory_bytes, "--tables");
    game = std::move(whole.game);
    roots = std::move(whole.positions);
  } else {
    roots = {*asked};
  }
  nlohmann::ordered_json j;
  j["variant"] = name;
  j["engine"] = "hash-map";

  const std::string file = tablebase::keyed_table_file(r.tables, E::info.id).string();
  std::optional<tablebase::DirectoryLock> lock;
  std::optional<tablebase::WdlTable> table;
  if constexpr (registry::KeyedEntry<E>)
    if (tabled) table = finished_keyed_table<E>(r, name, lock);

  if (table) {  // loaded
    j["solved"] = counts_json(table->info());
    j["tables"] = table_json(r.tables, file, *table, true);
    if (asked)
      add_analysis<E>(j, *game, *asked, [&](const common::Key& k) { return table->probe(k); });
  } else {
    const std::uint64_t roots_bytes = roots.size() * sizeof(Position);
    if (roots_bytes >= r.memory_bytes)
      throw UsageError("--memory: the " + std::to_string(roots.size()) + " positions " + name +
                       " starts from alone take " + std::to_string(roots_bytes >> 20) + " MB");
    solver::CyclicSolveOptions options;
    // What the process holds already, the roots with it, is counted against the cap.
    options.memory_bytes = r.memory_bytes - resident_under(r.memory_bytes);
    options.show_progress = !o.quiet;
    std::optional<solver::CyclicRetrograde<G>> solved;
    try {
      solved.emplace(*game, std::span<const Position>(roots), options);
    } catch (const solver::CyclicMemoryError& e) {
      constexpr bool loopy = E::info.tables.has(registry::TableFormat::loopy_tiers);
      throw UsageError(std::string(e.what()) +
                       (tabled && loopy ? " (raise --memory, or write loopy tier tables, a few "
                                          "bytes a position: --format loopy-tiers)"
                                        : " (raise --memory)"));
    }
    j["solved"] = report_json(solved->report(), roots.size());
    if (tabled) {  // answered from the file as query will answer
      if constexpr (registry::KeyedEntry<E>) {
        table.emplace(write_keyed_table<E>(r, name, solved, roots));
        j["tables"] = table_json(r.tables, file, *table, false);
        if (asked)
          add_analysis<E>(j, *game, *asked, [&](const common::Key& k) { return table->probe(k); });
      }
    } else if (asked) {
      add_analysis<E>(j, *game, *asked,
                      [&](const common::Key& k) { return solved->value_of_key(k); });
    }
  }
  if (asked) add_winning_moves(j);
  print_solved(j, start, o.json);
}

// solve --tables DIR --plan: how the loopy tier solver would hold each tier within --memory and
// --slice-minutes (whole, or a slice of blocks at a time with its children whole or the parts
// each slice needs: tablebase/loopy_slices.h), what it needs at the most and what it writes,
// from the space alone;
// nothing is solved or written. What a user reads before a run of hours.
template <tablebase::LoopyTierSpace Space>
void print_loopy_plan(const Space& space, const tablebase::LoopySolveOptions& options,
                      double slice_minutes, const std::string& name, std::uint64_t resident) {
  const tablebase::LoopyTierSolver<Space> solver(space, options);
  nlohmann::ordered_json tiers = nlohmann::ordered_json::array();
  std::uint64_t entries = 0, written = 0, sliced = 0, largest_file = 0;
  for (int t = 0; t < space.tier_count(); ++t) {
    const tablebase::LoopyTierPlan& p = solver.tier_plans()[std::size_t(t)];
    const std::uint64_t n = space.tier_size(t);
    entries += n;
    // At most a byte an entry for the values and a bit for the reached marks, before compression.
    const std::uint64_t bytes = n + (n + 63) / 64 * 8;
    written += bytes;
    largest_file = std::max(largest_file, n);
    sliced += p.sliced();
    nlohmann::ordered_json children = nlohmann::ordered_json::array();
    for (int c : space.tier_children(t)) children.push_back(space.tier_name(c));
    std::uint64_t longest = 0;
    for (const tablebase::LoopySlice& s : p.slices)
      longest = std::max(longest, s.entries.end - s.entries.begin);
    tiers.push_back({{"tier", space.tier_name(t)},
                     {"entries", n},
                     {"children", children},
                     {"slices", p.slices.size()},
                     {"largest_slice_entries", longest},
                     {"children_read", p.children_whole ? "whole" : "the parts each slice needs"},
                     {"peak_bytes", p.peak_bytes},
                     {"fits", p.fits}});
  }
  const std::uint64_t planned = solver.planned_bytes();
  nlohmann::ordered_json j;
  j["variant"] = name;
  // What the process holds already (binary, libraries, the space) and what --memory leaves the
  // solve beside it.
  j["resident_bytes"] = resident;
  j["memory_cap_bytes"] = options.memory_bytes;
  j["planned_memory_bytes"] = planned;
  j["planned_memory"] = solver::size_text(planned);
  j["fits"] = planned <= options.memory_bytes;
  j["fixed_bytes"] = solver.fixed_bytes();
  j["reach_bytes"] = solver.reach_bytes();
  j["entries"] = entries;
  j["tiers"] = space.tier_count();
  j["sliced_tiers"] = sliced;
  // Slices no longer than this (but for a single block), so that one takes about slice_minutes of
  // CPU at most: what a stopped run loses.
  j["slice_cpu_minutes"] = slice_minutes;
  j["slice_entries"] = options.slice_entries;
  // The tables at a byte an entry and a bit: compression takes them to a fraction (LOOPY.md);
  // a sliced tier's slice files and its merged file are both there until the merge ends.
  j["disk_bytes_uncompressed"] = written;
  j["largest_tier_file_bytes_uncompressed"] = largest_file;
  j["tier_plans"] = tiers;
  std::cout << j.dump(2) << std::endl;
}

// The loopy tier space of the variant, or nullptr when it indexes no such variant (one too large
// to index, or not a whole variant).
template <registry::WholeVariantEntry E>
std::unique_ptr<const tablebase::loopy_space_t<typename E::Game>> loopy_space_or_null(
    const std::string& variant) {
  if (!E::root_count(variant)) return nullptr;
  try {
    return tablebase::LoopySpaceOf<typename E::Game>::of(variant);
  } catch (const std::invalid_argument&) {
    return nullptr;
  }
}

// solve --tables for a game with loopy tier tables: the whole variant's space solved tier by tier
// into DIR (tablebase/loopy_tier_solver.h: progress on stderr, the tiers a stopped run finished
// skipped, refused before it starts when its plan passes --memory), then the position asked about
// answered from the files as query answers it. The counts are over the positions play reaches from
// the variant's start, as the reachable retrograde's. A solve without --tables runs this into a
// temporary folder (`temporary`: the answer names no folder) with the space it chose by (`built`).
template <registry::WholeVariantEntry E>
void solve_loopy_tables(
    const CyclicSolveRequest& r, bool temporary = false,
    std::unique_ptr<const tablebase::loopy_space_t<typename E::Game>> built = nullptr) {
  using Space = tablebase::loopy_space_t<typename E::Game>;
  const auto start = std::chrono::steady_clock::now();
  const PositionOptions& o = r.position;
  whole_variant_root_count<E>(o.variant, "--tables");
  const std::string name = E::normalized(o.variant);
  std::optional<typename E::Game::Position> asked;
  if (o.fen || E::has_start(o.variant)) asked = E::setup(o.variant, o.fen).position;
  reporting_table_solve_faults(
      [&] { tablebase::refuse_other_tables(r.tables, name, registry::TableFormat::loopy_tiers); });
  std::unique_ptr<const Space> space = std::move(built);
  try {
    if (!space) space = tablebase::LoopySpaceOf<typename E::Game>::of(o.variant);
  } catch (const std::invalid_argument& e) {  // too large to index
    throw UsageError("--tables: " + std::string(e.what()));
  }
  tablebase::LoopySolveOptions options;
  options.dir = r.tables;
  // What the process holds already (binary, libraries, the space) is counted against the cap:
  // the solve plans what it adds.
  const std::uint64_t resident = resident_under(r.memory_bytes);
  options.memory_bytes = r.memory_bytes - resident;
  options.threads = r.threads;
  options.show_progress = !o.quiet;
  options.slice_entries = tablebase::loopy_slice_entries(r.slice_minutes);
  if (r.zstd_level_given) options.zstd_level = r.zstd_level;
  tablebase::LoopySolveReport report;
  nlohmann::ordered_json mpi_ranks;
  if constexpr (tablebase::loopy_compact<Space>()) {
    if (r.plan_only)
      throw UsageError("--plan: " + name +
                       " is solved holding what play reaches, which only its reach counts; " +
                       "its memory is checked against --memory before the reach and after it");
    if (r.mpi)
      throw UsageError("--mpi: " + name +
                       " is solved holding what play reaches, by one process (its tiers are "
                       "few, and one block each)");
    report = reporting_table_solve_faults(
        [&] { return tablebase::CompactLoopySolver<Space>(*space, options).run(); });
  } else {
    if (r.plan_only) return print_loopy_plan(*space, options, r.slice_minutes, name, resident);
    if (r.mpi) {
#if DROP16_MPI
      const auto solved = reporting_table_solve_faults([&] {
        return reporting_rank_failures([&] { return mpi_solve::solve_loopy_mpi(*space, options); });
      });
      if (!solved) return;  // an MPI rank other than 0: rank 0 answers
      report = solved->tiers;
      mpi_ranks = mpi_ranks_json(solved->ranks);
#else
      refuse_mpi_unbuilt();
#endif
    } else {
      report = reporting_table_solve_faults(
          [&] { return tablebase::LoopyTierSolver<Space>(*space, options).run(); });
    }
  }
  nlohmann::ordered_json j;
  j["variant"] = name;
  j["engine"] = "tiers";
  j["solved"] = counts_json(report.reached);
  j["tables"] = {
      {"dir", temporary ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.tables)},
      {"temporary", temporary},
      {"format", registry::table_format_name(registry::TableFormat::loopy_tiers)},
      {"tiers", report.tiers},
      {"tiers_solved", report.tiers_solved},
      {"tiers_resumed", report.tiers_resumed},
      {"slices_solved", report.slices_solved},
      {"slices_resumed", report.slices_resumed},
      {"reach_tiers_resumed", report.reach_tiers_resumed},
      {"reach_blocks_resumed", report.reach_blocks_resumed},
      {"reach_checkpoints", report.reach_checkpoints},
      {"entries", report.entries.positions + report.entries.not_in_row},
      {"entries_not_in_row", report.entries.not_in_row},
      {"file_bytes", report.table_bytes},
      {"bits_per_position", 8.0 * double(report.table_bytes) /
                                double(std::max<std::uint64_t>(1, report.reached.positions))},
      {"planned_memory_mb", double(report.planned_bytes) / double(1 << 20)},
      // Held before the solve began: --memory holds this and the plan.
      {"resident_at_start_mb", double(resident) / double(1 << 20)},
      {"reach_seconds", report.reach_seconds},
      {"solve_seconds", report.solve_seconds},
      {"reach_cpu_seconds", report.reach_cpu_seconds},
      {"solve_cpu_seconds", report.solve_cpu_seconds},
      {"longest_slice_cpu_seconds", report.longest_slice_cpu_seconds}};
  if (r.mpi) j["tables"]["mpi_ranks"] = mpi_ranks;
  if (asked) {
    space.reset();
    tablebase::LoopyGameTables<E> tables(r.tables, name);
    add_analysis<E>(j, tables.game(), *asked,
                    [&](const common::Key& k) { return tables.probe(k); });
    add_winning_moves(j);
  }
  print_solved(j, start, o.json);
}

// Whether solve --tables writes E's loopy tier tables: --format names a format of E's whole
// variants' tables (a UsageError naming E's own otherwise), and without it keyed is the default
// where E has it, as its keyed table takes every variant of E and its tier space may not.
template <registry::WholeVariantEntry E>
bool writes_loopy_tiers(const std::string& format) {
  using registry::TableFormat;
  std::vector<std::string_view> names;
  for (const TableFormat t : {TableFormat::keyed, TableFormat::loopy_tiers})
    if (E::info.tables.has(t)) names.push_back(registry::table_format_name(t));
  if (format.empty()) return !E::info.tables.has(TableFormat::keyed);
  for (const std::string_view name : names)
    if (format == name) return format == registry::table_format_name(TableFormat::loopy_tiers);
  throw UsageError("--format " + format + ": " + std::string(E::info.title) +
                   "'s tables are written as " + registry::joined_with_and(names));
}

template <registry::WholeVariantEntry E>
void query_table(const PositionOptions& o, const std::string& dir, bool variant_given) {
  using G = typename E::Game;
  const auto start = std::chrono::steady_clock::now();
  // A --variant naming a whole variant must be the tables'; one naming only the game (plain
  // spock) takes the variant from the tables.
  const std::string row =
      variant_given && E::root_count(o.variant) ? E::normalized(o.variant) : std::string();
  if constexpr (registry::KeyedEntry<E>)
    if (!tablebase::holds_loopy_tables<E>(dir)) require_keyed_table<E>(dir);
  tablebase::GameTablesOf<E> table(dir, row);
  const auto s = E::setup(table.variant(), o.fen);
  nlohmann::ordered_json j;
  j["variant"] = table.variant();
  const auto probe = [&](const common::Key& k) { return table.probe(k); };
  add_analysis<E>(j, *s.game, s.position, probe);
  const double first_seconds = seconds_since(start);
  // Probe times over the position and every move's child: cold with the block cache dropped
  // before each probe (file open, OS page cache as it is), warm with it kept.
  std::vector<common::Key> probed{s.game->canonical_key(s.position)};
  typename G::MoveList moves;
  s.game->generate(s.position, moves);
  for (int i = 0; i < moves.size(); ++i) {
    typename G::Position child = s.position;
    s.game->make(child, moves[i]);
    probed.push_back(s.game->canonical_key(child));
  }
  double cold_seconds = 0;
  for (const common::Key& k : probed) {
    table.drop_cache();
    const auto t = std::chrono::steady_clock::now();
    table.probe(k);
    cold_seconds += seconds_since(t);
  }
  constexpr int kWarmRounds = 100;
  const auto warm = std::chrono::steady_clock::now();
  for (int i = 0; i < kWarmRounds; ++i)
    for (const common::Key& k : probed) table.probe(k);
  const double warm_seconds = seconds_since(warm);
  j["seconds"] = first_seconds;
  j["probes"] = probed.size();
  j["cold_microseconds_per_probe"] = cold_seconds * 1e6 / double(probed.size());
  j["warm_microseconds_per_probe"] = warm_seconds * 1e6 / double(probed.size()) / kWarmRounds;
  if (o.json) {
    std::cout << j.dump() << std::endl;
  } else {
    print_analysis_text(j);
    std::cout << std::flush;
  }
}

}  // namespace

// Without --tables, the tier space the row is solved by into a temporary folder, or nullptr for
// the hash map: --engine's choice, else the tier engine for a whole row (the variant's start, or
// every placement of a row that has none) and the hash map for a --fen's subgame, which reaches a
// part of the row (how much only its reach tells) where the tier engine would solve the row whole
// for it. A variant the tier space does not index is the hash map's.
template <registry::WholeVariantEntry E>
std::unique_ptr<const tablebase::loopy_space_t<typename E::Game>> space_solving_by_tiers(
    const CyclicSolveRequest& r) {
  if (r.engine == "hash-map" || (r.engine.empty() && r.position.fen)) return nullptr;
  auto space = loopy_space_or_null<E>(r.position.variant);
  if (!space && r.engine == "tiers")
    throw UsageError("--engine tiers: " + std::string(E::info.title) +
                     "'s tier space indexes no variant " + r.position.variant +
                     " (its rows: " + std::string(E::info.whole_variants) + ")");
  return space;
}

void run_cyclic_solve(const CyclicSolveRequest& r) {
  with_capability<registry::Solver::reachable_retrograde>(r.position.variant, [&](auto e) {
    using E = decltype(e);
    const bool loopy = !r.tables.empty() && writes_loopy_tiers<E>(r.format);
    if constexpr (E::info.tables.has(registry::TableFormat::loopy_tiers)) {
      if (loopy) return solve_loopy_tables<E>(r);
      if (r.tables.empty())
        if (auto space = space_solving_by_tiers<E>(r)) {
          const tablebase::TemporaryFolder folder("drop16-solve");
          CyclicSolveRequest in_folder = r;
          in_folder.tables = folder.path().string();
          return solve_loopy_tables<E>(in_folder, true, std::move(space));
        }
    }
    for (const auto& [given, option] :
         {std::pair{r.plan_only, "--plan"}, std::pair{r.slice_minutes_given, "--slice-minutes"},
          std::pair{r.mpi, "--mpi"}})
      if (given)
        throw UsageError(std::string(option) + ": only with --tables and --format loopy-tiers");
    solve_reachable<E>(r);
  });
}

void run_cyclic_query(const PositionOptions& o, const std::string& dir, bool variant_given) {
  with_capability<registry::Solver::reachable_retrograde>(o.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (tablebase::has_whole_variant_tables<E>())
      query_table<E>(o, dir, variant_given);
    else
      throw std::logic_error(std::string(E::info.title) + " has no tables of whole variants");
  });
}

}  // namespace app
