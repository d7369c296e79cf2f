// The rook race's tables through the generic path of whole variants' tables (rules/registry.h,
// tablebase/game_tables.h, table_probe.h): `drop16 solve --tables` writes rookrace:4x4:1's loopy
// tier tables (tablebase/loopy_tier_solver.h, a file a tier), and its counts, `query --batch`,
// `query --fen` and the Python module's probe each agree with the cyclic retrograde solved in
// memory here (solver/cyclic_retrograde.h, a hash map: nothing shared with the tier solver but the
// rules) on every position of the variant (its value and distance), and on every move's of a
// sample of positions (each move's value is its child's, which the first check covers; the sample
// checks the moves and what they lead to). A second run resumes every tier; a directory holding
// another variant's tables is refused; a plan over --memory is refused before anything is
// written. `verify --tables` checks the tables (every reached entry against its children, a
// sample by the forward search too), catches one value changed in them (exit 1) and refuses a
// damaged file by name (exit 2).
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "rules/rookrace/game.h"
#include "rules/rookrace/notation.h"
#include "rules/rookrace/solve/tier_space.h"
#include "rules/rookrace/variant.h"
#include "solver/cyclic_retrograde.h"
#include "tablebase/analysis_json.h"
#include "tablebase/loopy_tier_files.h"
#include "tests/drop16_process.h"
#include "tests/test_support.h"

namespace {

using rookrace::Game;
using solver::WdlValue;
using test_support::Run;

constexpr const char* kVariant = "rookrace:4x4:1";

// The variant solved in memory, every position reachable from its start.
struct Solved {
  Game game{rookrace::parse_variant(kVariant)};
  rookrace::Position start = game.start();
  solver::CyclicRetrograde<Game> solved{game, std::span<const rookrace::Position>(&start, 1), {}};

  // Every position, by its canonical key, with its value, in key order (the table's: probes in
  // this order read each block once).
  std::vector<std::pair<common::Key, WdlValue>> entries() const {
    std::vector<std::pair<common::Key, WdlValue>> out;
    solved.for_each_value([&](const common::Key& k, WdlValue v) { out.emplace_back(k, v); });
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
  }
  // What query --json answers for the position, from the solve in memory.
  nlohmann::ordered_json analysis(const rookrace::Position& p) const {
    const auto a = solved.analyze(p);
    std::vector<tablebase::MoveValue> moves;
    for (const auto& m : a.moves) moves.push_back({rookrace::move_name(game, m.move), m.value});
    return tablebase::analysis_json(game.variant().name(), rookrace::to_fen(game, p), a.value,
                                    moves);
  }
};

const Solved& solved() {
  static const Solved s;
  return s;
}

// Every line of `out` (one JSON object a line, in the order of `positions`) against what the
// solve in memory gives for the position, `expected(p)`; the number of lines that disagree, the
// first one shown. A line of query --batch carries its number, checked and left out.
template <typename Expected>
int disagreeing_lines(const std::string& out, const std::vector<rookrace::Position>& positions,
                      Expected&& expected, bool numbered) {
  std::istringstream lines(out);
  std::string line;
  std::size_t i = 0;
  int wrong = 0;
  for (; std::getline(lines, line) && i < positions.size(); ++i) {
    nlohmann::json got = nlohmann::json::parse(line);
    if (numbered && got.value("line", std::size_t{0}) == i + 1) got.erase("line");
    const nlohmann::json want = nlohmann::json::parse(expected(positions[i]).dump());
    if (got != want && wrong++ == 0) {
      INFO("got      " << got.dump());
      INFO("expected " << want.dump());
      CHECK(got == want);
    }
  }
  CHECK(i == positions.size());
  CHECK(!std::getline(lines, line));
  return wrong;
}

// {"value", "dte"} of the position, from the solve in memory.
nlohmann::ordered_json value_of(const rookrace::Position& p) {
  return tablebase::value_json(solved().solved.value(p));
}
nlohmann::ordered_json analysis_of(const rookrace::Position& p) {
  return solved().analysis(p);
}

void write_fens(const std::filesystem::path& file, const std::vector<rookrace::Position>& ps) {
  std::ofstream out(file);
  for (const auto& p : ps) out << rookrace::to_fen(solved().game, p) << "\n";
}

// The Python module (python/module.cpp) built beside drop16, if it was.
#ifdef DROP16_PYTHONPATH
// Python's probe(fen): the variant and the position besides.
nlohmann::ordered_json probe_of(const rookrace::Position& p) {
  nlohmann::ordered_json j;
  j["variant"] = solved().game.variant().name();
  j["fen"] = rookrace::to_fen(solved().game, p);
  j.update(value_of(p));
  return j;
}
// Tables(tables).<method>(fen) for each line of `fens`, one JSON line each.
Run run_python(const test_support::TempDir& dir, const std::string& tables,
               const std::string& method, const std::string& fens) {
  const auto script = dir / "tables.py";
  std::ofstream(script)
      << "import json, sys\n"
         "import drop16py\n"
         "tables = drop16py.Tables(sys.argv[1])\n"
         "with open(sys.argv[2]) as fens, open(sys.argv[3], 'w') as out:\n"
         "    for fen in fens:\n"
         "        out.write(json.dumps(getattr(tables, sys.argv[4])(fen.rstrip('\\n'))) + "
         "'\\n')\n";
  const auto out = dir / "python.out";
  const auto err = dir / "python.err";
  using test_support::shell_quote;
  std::string command = "PYTHONPATH=" + shell_quote(DROP16_PYTHONPATH) + " ";
  command.append(shell_quote(DROP16_PYTHON)).append(" ").append(shell_quote(script.string()));
  for (const std::string& a : {tables, fens, out.string(), method})
    command.append(" ").append(shell_quote(a));
  command.append(" 2>").append(shell_quote(err.string()));
  const int raw = std::system(command.c_str());
  Run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = test_support::slurp(out);
  r.err = test_support::slurp(err);
  return r;
}
#endif

}  // namespace

