// Nevsky rows solved by coalitions on disk (tablebase/coalition_table.h) and the commands that
// write, read and check them (solve --tables, query, verify): every position of the tiny rows read
// back from the file against the plain fixed point over raw positions
// (tests/coalition_fixed_point.h, no symmetry) and the solver in memory; the bounded forward search
// verify uses checked against the fixed point too; damaged, truncated and foreign files refused by
// name; a rewritten value caught by verify's children check and by its search.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "rules/nevsky/game.h"
#include "rules/nevsky/key.h"
#include "rules/nevsky/notation.h"
#include "rules/nevsky/variant.h"
#include "solver/coalition_retrograde.h"
#include "solver/coalition_search.h"
#include "tablebase/coalition_table.h"
#include "tests/coalition_fixed_point.h"
#include "tests/drop16_process.h"
#include "tests/file_damage.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;
using tablebase::TableError;
using test_support::Run;
using test_support::run_drop16;

using test_support::read_bytes;
using test_support::write_bytes;

namespace {

struct TempDir : test_support::TempDir {
  TempDir() : test_support::TempDir("nevsky_tables_test") {}
};

nlohmann::json json_of(const std::vector<std::string>& args) {
  const Run r = run_drop16(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

tablebase::CoalitionTable open_table(const fs::path& dir, const std::string& row = {}) {
  return tablebase::open_coalition_table(dir, "nevsky", nevsky::kKeyFormat, 4, row);
}

// A table's entries, in key order, as a writer takes them.
struct Entries {
  std::vector<common::Key> keys;
  std::vector<std::vector<solver::WdlValue>> values;  // by split
  tablebase::CoalitionTableInfo info;
};

Entries entries_of(tablebase::CoalitionTable& table) {
  Entries out;
  out.info = table.info();
  table.for_each([&](const common::Key& k, std::span<const solver::WdlValue> v) {
    out.keys.push_back(k);
    out.values.emplace_back(v.begin(), v.end());
  });
  return out;
}

void write_entries(const fs::path& file, const Entries& e, std::uint32_t per_block = 1024) {
  tablebase::write_coalition_table(
      file, e.info, e.keys.size(), [&](std::uint64_t i) { return e.keys[i]; },
      [&](std::uint64_t i, std::span<solver::WdlValue> out) {
        std::copy(e.values[i].begin(), e.values[i].end(), out.begin());
      },
      19, per_block);
}

void check_refused(const std::vector<std::string>& args, const std::vector<std::string>& needles) {
  const Run r = run_drop16(args);
  INFO(args[0] + ": " + r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
  for (const std::string& n : needles) CHECK_THAT(r.err, Catch::Matchers::Contains(n));
}

// Coalition s's value in the JSON of a coalition list (coalition_json.h's objects).
solver::WdlValue value_in(const nlohmann::json& list, std::uint32_t s) {
  const char* names[] = {"white", "red", "green", "black"};
  for (const auto& c : list) {
    std::uint32_t bits = 0;
    for (const auto& player : c.at("players"))
      for (std::uint32_t q = 0; q < 4; ++q)
        if (player == names[q]) bits |= 1u << q;
    if (bits != s) continue;
    const solver::Wdl wdl = c.at("value") == "win"    ? solver::Wdl::win
                            : c.at("value") == "loss" ? solver::Wdl::loss
                                                      : solver::Wdl::draw;
    return {wdl, c.at("distance").is_null() ? 0 : c.at("distance").get<int>()};
  }
  FAIL("coalition " << s << " not listed");
  return {};
}

}  // namespace

TEST_CASE(
    "solve --tables: every position of the tiny rows read back equals the plain fixed point, "
    "and query answers from the file",
    "[nevsky_tables][nevsky][coalition][cli]") {
  for (const char* row : {"nevsky:3x3:1", "nevsky:3x3:1+1:pairs", "nevsky:4x4:1"}) {
    INFO(row);
    TempDir dir;
    const std::string tables = (dir / "t").string();
    const auto solved = json_of({"solve", "--variant", row, "--tables", tables, "--format",
                                 "coalitions", "--json", "--quiet"});
    CHECK(solved.at("tables").at("loaded") == false);
    const nevsky::Game game(nevsky::parse_variant(row));
    tablebase::CoalitionTable table = open_table(tables, row);
    REQUIRE_NOTHROW(table.verify_all());
    // The counts are the in-memory solver's.
    const nevsky::Position start = game.start();
    const solver::CoalitionRetrograde<nevsky::Game> memory(game, std::span(&start, 1),
                                                           {std::uint64_t{1} << 30, false});
    CHECK(table.info().positions == memory.report().positions);
    CHECK(table.info().kingmakers == memory.report().kingmakers);
    CHECK(table.info().longest_wins == memory.report().longest_wins);
    CHECK(solved.at("solved").at("positions") == memory.report().positions);
    // Every raw position reached, every coalition: the file's value (read through the position's
    // canonical image and renaming) is the plain fixed point's.
    const test_support::CoalitionFixedPoint<nevsky::Game> plain(game, {game.start()});
    std::uint64_t renamed = 0;
    for (std::size_t i = 0; i < plain.positions().size(); ++i) {
      const nevsky::Position& p = plain.positions()[i];
      const auto values = tablebase::coalition_values_at(game, table, p);
      REQUIRE(values);
      renamed += !(game.canonical_form(p).key == game.raw_key(p));
      for (std::uint32_t s = 1; s < 15; ++s) {
        INFO(nevsky::to_fen(game, p) << " coalition " << s);
        REQUIRE((*values)[s] == plain.value(i, s));
      }
    }
    CHECK(renamed > 0);  // positions read through another image than their own
    // A rerun loads the file and answers as the first run did.
    const auto again = json_of({"solve", "--variant", row, "--tables", tables, "--format",
                                "coalitions", "--json", "--quiet"});
    CHECK(again.at("tables").at("loaded") == true);
    CHECK(again.at("coalitions") == solved.at("coalitions"));
    CHECK(again.at("solved").at("splits") == solved.at("solved").at("splits"));
    // query: the start and a position a few plies in, every coalition's value there and after
    // each move (counted from the position asked) as the fixed point's; the shape serve gives.
    std::mt19937 rng(5);
    std::vector<nevsky::Position> asked = {game.start()};
    nevsky::Position p = game.start();
    for (int ply = 0; ply < 4 && !game.is_terminal(p); ++ply) {
      nevsky::MoveList moves;
      game.generate(p, moves);
      game.make(p, moves[int(rng() % std::uint32_t(moves.size()))]);
    }
    asked.push_back(p);
    for (const nevsky::Position& q : asked) {
      const std::string fen = nevsky::to_fen(game, q);
      INFO(fen);
      const auto j = json_of({"query", "--tables", tables, "--fen", fen, "--json"});
      CHECK(j.at("variant") == row);
      CHECK(j.at("family") == "values per coalition");
      CHECK(j.at("source") == "tables");
      const int at = *plain.find(game.raw_key(q));
      for (std::uint32_t s = 1; s < 15; ++s)
        CHECK(value_in(j.at("coalitions"), s) == plain.value(std::size_t(at), s));
      nevsky::MoveList moves;
      game.generate(q, moves);
      REQUIRE(j.at("moves").size() == std::size_t(moves.size()));
      for (int m = 0; m < moves.size(); ++m) {
        nevsky::Position after = q;
        game.make(after, moves[m]);
        const int child = *plain.find(game.raw_key(after));
        CHECK(j.at("moves")[std::size_t(m)].at("fen") == nevsky::to_fen(game, after));
        for (std::uint32_t s = 1; s < 15; ++s) {
          solver::WdlValue v = plain.value(std::size_t(child), s);
          if (v.wdl != solver::Wdl::draw) ++v.distance;
          CHECK(value_in(j.at("moves")[std::size_t(m)].at("coalitions"), s) == v);
        }
      }
      // The same values as solve --fen in memory, which solves from the position itself.
      const auto in_memory =
          json_of({"solve", "--variant", row, "--fen", fen, "--json", "--quiet"});
      for (std::uint32_t s = 1; s < 15; ++s)
        CHECK(value_in(j.at("coalitions"), s) == value_in(in_memory.at("coalitions"), s));
    }
  }
}

TEST_CASE("coalition table: a damaged, truncated or foreign file is refused, named",
          "[nevsky_tables][nevsky][errors]") {
  TempDir dir;
  const std::string row = "nevsky:3x3:1";
  const std::string tables = (dir / "t").string();
  json_of({"solve", "--variant", row, "--tables", tables, "--format", "coalitions", "--json",
           "--quiet"});
  tablebase::CoalitionTable table = open_table(tables, row);
  const Entries entries = entries_of(table);
  // Small blocks, so every part of the file is a few bytes and every byte can be flipped.
  const fs::path file = dir / "small.coalitions";
  write_entries(file, entries, 256);
  const std::vector<char> good = read_bytes(file);
  REQUIRE(good.size() < 40000);
  const auto opens_and_reads = [&] {
    tablebase::CoalitionTable t(file, "nevsky-1", 4, "nevsky", row);
    t.verify_all();
  };
  REQUIRE_NOTHROW(opens_and_reads());
  test_support::check_every_flipped_byte_refused(file, good, opens_and_reads);
  write_bytes(file,
              std::vector<char>(good.begin(), good.begin() + std::ptrdiff_t(good.size() / 2)));
  CHECK_THROWS_AS(opens_and_reads(), TableError);
  write_bytes(file, good);
  CHECK_THROWS_WITH(tablebase::CoalitionTable(file, "nevsky-1", 4, "nevsky", "nevsky:4x4:1"),
                    Catch::Matchers::Contains("nevsky:3x3:1"));
  CHECK_THROWS_WITH(tablebase::CoalitionTable(file, "nevsky-2", 4, "nevsky"),
                    Catch::Matchers::Contains("nevsky-1"));
  CHECK_THROWS_WITH(tablebase::CoalitionTable(file, "nevsky-1", 3, "nevsky"),
                    Catch::Matchers::Contains("4 players"));

  // The commands: another row into the same directory refused (the file kept); a damaged file
  // refused by solve (never overwritten), query and verify, each in one line naming it.
  const fs::path written = fs::path(tables) / "nevsky.coalitions";
  const std::vector<char> bytes = read_bytes(written);
  check_refused({"solve", "--variant", "nevsky:3x3:1:pairs", "--tables", tables, "--format",
                 "coalitions", "--quiet"},
                {"holds the table of nevsky:3x3:1", "give another directory"});
  check_refused({"query", "--variant", "nevsky:4x4:1", "--tables", tables},
                {written.string(), "nevsky:4x4:1"});
  check_refused({"verify", "--variant", "nevsky:3x3:1"}, {"--tables"});
  check_refused({"query", "--variant", "nevsky:3x3:1", "--tables", (dir / "none").string()},
                {"no table of Nevsky checkers"});
  std::vector<char> damaged = bytes;
  damaged[damaged.size() / 2] ^= 1;
  write_bytes(written, damaged);
  check_refused(
      {"solve", "--variant", row, "--tables", tables, "--format", "coalitions", "--quiet"},
      {written.string()});
  check_refused({"query", "--tables", tables}, {written.string()});
  check_refused({"verify", "--tables", tables, "--quiet"}, {written.string()});
  CHECK(read_bytes(written) == damaged);
  damaged.resize(damaged.size() / 2);
  write_bytes(written, damaged);
  check_refused({"query", "--variant", row, "--tables", tables}, {written.string()});
}

TEST_CASE(
    "coalition search by raw key (as verify): every value of the fixed point confirmed, and "
    "refused "
    "when claimed as a draw or a draw claimed as a win",
    "[nevsky_tables][nevsky][coalition]") {
  for (const char* row : {"nevsky:3x3:1", "nevsky:3x3:1+1:pairs"}) {
    INFO(row);
    const nevsky::Game game(nevsky::parse_variant(row));
    const test_support::CoalitionFixedPoint<nevsky::Game> plain(game, {game.start()});
    int longest = 0;
    for (std::size_t i = 0; i < plain.positions().size(); ++i)
      for (std::uint32_t s = 1; s < 15; ++s)
        longest = std::max(longest, plain.value(i, s).distance);
    solver::CoalitionSearch<nevsky::Game> search(game, std::uint64_t{64} << 20,
                                                 false);  // by raw key, as verify
    std::uint64_t draws = 0, forced = 0;
    for (std::size_t i = 0; i < plain.positions().size(); i += 5)
      for (std::uint32_t s = 1; s < 15; ++s) {
        const solver::WdlValue v = plain.value(i, s);
        const auto& p = plain.positions()[i];
        INFO(nevsky::to_fen(game, p) << " coalition " << s);
        CHECK(!search.refutation(p, s, v, longest));
        // The same value claimed wrongly: a draw as a win in the longest distance, a forced
        // result as a draw.
        const solver::WdlValue wrong = v.wdl == solver::Wdl::draw
                                           ? solver::WdlValue{solver::Wdl::win, longest}
                                           : solver::WdlValue{solver::Wdl::draw, 0};
        CHECK(search.refutation(p, s, wrong, longest));
        ++(v.wdl == solver::Wdl::draw ? draws : forced);
      }
    CHECK(draws > 0);
    CHECK(forced > 0);
  }
}

TEST_CASE("verify --tables checks a Nevsky row's table and catches one rewritten value",
          "[nevsky_tables][nevsky][cli]") {
  TempDir dir;
  const std::string row = "nevsky:3x3:1";
  const std::string good = (dir / "good").string();
  json_of(
      {"solve", "--variant", row, "--tables", good, "--format", "coalitions", "--json", "--quiet"});
  // Every entry against its children, then a sample against the search too.
  auto j = json_of(
      {"verify", "--tables", good, "--children", "--samples", "100000", "--json", "--quiet"});
  tablebase::CoalitionTable table = open_table(good, row);
  CHECK(j.at("samples") == table.info().positions);
  CHECK(j.at("method") == "children");
  CHECK(j.at("mismatches") == 0);
  j = json_of({"verify", "--variant", row, "--tables", good, "--samples", "200", "--seed", "3",
               "--json", "--quiet"});
  CHECK(j.at("method") == "children and search");
  CHECK(j.at("samples") == 200);
  CHECK(j.at("search_mismatches") == 0);
  CHECK(j.at("coalitions_searched") == 200 * 14);
  CHECK(j.at("coalitions_left_open_by_nodes") == 0);
  // A node budget too small for some questions leaves their values open, counted apart and
  // named in the summary, never passed; a budget is meaningless with --children.
  j = json_of({"verify", "--tables", good, "--samples", "200", "--seed", "3", "--search-nodes",
               "20", "--json", "--quiet"});
  CHECK(j.at("search_node_budget") == 20);
  CHECK(j.at("coalitions_left_open_by_nodes").get<int>() > 0);
  CHECK(j.at("coalitions_searched").get<int>() + j.at("coalitions_left_open_by_nodes").get<int>() ==
        200 * 14);
  CHECK(j.at("mismatches") == 0);
  const Run budgeted = run_drop16(
      {"verify", "--tables", good, "--samples", "20", "--search-nodes", "20", "--quiet"});
  CHECK(budgeted.status == 0);
  CHECK_THAT(budgeted.out, Catch::Matchers::Contains("left open past --search-nodes 20"));
  check_refused({"verify", "--tables", good, "--children", "--search-nodes", "20"},
                {"--search-nodes", "--children"});
  // One split's value rewritten at one entry (the counts recounted, so only the values can tell),
  // of each kind in turn: a win made longer, a loss called a draw, a draw called a win.
  const Entries entries = entries_of(table);
  for (const solver::Wdl kind : {solver::Wdl::win, solver::Wdl::loss, solver::Wdl::draw}) {
    Entries changed = entries;
    bool done = false;
    for (auto& values : changed.values)
      for (auto& v : values)
        if (!done && v.wdl == kind && !(kind != solver::Wdl::draw && v.distance == 0)) {
          v = kind == solver::Wdl::win    ? solver::WdlValue{solver::Wdl::win, v.distance + 2}
              : kind == solver::Wdl::loss ? solver::WdlValue{solver::Wdl::draw, 0}
                                          : solver::WdlValue{solver::Wdl::win, 1};
          done = true;
        }
    REQUIRE(done);
    const fs::path bad = dir / ("bad" + std::to_string(int(kind)));
    fs::create_directories(bad);
    write_entries(bad / "nevsky.coalitions", changed);
    const Run children = run_drop16({"verify", "--tables", bad.string(), "--children", "--samples",
                                     "100000", "--json", "--quiet"});
    INFO(solver::wdl_name(kind) << ": " << children.err);
    CHECK(children.status == 1);
    CHECK_THAT(children.err, Catch::Matchers::Contains("fail the children check"));
    CHECK(nlohmann::json::parse(children.out).at("children_mismatches").get<int>() >= 1);
    // The search alone sees it too: at the rewritten entry, whatever its children say.
    const Run searched = run_drop16(
        {"verify", "--tables", bad.string(), "--samples", "100000", "--json", "--quiet"});
    CHECK(searched.status == 1);
    CHECK(nlohmann::json::parse(searched.out).at("search_mismatches").get<int>() >= 1);
  }
}
