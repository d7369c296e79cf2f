// drop16 solve for the games valued per coalition of players (app/coalition_solve.h): the
// coalition solver (solver/coalition_solve.h) over every position reachable from the asked one,
// then that position's value for every coalition, named by the entry's players. With --tables DIR
// (games with coalition tables), everything reachable from the variant's start solved and written
// to DIR/<game>.coalitions (tablebase/coalition_table.h), or loaded when an earlier run finished
// it, and the asked position answered from the file as query answers it.
//
// --memory holds for the process's resident memory: what it holds before the solve is measured
// and the rest is the solver's counted cap (solver/counted_memory.h). The positions reachable are
// not known before they are explored, so the exploration is stopped at the first growth that would
// pass the cap (the message says how many positions and links it had reached); the labelling takes
// all its arrays before its first step, so a solve whose labelling does not fit is refused before
// it labels anything. Writing the table gathers the values beside the solve (48 bytes a position),
// frees the solve, then lays out the file's columns: refused before it gathers anything when
// either step would pass the cap.
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "app/coalition_solve.h"
#include "app/games.h"
#include "app/mpi_ranks.h"
#include "app/resources.h"
#include "app/stop_signals.h"
#include "app/table_solve_faults.h"
#include "solver/coalition_solve.h"
#include "solver/counted_memory.h"
#include "solver/progress.h"
#include "solver/size_text.h"
#include "solver/wdl.h"
#include "tablebase/coalition_json.h"
#include "tablebase/coalition_table.h"
#include "tablebase/coalition_tier_solver.h"
#include "tablebase/coalition_tier_tables.h"
#include "tablebase/coalition_widening_solver.h"
#include "tablebase/directory_lock.h"
#include "tablebase/game_tables.h"
#include "tablebase/tables_found.h"
#include "tablebase/tier_solve_options.h"

#if DROP16_MPI
#include "mpi/mpi_coalition_solver.h"
#endif

namespace app {

namespace {

// "white+green": a coalition by the entry's players' names.
template <registry::CoalitionEntry E>
std::string coalition_name(std::uint32_t s) {
  return tablebase::coalition_name(E::kPlayers, s);
}

// Each split's counts over the canonical positions, named by its coalition and the rest.
template <registry::CoalitionEntry E>
nlohmann::ordered_json splits_json(int players, const std::vector<solver::CoalitionTally>& splits) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const std::uint32_t everyone = (1u << players) - 1;
  for (const solver::CoalitionTally& t : splits)
    out.push_back({{"coalition", coalition_name<E>(t.coalition)},
                   {"against", coalition_name<E>(everyone & ~t.coalition)},
                   {"wins", t.wins},
                   {"draws", t.draws},
                   {"losses", t.losses},
                   {"longest_win", t.longest_win},
                   {"longest_loss", t.longest_loss}});
  return out;
}

// The longest forced win of any coalition (-1: none anywhere).
int longest_of(const std::vector<int>& longest_wins) {
  return *std::max_element(longest_wins.begin(), longest_wins.end());
}

template <registry::CoalitionEntry E>
nlohmann::ordered_json solution_json(const solver::CoalitionSolveReport& r) {
  return {{"positions", r.positions},
          {"moves", r.moves},
          {"links", r.links},
          {"renamings", r.renamings},
          {"coalition_classes", r.coalition_classes},
          {"kingmakers", r.kingmakers},
          {"longest_forced_win", tablebase::distance_json(longest_of(r.longest_wins))},
          {"splits", splits_json<E>(r.players, r.splits)},
          {"counted_peak_mb", double(r.peak_bytes) / double(1 << 20)},
          {"explore_seconds", r.explore_seconds},
          {"solve_seconds", r.solve_seconds}};
}

// What a table's header says of the positions reached from the start.
template <registry::CoalitionEntry E>
nlohmann::ordered_json table_counts_json(const tablebase::CoalitionTableInfo& info) {
  return {{"positions", info.positions},
          {"kingmakers", info.kingmakers},
          {"longest_forced_win", tablebase::distance_json(longest_of(info.longest_wins))},
          {"splits", splits_json<E>(info.players, info.splits)}};
}

// Each coalition's value at the asked position (by coalition), and its longest forced win
// anywhere reached.
template <registry::CoalitionEntry E>
nlohmann::ordered_json coalitions_json(const std::vector<solver::WdlValue>& values,
                                       const std::vector<int>& longest_wins) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const std::uint32_t s : tablebase::coalitions_by_size(int(E::kPlayers.size()))) {
    nlohmann::ordered_json c = tablebase::coalition_value_json(E::kPlayers, s, values[s]);
    c["longest_win"] = tablebase::distance_json(longest_wins[s]);
    out.push_back(c);
  }
  return out;
}