TEST_CASE(
    "rookrace:4x4:1 on disk: solve --tables, query --batch and the Python probe agree with the "
    "solve in memory on every position",
    "[rookrace][tables][cli]") {
  test_support::TempDir dir("rookrace_tables_test");
  const std::string tables = (dir / "tables").string();
  const std::vector<std::string> solve_args = {
      "solve", "--variant", kVariant, "--tables", tables, "--threads", "2", "--json", "--quiet"};
  Run r = test_support::run_drop16(solve_args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto entries = solved().entries();
  const auto solve = nlohmann::json::parse(r.out);
  // The counts over the positions play reaches, as the hash map's.
  const auto& report = solved().solved.report();
  const auto& counts = solve.at("solved");
  CHECK(counts.at("positions") == entries.size());
  CHECK(counts.at("positions") == report.positions);
  CHECK(counts.at("wins") == report.wins);
  CHECK(counts.at("draws") == report.draws);
  CHECK(counts.at("losses") == report.losses);
  CHECK(counts.at("longest_win") == report.longest_win);
  CHECK(counts.at("longest_loss") == report.longest_loss);
  const rookrace::TierSpace space(solved().game);
  CHECK(solve.at("tables").at("format") == "loopy-tiers");
  CHECK(solve.at("tables").at("tiers") == space.tier_count());
  CHECK(solve.at("tables").at("tiers_solved") == space.tier_count());
  CHECK(solve.at("tables").at("entries") == space.total_entries());
  for (int t = 0; t < space.tier_count(); ++t)
    CHECK(std::filesystem::exists(tablebase::loopy_wdl_path(
        {tables, space.variant_name(), space.index_scheme(), space.tier_name(t)})));
  // The start's analysis, from the files.
  CHECK(solve.at("value") ==
        std::string(solver::wdl_name(solved().solved.value(solved().start)->wdl)));

  // Run again: every tier is found finished, the same counts come back from the files.
  r = test_support::run_drop16(solve_args);
  REQUIRE(r.status == 0);
  const auto again = nlohmann::json::parse(r.out);
  CHECK(again.at("tables").at("tiers_resumed") == space.tier_count());
  CHECK(again.at("tables").at("tiers_solved") == 0);
  CHECK(again.at("solved") == counts);
  // Another variant into the same directory: refused before it writes anything.
  r = test_support::run_drop16(
      {"solve", "--variant", "rookrace:4x4:0", "--tables", tables, "--quiet"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("holds the tables of rookrace:4x4:1") &&
                        Catch::Matchers::Contains("give another directory"));

  // Every position (its canonical representative), and every 97th with its moves.
  std::vector<rookrace::Position> all, sample;
  for (const auto& [k, v] : entries) all.push_back(solved().game.from_key(k));
  for (std::size_t i = 0; i < all.size(); i += 97) sample.push_back(all[i]);
  const auto all_fens = dir / "all.txt", sample_fens = dir / "sample.txt";
  write_fens(all_fens, all);
  write_fens(sample_fens, sample);

  // query --batch: values of all, analyses of the sample.
  r = test_support::run_drop16(
      {"query", "--tables", tables, "--batch", all_fens.string(), "--value-only"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(disagreeing_lines(r.out, all, value_of, true) == 0);
  r = test_support::run_drop16({"query", "--tables", tables, "--batch", sample_fens.string()});
  REQUIRE(r.status == 0);
  CHECK(disagreeing_lines(r.out, sample, analysis_of, true) == 0);

  // One position through query --fen: the same object, with the probe times besides.
  r = test_support::run_drop16({"query", "--variant", kVariant, "--tables", tables, "--fen",
                                rookrace::to_fen(solved().game, sample[1]), "--json"});
  REQUIRE(r.status == 0);
  auto one = nlohmann::ordered_json::parse(r.out);
  for (const char* timing :
       {"seconds", "probes", "cold_microseconds_per_probe", "warm_microseconds_per_probe"})
    CHECK(one.erase(timing) == 1);
  CHECK(one == analysis_of(sample[1]));
  // A position of another variant (more pawns than this one's) is refused, not guessed.
  r = test_support::run_drop16({"query", "--tables", tables, "--fen", "3r/4/4/R3 [2,1] [-,-] w"});
  CHECK(r.status == 2);

#ifdef DROP16_PYTHONPATH
  // The Python module's Tables: probe of all, analyze of the sample.
  Run py = run_python(dir, tables, "probe", all_fens.string());
  INFO(py.err);
  REQUIRE(py.status == 0);
  CHECK(disagreeing_lines(py.out, all, probe_of, false) == 0);
  py = run_python(dir, tables, "analyze", sample_fens.string());
  REQUIRE(py.status == 0);
  CHECK(disagreeing_lines(py.out, sample, analysis_of, false) == 0);
#else
  WARN("the Python module was not built: its probe is not checked here");
#endif
}

TEST_CASE("solve --tables --plan prints how each tier is held and writes nothing",
          "[rookrace][tables][cli]") {
  test_support::TempDir dir("rookrace_tables_plan_test");
  const auto tables = dir / "tables";
  const auto plan = [&](const char* memory, const char* minutes = "10") {
    const Run r = test_support::run_drop16({"solve", "--variant", "rookrace:4x4:2", "--tables",
                                            tables.string(), "--memory", memory, "--plan",
                                            "--slice-minutes", minutes});
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out);
  };
  const auto roomy = plan("1");
  CHECK(roomy["fits"] == true);
  CHECK(roomy["sliced_tiers"] == 0);
  CHECK(roomy["slice_cpu_minutes"] == 10);
  // Slices bounded in time alone: a tier longer than a slice of 0.001 minutes (60,000 entries at
  // the rate assumed) in slices no longer, but for a single block; a shorter tier whole.
  const auto brief = plan("1", "0.001");
  const std::uint64_t cap = brief["slice_entries"].get<std::uint64_t>();
  CHECK(cap > 0);
  CHECK(cap < roomy["slice_entries"].get<std::uint64_t>());
  CHECK(brief["sliced_tiers"] > 0);
  for (const auto& t : brief["tier_plans"]) {
    INFO(t.dump());
    const auto n = t["entries"].get<std::uint64_t>();
    CHECK(t["children_read"] == "whole");
    CHECK(t["slices"].get<std::uint64_t>() >= (n + cap - 1) / cap);
    if (t["slices"] != 1) CHECK(t["largest_slice_entries"].get<std::uint64_t>() <= cap);
    if (n <= cap) CHECK(t["slices"] == 1);
  }
  CHECK(roomy["tier_plans"].size() == roomy["tiers"]);
  std::uint64_t entries = 0;
  for (const auto& t : roomy["tier_plans"]) entries += t["entries"].get<std::uint64_t>();
  CHECK(roomy["entries"] == entries);
  // A cap that leaves less than the largest tier beside the fixed part and what the process holds
  // (a MB more than this one held: another may hold a little more): some tier in slices, within
  // the cap; then one below even that: it says it does not fit.
  const double held_gb = (roomy["resident_bytes"].get<double>() + (1 << 20)) / double(1 << 30);
  const double fixed_gb = roomy["fixed_bytes"].get<double>() / double(1 << 30);
  const auto tight = plan(std::to_string(held_gb + fixed_gb + 0.002).c_str());
  CHECK(tight["fits"] == true);
  CHECK(tight["sliced_tiers"] > 0);
  CHECK(tight["planned_memory_bytes"] <= tight["memory_cap_bytes"]);
  CHECK(plan(std::to_string(held_gb + fixed_gb / 2).c_str())["fits"] == false);
  CHECK(!std::filesystem::exists(tables));
}

TEST_CASE("solve --tables refuses a plan over --memory before it writes anything",
          "[rookrace][tables][cli]") {
  test_support::TempDir dir("rookrace_tables_memory_test");
  const auto tables = dir / "tables";
  // A MB more than the process holds at its start, far below the plan.
  const Run planned = test_support::run_drop16(
      {"solve", "--variant", "rookrace:4x4:2", "--tables", tables.string(), "--plan"});
  REQUIRE(planned.status == 0);
  const double cap_gb =
      (nlohmann::json::parse(planned.out)["resident_bytes"].get<double>() + (2 << 20)) /
      double(1 << 30);
  const Run r = test_support::run_drop16({"solve", "--variant", "rookrace:4x4:2", "--tables",
                                          tables.string(), "--memory", std::to_string(cap_gb)});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("solving rookrace:4x4:2 needs") &&
                        Catch::Matchers::Contains("more than the cap") &&
                        Catch::Matchers::Contains("--memory"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(!std::filesystem::exists(tables));
}

TEST_CASE(
    "verify --tables checks the rook race's tables, catches one value changed in them and "
    "refuses a damaged file",
    "[rookrace][tables][cli][children]") {
  test_support::TempDir dir("rookrace_verify_tables_test");
  const std::string good = (dir / "good").string();
  Run r = test_support::run_drop16({"solve", "--variant", kVariant, "--tables", good, "--quiet"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  // Every reached entry against its children (the variant named by the files); a sample searched.
  r = test_support::run_drop16(
      {"verify", "--tables", good, "--children", "--samples", "1000000", "--json", "--quiet"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  const auto& report = solved().solved.report();
  CHECK(j.at("variant") == rookrace::parse_variant(kVariant).name());
  CHECK(j.at("positions") == report.positions);
  CHECK(j.at("longest_distance") == std::max(report.longest_win, report.longest_loss));
  CHECK(j.at("samples").get<std::uint64_t>() >= report.positions);
  CHECK(j.at("mismatches") == 0);
  r = test_support::run_drop16(
      {"verify", "--variant", kVariant, "--tables", good, "--samples", "200", "--json", "--quiet"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j.at("method") == "children and search");
  CHECK(j.at("samples") == 200);
  CHECK(j.at("search_mismatches") == 0);

  // A reached draw, stored where the tables look for its position, rewritten as a win in one
  // (its tier's file written again, sound as a file): caught by its own children's check.
  const rookrace::TierSpace space(solved().game);
  const auto name = [&](const std::string& tables, int t) {
    return tablebase::LoopyTableName{tables, space.variant_name(), space.index_scheme(),
                                     space.tier_name(t)};
  };
  const std::string bad = (dir / "bad").string();
  std::filesystem::copy(good, bad);
  bool changed = false;
  for (int t = 0; t < space.tier_count() && !changed; ++t) {
    std::vector<tablebase::LoopyCode> codes(space.tier_size(t));
    tablebase::read_loopy_tier(name(bad, t), codes);
    std::vector<std::uint64_t> reached((codes.size() + 63) / 64);
    tablebase::read_loopy_reached(name(bad, t), reached, codes.size());
    for (std::uint64_t i = 0; i < codes.size() && !changed; ++i) {
      if (!(reached[i / 64] >> (i % 64) & 1) || codes[i] != tablebase::kLoopyDraw) continue;
      if (space.locate(solved().game.from_key(solved().game.canonical_key(space.unrank(t, i)))) !=
          tablebase::Location{t, i})
        continue;
      codes[i] = 1;
      tablebase::write_loopy_tier(name(bad, t), codes, 1);
      changed = true;
    }
  }
  REQUIRE(changed);
  r = test_support::run_drop16(
      {"verify", "--tables", bad, "--children", "--samples", "1000000", "--json", "--quiet"});
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Matchers::Contains("fail the children check"));
  CHECK(nlohmann::json::parse(r.out).at("children_mismatches").get<int>() >= 1);

  // A byte of a file's header flipped (its record count): refused by the header's checksum when
  // the tables are opened, the file named, exit status 2.
  const auto damaged = tablebase::loopy_wdl_path(name(good, space.tier_count() - 1));
  {
    std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(20);
    const char byte = char(f.get());
    f.seekp(20);
    f.put(char(byte ^ 0x5a));
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"verify", "--tables", good, "--quiet"},
        std::vector<std::string>{"query", "--tables", good, "--fen",
                                 rookrace::to_fen(solved().game, solved().start)}}) {
    r = test_support::run_drop16(args);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Matchers::Contains(damaged.string()));
  }
}
