// drop16 solve and query for games with cycles and draws (Spock, the rook race). solve: the cyclic
// retrograde solver (solver/cyclic_retrograde.h) over every position reachable from the roots, then
// the analysis of the position asked about; the roots are --fen's position (--variant spock, or
// the rook race's start by default), or every placement of a ladder row's pieces (--variant
// spock:WxH:BLUE/red). With --tables DIR a row's
// solved positions are written to DIR/spock.wdl (tablebase/wdl_table.h), and a rerun loads that
// file instead of solving again. query: the same answer from the file alone.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>

#include "app/cyclic_solve.h"
#include "app/games.h"
#include "app/resources.h"
#include "app/spock_row.h"
#include "app/spock_tables.h"
#include "rules/spock/material.h"
#include "solver/cyclic_retrograde.h"
#include "tablebase/directory_lock.h"
#include "tablebase/wdl_analysis.h"
#include "tablebase/wdl_table.h"

namespace app {

namespace {

nlohmann::ordered_json wdl_json(solver::WdlValue v) {
  nlohmann::ordered_json j;
  j["value"] = solver::wdl_name(v.wdl);
  // A draw has no distance: the game never ends.
  j["dte"] = v.wdl == solver::Wdl::draw ? nlohmann::ordered_json(nullptr)
                                        : nlohmann::ordered_json(v.distance);
  return j;
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

// The position's value and each move's, a line each ("c1b3  win in 3"; a draw has no distance).
void print_analysis_text(const nlohmann::ordered_json& j) {
  const auto in = [](const nlohmann::ordered_json& v) {
    return v["dte"].is_null() ? std::string() : " in " + v["dte"].dump();
  };
  std::cout << j["fen"].get<std::string>() << ": " << j["value"].get<std::string>() << in(j)
            << "\n";
  for (const auto& m : j["moves"])
    std::cout << "  " << m["move"].get<std::string>() << "  " << m["value"].get<std::string>()
              << in(m) << "\n";
}

void print_text(const nlohmann::ordered_json& j) {
  const auto& s = j["solved"];
  std::cout << j["variant"].get<std::string>() << ": " << s["positions"] << " positions ("
            << s["wins"] << " wins, " << s["draws"] << " draws, " << s["losses"]
            << " losses; longest win " << s["longest_win"] << " plies)\n";
  if (j.contains("fen")) print_analysis_text(j);
  std::cout << std::flush;
}

// --- the answer, from whatever knows values by canonical key ---

template <typename G, typename Probe>
void add_analysis(nlohmann::ordered_json& j, const G& game, const typename G::Position& p,
                  Probe&& probe) {
  const auto a = tablebase::analyze_wdl(game, p, probe);
  if (!a)
    throw UsageError("--fen: this position is not among " + j["variant"].get<std::string>() +
                     "'s (not a placement of the row's pieces, nor reached from one)");
  j["fen"] = fen_text(game, p);
  j.update(wdl_json(a->value));
  j["moves"] = nlohmann::ordered_json::array();
  for (const auto& m : a->moves) {
    nlohmann::ordered_json move = {{"move", move_text(game, m.move)}};
    move.update(wdl_json(m.value));
    j["moves"].push_back(move);
  }
}

nlohmann::ordered_json counts_json(const tablebase::WdlTableInfo& info) {
  return {{"positions", info.positions},
          {"wins", info.wins},
          {"draws", info.draws},
          {"losses", info.losses},
          {"longest_win", info.longest_win},
          {"longest_loss", info.longest_loss}};
}

nlohmann::ordered_json table_json(const std::string& dir, const tablebase::WdlTable& t,
                                  bool loaded) {
  return {{"dir", dir},
          {"file", spock_table_file(dir).string()},
          {"loaded", loaded},
          {"file_bytes", t.file_bytes()},
          {"bits_per_position",
           8.0 * double(t.file_bytes()) / double(std::max<std::uint64_t>(1, t.info().positions))}};
}

// The rook race: everything reachable from the start (or --fen's position) solved in memory, then
// that position's analysis; its winning first moves listed apart.
void solve_rookrace(const CyclicSolveRequest& r, std::chrono::steady_clock::time_point start) {
  const PositionOptions& o = r.position;
  if (!r.tables.empty())
    throw UsageError("--tables: the rook race is solved in memory only; solve it without --tables");
  const auto s = games::rookrace_setup(o.variant, o.fen);
  solver::CyclicSolveOptions options;
  options.memory_bytes = r.memory_bytes;
  options.show_progress = !o.quiet;
  std::optional<solver::CyclicRetrograde<rookrace::Game>> solved;
  const rookrace::Position root = s.position;
  try {
    solved.emplace(*s.game, std::span<const rookrace::Position>(&root, 1), options);
  } catch (const solver::CyclicMemoryError& e) {
    throw UsageError(std::string(e.what()) + " (raise --memory)");
  }
  nlohmann::ordered_json j;
  j["variant"] = variant_name(*s.game);
  j["solved"] = report_json(solved->report(), 1);
  add_analysis(j, *s.game, s.position,
               [&](const rookrace::Key& k) { return solved->value_of_key(k); });
  j["winning_moves"] = nlohmann::ordered_json::array();
  for (const auto& m : j["moves"])
    if (m["value"] == "win") j["winning_moves"].push_back(m["move"]);
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["peak_memory_mb"] = peak_memory_mb();
  if (o.json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

}  // namespace

void run_cyclic_solve(const CyclicSolveRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  if (games::names_rookrace(r.position.variant)) return solve_rookrace(r, start);
  const PositionOptions& o = r.position;
  const bool ladder_row = o.variant != kSpockVariant;
  if (!r.tables.empty() && !ladder_row)
    throw UsageError(
        "--tables: only a ladder row (--variant spock:WxH:BLUE/red) is written to tables; "
        "solve one position's game without --tables");
  std::unique_ptr<spock::Game> game;
  std::vector<spock::Position> roots;
  std::optional<spock::Position> asked;
  std::optional<spock::Material> material;
  if (ladder_row) {
    material = spock::parse_material(o.variant);
    game = std::make_unique<spock::Game>(material->width, material->height);
    if (o.fen) asked = make_spock_setup(o).position;
  } else {
    auto s = make_spock_setup(o);
    game = std::move(s.game);
    asked = s.position;
    roots = {s.position};
  }
  nlohmann::ordered_json j;
  j["variant"] = ladder_row ? material->name() : variant_name(*game);

  std::optional<tablebase::DirectoryLock> lock;
  std::optional<tablebase::WdlTable> table;
  if (!r.tables.empty()) {
    std::error_code error;
    std::filesystem::create_directories(r.tables, error);
    if (error) throw UsageError("--tables " + r.tables + ": cannot create: " + error.message());
    try {
      lock.emplace(r.tables);
      // A finished table is loaded, not solved again; one of another row is never replaced.
      if (holds_spock_table(r.tables)) table.emplace(open_spock_table(r.tables));
    } catch (const tablebase::DirectoryBusy& e) {
      throw UsageError(e.what());
    } catch (const tablebase::TableError& e) {  // damaged: refused, named
      throw UsageError(e.what());
    }
    if (table && table->info().name != material->name())
      throw UsageError("--tables " + r.tables + " holds the table of " + table->info().name +
                       ", not of " + material->name() + ": give another directory");
  }

  if (table) {  // loaded
    j["solved"] = counts_json(table->info());
    j["tables"] = table_json(r.tables, *table, true);
    if (asked) add_analysis(j, *game, *asked, [&](const spock::Key& k) { return table->probe(k); });
  } else {
    if (ladder_row) roots = spock_row_roots(*material, r.memory_bytes);
    const std::uint64_t roots_bytes = roots.size() * sizeof(spock::Position);
    if (roots_bytes >= r.memory_bytes)
      throw UsageError("--memory: the " + std::to_string(roots.size()) + " placements alone take " +
                       std::to_string(roots_bytes >> 20) + " MB");
    solver::CyclicSolveOptions options;
    options.memory_bytes = r.memory_bytes - roots_bytes;
    options.show_progress = !o.quiet;
    std::optional<solver::CyclicRetrograde<spock::Game>> solved;
    try {
      solved.emplace(*game, std::span<const spock::Position>(roots), options);
    } catch (const solver::CyclicMemoryError& e) {
      throw UsageError(std::string(e.what()) + " (raise --memory)");
    }
    j["solved"] = report_json(solved->report(), roots.size());
    if (!r.tables.empty()) {
      // Written, then answered from the file as query will answer. The entries are copied beside
      // the solver's map and values, which are then freed for the writer's columns: both steps
      // stay under --memory or the write is refused before it starts.
      using Entry = std::pair<spock::Key, solver::WdlValue>;
      const std::uint64_t n = solved->report().positions;
      roots = {};
      const std::uint64_t need = std::max(solved->held_bytes() + n * sizeof(Entry),
                                          n * sizeof(Entry) + tablebase::wdl_table_write_bytes(n));
      if (need > r.memory_bytes)
        throw UsageError("--memory: writing the table of " + std::to_string(n) +
                         " positions needs " + std::to_string(need >> 20) + " MB, more than " +
                         std::to_string(r.memory_bytes >> 20) + " MB (raise --memory)");
      std::vector<Entry> entries;
      entries.reserve(n);
      solved->for_each_value(
          [&](const spock::Key& k, solver::WdlValue v) { entries.emplace_back(k, v); });
      solved.reset();
      try {
        tablebase::write_wdl_table(spock_table_file(r.tables),
                                   {std::string(kSpockGame), material->name(), spock_key_format()},
                                   std::move(entries), r.zstd_level);
        table.emplace(open_spock_table(r.tables, material->name()));
      } catch (const tablebase::TableWriteError& e) {  // the machine's fault: status 1
        throw std::runtime_error(e.what());
      }
      j["tables"] = table_json(r.tables, *table, false);
      if (asked)
        add_analysis(j, *game, *asked, [&](const spock::Key& k) { return table->probe(k); });
    } else if (asked) {
      add_analysis(j, *game, *asked, [&](const spock::Key& k) { return solved->value_of_key(k); });
    }
  }
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["peak_memory_mb"] = peak_memory_mb();
  if (o.json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

void run_cyclic_query(const PositionOptions& o, const std::string& dir) {
  const auto start = std::chrono::steady_clock::now();
  // --variant spock (or none: the command's default is not a Spock name) takes the row from the
  // table; a row's name must be the table's.
  const std::string row = o.variant == kSpockVariant || !names_spock(o.variant)
                              ? std::string()
                              : spock::parse_material(o.variant).name();
  if (!o.fen) throw UsageError("--fen: query a position of the row with --fen");
  require_spock_table(dir);
  PositionOptions any_board = o;
  any_board.variant = std::string(kSpockVariant);
  const auto s = make_spock_setup(any_board);
  tablebase::WdlTable table = open_spock_table(dir, row);
  games::check_spock_board(spock::parse_material(table.info().name), *s.game);
  nlohmann::ordered_json j;
  j["variant"] = table.info().name;
  const auto probe = [&](const spock::Key& k) { return table.probe(k); };
  add_analysis(j, *s.game, s.position, probe);
  const double first_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Probe times over the position and every move's child: cold with the block cache dropped
  // before each probe (file open, OS page cache as it is), warm with it kept.
  std::vector<spock::Key> probed{s.game->canonical_key(s.position)};
  spock::MoveList moves;
  s.game->generate(s.position, moves);
  for (int i = 0; i < moves.size(); ++i) {
    spock::Position child = s.position;
    s.game->make(child, moves[i]);
    probed.push_back(s.game->canonical_key(child));
  }
  const auto seconds_of = [](auto&& run) {
    const auto t = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  double cold_seconds = 0;
  for (const spock::Key& k : probed) {
    table.drop_cache();
    cold_seconds += seconds_of([&] { table.probe(k); });
  }
  constexpr int kWarmRounds = 100;
  const double warm_seconds = seconds_of([&] {
    for (int i = 0; i < kWarmRounds; ++i)
      for (const spock::Key& k : probed) table.probe(k);
  });
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

}  // namespace app