void print_text(const nlohmann::ordered_json& j) {
  const auto& s = j["solved"];
  std::cout << j["variant"].get<std::string>() << ": " << s["positions"]
            << " positions reached (up to symmetry), "
            << (s.contains("links") ? s["links"].dump() + " links, " : std::string())
            << s["kingmakers"] << " kingmaker positions; longest forced win "
            << (s["longest_forced_win"].is_null() ? "none"
                                                  : s["longest_forced_win"].dump() + " plies")
            << "\n";
  print_coalition_values(j);
  print_winning_coalitions(j);
  if (j.contains("tables"))
    std::cout << "table " << j["tables"]["file"].get<std::string>() << " ("
              << (j["tables"]["loaded"].get<bool>() ? "loaded" : "written") << ", "
              << j["tables"]["file_bytes"] << " bytes)\n";
  std::cout << "solved in " << j["seconds"].get<double>() << " s, peak memory "
            << j["peak_memory_mb"].get<double>() << " MB" << std::endl;
}

template <solver::CoalitionGame G>
std::unique_ptr<solver::CoalitionRetrograde<G>> solve_from(const G& game,
                                                           const typename G::Position& root,
                                                           std::uint64_t cap, bool progress) {
  try {
    return std::make_unique<solver::CoalitionRetrograde<G>>(
        game, std::span(&root, 1), solver::CoalitionSolveOptions{cap, progress});
  } catch (const solver::CyclicMemoryError& e) {
    throw UsageError(std::string(e.what()) + " (raise --memory)");
  }
}

// The answer's fields about the asked position p: who moves, every coalition's value (by
// coalition), the winning coalitions.
template <registry::CoalitionEntry E>
void add_position(nlohmann::ordered_json& j, const typename E::Game& game,
                  const typename E::Game::Position& p, const std::vector<solver::WdlValue>& values,
                  const std::vector<int>& longest_wins) {
  const nlohmann::ordered_json head = coalition_position_json<E>(game, p);
  for (const auto& [key, value] : head.items()) j[key] = value;
  j["coalitions"] = coalitions_json<E>(values, longest_wins);
  add_winning_coalitions(j);
}

template <registry::CoalitionEntry E>
void print_solved(nlohmann::ordered_json& j, const CoalitionSolveRequest& r,
                  std::chrono::steady_clock::time_point start) {
  j["memory_mb"] = double(r.memory_bytes) / double(1 << 20);
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["peak_memory_mb"] = peak_memory_mb();
  if (r.position.json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

template <registry::CoalitionEntry E>
void solve_position(const CoalitionSolveRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  const PositionOptions& o = r.position;
  const auto s = E::setup(o.variant, o.fen);
  const auto& game = *s.game;
  const std::uint64_t memory = coalition_memory(game.keys_fit(), game.key_bits(), r.memory_bytes);
  solver::CoalitionSolution solution;
  try {
    solution = solver::solve_coalitions(game, s.position, {memory, !o.quiet});
  } catch (const solver::CyclicMemoryError& e) {
    throw UsageError(std::string(e.what()) + " (raise --memory)");
  }
  nlohmann::ordered_json j;
  j["variant"] = E::variant_name(game);
  add_position<E>(j, game, s.position, solution.root_values, solution.report.longest_wins);
  j["solved"] = solution_json<E>(solution.report);
  print_solved<E>(j, r, start);
}

// --- --tables ---

// DIR's finished table of the variant (DIR locked for the solve), loaded and read whole (every
// block's checksum, the header's counts) rather than solved again; nullopt when DIR holds none. One
// of another variant, another game's tables or a damaged file are refused, named, never replaced.
template <registry::CoalitionTablesEntry E>
std::optional<tablebase::CoalitionTable> finished_table(
    const CoalitionSolveRequest& r, const std::string& name,
    std::optional<tablebase::DirectoryLock>& lock) {
  std::optional<tablebase::CoalitionTable> table;
  locking_tables_dir(r.tables, lock, [&] {
    tablebase::refuse_other_tables(r.tables, name, registry::TableFormat::coalitions);
    if (!tablebase::holds_coalition_table(r.tables, E::info.id)) return;
    table.emplace(tablebase::open_coalition_table(r.tables, E::info.id, E::kKeyFormat,
                                                  int(E::kPlayers.size())));
    table->verify_all();  // every block, before a value of it is trusted
  });
  return table;
}

// Writes what `solved` holds to DIR and frees the solve: the values gathered in key order
// beside it, the solve freed, then the file's columns laid out. Refused (UsageError, nothing
// written) when either step would take the process past --memory.
template <registry::CoalitionTablesEntry E, typename G>
void write_table(const CoalitionSolveRequest& r, const std::string& name,
                 std::unique_ptr<solver::CoalitionRetrograde<G>>& solved, std::uint64_t resident) {
  const std::uint64_t n = solved->report().positions;
  const int players = solved->players();
  const int count = solver::CoalitionSplits(players).count();
  const std::uint64_t gathered = n * (sizeof(common::Key) + sizeof(std::uint32_t) * (count + 1));
  const std::uint64_t need =
      resident + std::max(solved->held_bytes() + gathered,
                          gathered + tablebase::coalition_table_write_bytes(n, players));
  if (need > r.memory_bytes)
    throw UsageError("--memory: writing the table of " + std::to_string(n) + " positions needs " +
                     solver::size_text(need) + ", more than " + solver::size_text(r.memory_bytes) +
                     " (raise --memory)");
  tablebase::CoalitionTableInfo info;
  info.game = E::info.id;
  info.name = name;
  info.key_format = tablebase::key_format(E::info.id, E::kKeyFormat);
  info.players = players;
  info.kingmakers = solved->report().kingmakers;
  info.longest_wins = solved->report().longest_wins;
  std::vector<common::Key> keys;
  std::vector<std::uint32_t> words;  // packed (wdl.h), count a position
  keys.reserve(n);
  words.reserve(n * count);
  solved->for_each_value([&](const common::Key& k, std::span<const solver::WdlValue> values) {
    keys.push_back(k);
    for (const solver::WdlValue v : values) words.push_back(solver::pack_wdl(v));
  });
  solved.reset();
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  try {
    tablebase::write_coalition_table(
        tablebase::coalition_table_file(r.tables, E::info.id), info, n,
        [&](std::uint64_t i) { return keys[order[i]]; },
        [&](std::uint64_t i, std::span<solver::WdlValue> out) {
          for (int u = 0; u < count; ++u)
            out[u] = solver::unpack_wdl(words[std::uint64_t(order[i]) * count + u]);
        },
        r.zstd_level);
  } catch (const tablebase::TableWriteError& e) {  // the machine's fault: status 1
    throw std::runtime_error(e.what());
  }
}

template <registry::CoalitionTablesEntry E>
void solve_tables(const CoalitionSolveRequest& r) {
  using G = typename E::Game;
  const auto start = std::chrono::steady_clock::now();
  const PositionOptions& o = r.position;
  const std::string name = E::normalized(o.variant);
  const auto asked = E::setup(o.variant, o.fen);
  const G& game = *asked.game;
  if (!game.keys_fit())
    throw UsageError("solve: this variant's positions need " + std::to_string(game.key_bits()) +
                     " bits, more than the 128-bit exact keys its tables hold them by");
  std::optional<tablebase::DirectoryLock> lock;
  std::optional<tablebase::CoalitionTable> table = finished_table<E>(r, name, lock);
  const bool loaded = table.has_value();
  nlohmann::ordered_json solved;
  if (!loaded) {
    const std::uint64_t resident = resident_under(r.memory_bytes);
    auto retrograde =
        solve_from(game, game.start(), r.memory_bytes - resident, !o.quiet);  // the whole variant
    solved = solution_json<E>(retrograde->report());
    write_table<E>(r, name, retrograde, resident);
    try {
      table.emplace(tablebase::open_coalition_table(r.tables, E::info.id, E::kKeyFormat,
                                                    int(E::kPlayers.size()), name));
    } catch (const tablebase::TableError& e) {
      throw std::runtime_error(e.what());  // just written: the machine's fault
    }
  }
  const auto values = tablebase::coalition_values_at(game, *table, asked.position);
  if (!values)
    throw UsageError("--fen: this position is not among " + name +
                     "'s (not reached from its start, which its table holds)");
  nlohmann::ordered_json j;
  j["variant"] = name;
  add_position<E>(j, game, asked.position, *values, table->info().longest_wins);
  j["solved"] = loaded ? table_counts_json<E>(table->info()) : solved;
  const std::string file = tablebase::coalition_table_file(r.tables, E::info.id).string();
  j["tables"] = {
      {"dir", r.tables},
      {"file", file},
      {"format", registry::table_format_name(registry::TableFormat::coalitions)},
      {"loaded", loaded},
      {"file_bytes", table->file_bytes()},
      {"bytes_per_position",
       double(table->file_bytes()) / double(std::max<std::uint64_t>(1, table->info().positions))}};
  print_solved<E>(j, r, start);
}

// --- --format coalition-tiers ---

// Whether E's coalition tier space numbers the variant (a block key of 64 bits at most).
template <registry::CoalitionEntry E>
bool tier_space_takes(const std::string& variant) {
  try {
    tablebase::CoalitionSpaceOf<typename E::Game>::of(E::normalized(variant));
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

template <registry::CoalitionEntry E>
void solve_coalition_tiers(const CoalitionSolveRequest& r) {
  using G = typename E::Game;
  using Space = tablebase::coalition_space_t<G>;
  const auto start = std::chrono::steady_clock::now();
  const PositionOptions& o = r.position;
  const std::string name = E::normalized(o.variant);
  const auto asked = E::setup(o.variant, o.fen);
  std::unique_ptr<Space> space;
  try {
    space = tablebase::CoalitionSpaceOf<G>::of(name);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--format coalition-tiers: ") + e.what());
  }
  // Ctrl-C stops at the end of the tier under way, the reach's checkpoint or the tier's file
  // written: a rerun goes on from there.
  const auto stop = stop_on_signals(
      "drop16: stopping at the end of the tier under way, its work kept; again to stop at once\n");
  const auto stopped = [&](const std::string& kept) {
    return tablebase::SolveInterrupted("stopped: " + kept + " " + r.tables +
                                       "; run the same command again to go on");
  };
  // The row's positions: their index read from DIR, else found from the start and written there.
  bool indexed = false;
  const auto find_positions = [&] {
    tablebase::refuse_other_tables(r.tables, name, registry::TableFormat::coalition_tiers);
    indexed = space->load_index(r.tables);
    if (indexed) return;
    // The reach cannot be planned (what it finds is what it holds): it stops when the process
    // passes --memory, kept where it stood (a run with more goes on from there).
    solver::Progress progress("reach", std::uint64_t(space->tier_count()), "tiers", !o.quiet);
    int shown = 0;
    space->discover(r.threads, r.tables, [&](int tiers, std::uint64_t positions) {
      progress.advance(std::uint64_t(tiers - shown));
      progress.add_to_rate(shown ? std::uint64_t(tiers - shown) : 1);  // not the tiers resumed
      shown = tiers;
      progress.set_stage(std::to_string(positions) + " positions, " +
                         solver::size_text(resident_bytes()) + " held");
      if (resident_bytes() > r.memory_bytes)
        throw UsageError("--memory: the reach of " + name + " holds " +
                         solver::size_text(resident_bytes()) + " after " + std::to_string(tiers) +
                         " of " + std::to_string(space->tier_count()) + " tiers (" +
                         std::to_string(positions) + " positions), more than " +
                         solver::size_text(r.memory_bytes) +
                         "; kept where it stands: run again with more --memory to go on");
      if (stop())
        throw stopped("the reach of " + name + " at " + std::to_string(tiers) + " of " +
                      std::to_string(space->tier_count()) + " tiers, kept in");
    });
    space->save_index(r.tables, r.zstd_given ? r.zstd_level : 8);
    // What the reach freed (its positions found ahead, its blocks' places while reached) given
    // back, so that the solve's plan below counts the index held, not the reach's leftovers.
    malloc_trim(0);
  };
  // The solve holds tiers' codes and blocks' arrays of megabytes, allocated and freed by both
  // threads in turn: past glibc's dynamic mmap threshold they were kept in its arenas when freed,
  // and the process held up to 7% more than the plan counted. Mapped from a megabyte on, each is
  // given back when freed.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  tablebase::CoalitionTierSolveOptions options;
  options.threads = r.threads;
  options.dir = r.tables;
  options.zstd_level = r.zstd_given ? r.zstd_level : 8;
  // The codes' budget of a solve in codes of `code_bytes` whose blocks' arrays take up to `work`:
  // what --memory leaves beside the process now (the index held) and those arrays; at least the
  // largest tier's own codes, else refused.
  const auto budget = [&](std::size_t code_bytes, std::uint64_t work) {
    const std::uint64_t resident = resident_under(r.memory_bytes);
    const std::uint64_t splits = std::uint64_t(tablebase::SplitRenaming(space->players()).count());
    std::uint64_t largest = 0;
    for (int t = 0; t < space->tier_count(); ++t)
      largest = std::max<std::uint64_t>(largest, space->tier_size(t) * splits * code_bytes);
    if (resident + work + largest > r.memory_bytes)
      throw UsageError("--memory: the solve of " + name + " needs " +
                       solver::size_text(resident + work + largest) + " (the process holds " +
                       solver::size_text(resident) + ", the blocks' arrays take up to " +
                       solver::size_text(work) + ", the largest tier's codes " +
                       solver::size_text(largest) + "), more than " +
                       solver::size_text(r.memory_bytes) + " (raise --memory)");
    return r.memory_bytes - resident - work;
  };
  tablebase::CoalitionTierReport report;
  std::size_t code_bytes = sizeof(tablebase::CoalitionCode);
  nlohmann::ordered_json mpi_ranks;
  if (r.mpi) {
#if DROP16_MPI
    // A rank's refusal travels as the error the tier solvers refuse a plan with (exit status 2).
    const auto rank_budget = [&](std::size_t code_bytes, std::uint64_t work) {
      try {
        return budget(code_bytes, work);
      } catch (const UsageError& e) {
        throw tablebase::MemoryCapError(e.what());
      }
    };
    const auto load_index = [&] {
      if (!space->load_index(r.tables))
        throw tablebase::TableError(r.tables, "holds no index of " + name + " (rank 0 wrote none)");
    };
    const mpi_solve::CoalitionRankSetup setup{find_positions, load_index, rank_budget};
    const auto solved = reporting_table_solve_faults([&] {
      return reporting_rank_failures([&] {
        return mpi_solve::solve_coalition_mpi(*space, options, setup, {!o.quiet, stop});
      });
    });
    if (!solved) return;  // an MPI rank other than 0: rank 0 answers
    report = solved->tiers;
    code_bytes = solved->code_bytes;
    mpi_ranks = mpi_ranks_json(solved->ranks);
#else
    refuse_mpi_unbuilt();
#endif
  } else {
    std::optional<tablebase::DirectoryLock> lock;
    locking_tables_dir(r.tables, lock, find_positions);
    // Codes of a byte first; a row whose forced results pass them goes on in two, reading the
    // tiers already solved as they were written.
    tablebase::WideningCoalitionSolver<Space> tiers(
        *space, options, budget, [&](const std::string& why) {
          if (!o.quiet) std::cerr << "solve: " << why << ": solving on in codes of two bytes\n";
        });
    report = tablebase::empty_coalition_report(space->players(), space->tier_count());
    std::uint64_t total = 0;
    for (int t = 0; t < space->tier_count(); ++t) total += space->tier_size(t);
    solver::Progress progress("solve", total, "positions", !o.quiet);
    for (int t = 0; t < space->tier_count(); ++t) {
      if (stop())
        throw stopped(t ? std::to_string(t) + " of " + std::to_string(space->tier_count()) +
                              " tiers solved, kept in"
                        : "the reach of " + name + ", done, kept in");
      tablebase::add_tier(report, t, space->tier_size(t), tiers.solve_tier(t));
      progress.advance(space->tier_size(t));
      progress.add_to_rate(space->tier_size(t));
    }
    const tablebase::CoalitionTierReport peaks = tiers.peaks();
    report.peak_held_bytes = peaks.peak_held_bytes;
    report.block_work_bytes = peaks.block_work_bytes;
    report.tiers_reread = peaks.tiers_reread;
    code_bytes = tiers.code_bytes();
  }
  tablebase::CoalitionTierTables<Space> tables(*space, r.tables);
  const auto values = tables.values_at(*asked.game, asked.position);
  if (!values)
    throw UsageError("--fen: this position is not among " + name +
                     "'s (not reached from its start, which its tables hold)");
  // Each coalition's longest win over the row, seats from the player to move named as the
  // start's players (the start's player to move is seat 0).
  const std::uint32_t everyone = (1u << asked.game->players()) - 1;
  std::vector<int> longest(everyone + 1, -1);
  for (const solver::CoalitionTally& t : report.splits) {
    longest[t.coalition] = t.wins ? t.longest_win : -1;
    longest[everyone & ~t.coalition] = t.losses ? t.longest_loss : -1;
  }
  nlohmann::ordered_json j;
  j["variant"] = name;
  add_position<E>(j, *asked.game, asked.position, *values, longest);
  j["solved"] = {
      {"positions", report.positions},
      {"kingmakers", report.kingmakers_counted ? nlohmann::ordered_json(report.kingmakers)
                                               : nlohmann::ordered_json()},
      {"tiers", space->tier_count()},
      {"longest_forced_win", tablebase::distance_json(longest_of(longest))},
      {"splits", splits_json<E>(asked.game->players(), report.splits)},
      {"tiers_read", report.tiers_read},
      {"tiers_read_back", report.tiers_reread},
      {"code_bytes", code_bytes},
      {"codes_held_peak_mb", double(report.peak_held_bytes) / double(1 << 20)},
      {"index_mb", double(space->memory_bytes()) / double(1 << 20)},
      {"block_work_peak_mb", double(report.block_work_bytes) / double(1 << 20)}};
  j["tables"] = {{"dir", r.tables},
                 {"format", registry::table_format_name(registry::TableFormat::coalition_tiers)},
                 {"loaded", indexed && report.tiers_read == space->tier_count()},
                 {"file_bytes", report.file_bytes}};
  if (r.mpi) j["tables"]["mpi_ranks"] = mpi_ranks;
  j["memory_mb"] = double(r.memory_bytes) / double(1 << 20);
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["peak_memory_mb"] = peak_memory_mb();
  j["bytes_per_position"] =
      peak_memory_mb() * double(1 << 20) / double(std::max<std::uint64_t>(1, report.positions));
  if (o.json) {
    std::cout << j.dump() << std::endl;
    return;
  }
  std::cout << name << ": " << report.positions << " positions reached (seen from the player to "
            << "move), in " << space->tier_count() << " tiers"
            << (report.kingmakers_counted
                    ? ", " + std::to_string(report.kingmakers) + " kingmaker positions"
                    : std::string())
            << "\n";
  print_coalition_values(j);
  print_winning_coalitions(j);
  std::cout << "tables " << r.tables << " (coalition-tiers, "
            << (j["tables"]["loaded"].get<bool>() ? "loaded" : "written") << ")\n";
  std::cout << "solved in " << j["seconds"].get<double>() << " s, peak memory "
            << j["peak_memory_mb"].get<double>() << " MB" << std::endl;
}

}  // namespace

std::uint64_t coalition_memory(bool keys_fit, int key_bits, std::uint64_t memory_bytes) {
  if (!keys_fit)
    throw UsageError("solve: this variant's positions need " + std::to_string(key_bits) +
                     " bits, more than the 128-bit exact keys the solvers hold them by");
  return memory_bytes - resident_under(memory_bytes);
}

void add_winning_coalitions(nlohmann::ordered_json& j) {
  j["winning_coalitions"] = nlohmann::ordered_json::array();
  for (const auto& c : j["coalitions"])
    if (c["value"] == "win") j["winning_coalitions"].push_back(c["coalition"]);
}

void print_winning_coalitions(const nlohmann::ordered_json& j) {
  std::cout << "winning coalitions:";
  for (const auto& c : j["winning_coalitions"]) std::cout << " " << c.get<std::string>();
  std::cout << (j["winning_coalitions"].empty() ? " none" : "") << "\n";
}

void print_coalition_values(const nlohmann::ordered_json& j) {
  std::cout << j["fen"].get<std::string>() << ": "
            << (j["to_move"].is_null() ? "the game is over"
                                       : j["to_move"].get<std::string>() + " to move")
            << "\n";
  std::size_t width = 0;
  for (const auto& c : j["coalitions"])
    width = std::max(width, c["coalition"].get<std::string>().size());
  for (const auto& c : j["coalitions"]) {
    const std::string name = c["coalition"].get<std::string>();
    std::cout << "  " << name << std::string(width - name.size() + 2, ' ')
              << c["value"].get<std::string>()
              << (c["distance"].is_null() ? "" : " in " + c["distance"].dump() + " plies") << "\n";
  }
}

void run_coalition_solve(const CoalitionSolveRequest& r) {
  with_capability<registry::Solver::coalition_values>(r.position.variant, [&](auto e) {
    using E = decltype(e);
    const std::string tiers(registry::table_format_name(registry::TableFormat::coalition_tiers));
    const std::string keyed(registry::table_format_name(registry::TableFormat::coalitions));
    if (!r.format.empty() && r.format != tiers && r.format != keyed)
      throw UsageError("--format " + r.format + ": " + std::string(E::info.title) +
                       "'s tables are " + tiers + " (the default) or " + keyed);
    // Coalition tier tables by default, where the game has them and its space takes the variant
    // (a few bytes a position where the keyed table's solve holds some 200).
    if constexpr (E::info.tables.has(registry::TableFormat::coalition_tiers))
      if (!r.tables.empty() &&
          (r.format == tiers || (r.format.empty() && tier_space_takes<E>(r.position.variant))))
        return solve_coalition_tiers<E>(r);
    if (r.mpi) throw UsageError("--mpi: only with --tables and " + tiers + " tables");
    if constexpr (registry::CoalitionTablesEntry<E> &&
                  E::info.tables.has(registry::TableFormat::coalitions))
      if (!r.tables.empty()) return solve_tables<E>(r);
    solve_position<E>(r);
  });
}

}  // namespace app
