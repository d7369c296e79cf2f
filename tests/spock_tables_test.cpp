// Solved Spock rows on disk (tablebase/keyed_table_file.h, wdl_table.h) and the commands that
// write and read them (solve --tables, query): every position of a small row read back from the
// file against the cyclic retrograde solver in memory and the plain fixed point of
// tests/fixed_point.h; damaged, truncated and mismatched files refused by name.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rules/spock/material.h"
#include "rules/spock/notation.h"
#include "solver/cyclic_retrograde.h"
#include "tablebase/keyed_table_file.h"
#include "tablebase/wdl_analysis.h"
#include "tablebase/wdl_table.h"
#include "tests/drop16_process.h"
#include "tests/file_damage.h"
#include "tests/fixed_point.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;
using tablebase::TableError;

using test_support::read_bytes;
using test_support::write_bytes;

namespace {

struct TempDir : test_support::TempDir {
  TempDir() : test_support::TempDir("spock_tables_test") {}
};

constexpr const char* kRow = "spock:3x3:RK/rk";

// The row solved in memory, and its entries as a writer takes them.
struct SolvedRow {
  spock::Material material = spock::parse_material(kRow);
  spock::Game game{material.width, material.height};
  std::vector<spock::Position> roots = spock::placements(material);
  solver::CyclicRetrograde<spock::Game> solved{game, roots, {}};
  std::vector<std::pair<common::Key, solver::WdlValue>> entries() const {
    std::vector<std::pair<common::Key, solver::WdlValue>> out;
    solved.for_each_value(
        [&](const common::Key& k, solver::WdlValue v) { out.emplace_back(k, v); });
    return out;
  }
};

const SolvedRow& solved_row() {
  static const SolvedRow row;
  return row;
}

tablebase::WdlTableInfo info_of(const std::string& name) {
  return {"spock", name, "spock-1"};
}

// --- drop16 itself ---

using test_support::Run;

Run drop16(const std::vector<std::string>& args) {
  return test_support::run_drop16(args);
}

}  // namespace

TEST_CASE("keyed table: entries round-trip for awkward widths, counts and block sizes",
          "[spock_tables]") {
  TempDir dir;
  std::mt19937_64 rng(7);
  for (const std::uint32_t key_bytes : {1u, 3u, 16u})
    for (const std::uint32_t per_block : {1u, 5u, 64u})
      for (const std::uint64_t n : {0ull, 1ull, 5ull, 200ull}) {
        INFO("key bytes " << key_bytes << ", per block " << per_block << ", entries " << n);
        // Distinct sorted keys: a sorted set of random numbers below 2^(8 key_bytes), in
        // strings (which order as unsigned bytes do, as the file's keys).
        std::set<std::basic_string<unsigned char>> keys;
        while (keys.size() < n) {
          std::basic_string<unsigned char> k(key_bytes, 0);
          // Small high bytes, so differences carry between bytes; any last byte, so there are
          // enough keys.
          for (auto& b : k) b = (unsigned char)(rng() % 3);
          k.back() = (unsigned char)(rng());
          keys.insert(k);
        }
        std::vector<std::byte> key_bytes_all, values;
        for (const auto& k : keys) {
          for (const unsigned char b : k) key_bytes_all.push_back(std::byte(b));
          for (int j = 0; j < 3; ++j) values.push_back(std::byte(rng()));
        }
        tablebase::KeyedTableHeader h{"game", "name", "enc", key_bytes, 3, keys.size(), {{"t", 9}}};
        const fs::path file = dir / "t.kt";
        tablebase::write_keyed_table(file, h, key_bytes_all, values, 3, per_block);
        tablebase::KeyedTableReader r(file, "game", "name");
        CHECK(r.header().entry_count == keys.size());
        CHECK(r.header().tallies == h.tallies);
        std::size_t i = 0;
        const auto as_bytes = [](const std::basic_string<unsigned char>& k) {
          return std::as_bytes(std::span(k.data(), k.size()));
        };
        for (const auto& k : keys) {
          std::vector<std::byte> v(3);
          REQUIRE(r.find(as_bytes(k), v));
          CHECK(std::equal(v.begin(), v.end(), values.begin() + 3 * i));
          ++i;
        }
        i = 0;
        r.for_each_entry([&](std::span<const std::byte> k, std::span<const std::byte> v) {
          CHECK(std::equal(k.begin(), k.end(), key_bytes_all.begin() + key_bytes * i));
          CHECK(std::equal(v.begin(), v.end(), values.begin() + 3 * i));
          ++i;
        });
        CHECK(i == keys.size());
        // Keys not stored: below, between and above those that are.
        for (int probe = 0; probe < 50; ++probe) {
          std::basic_string<unsigned char> k(key_bytes, 0);
          for (auto& b : k) b = (unsigned char)(rng() % 4);
          k.back() = (unsigned char)(rng());
          std::vector<std::byte> v(3);
          CHECK(r.find(as_bytes(k), v) == keys.contains(k));
        }
        CHECK(!fs::exists(dir / "t.kt.tmp"));
      }
  // Unsorted or repeated keys are the caller's bug.
  const std::vector<std::byte> twice = {std::byte{1}, std::byte{1}};
  CHECK_THROWS_AS(
      tablebase::write_keyed_table(dir / "u.kt", {"g", "n", "e", 1, 1, 2, {}}, twice, twice),
      std::invalid_argument);
  CHECK(!fs::exists(dir / "u.kt"));
}

TEST_CASE("Spock row table: every position read back equals the solver's and the fixed point's",
          "[spock_tables][spock]") {
  const SolvedRow& row = solved_row();
  const test_support::FixedPoint<spock::Game> truth(row.game, row.roots);
  REQUIRE(truth.size() == row.solved.report().positions);
  TempDir dir;
  for (const std::uint32_t per_block : {64u, tablebase::kDefaultEntriesPerBlock}) {
    const fs::path file = dir / ("row" + std::to_string(per_block) + ".wdl");
    tablebase::write_wdl_table(file, info_of(kRow), row.entries(), 19, per_block);
    tablebase::WdlTable t(file, "spock-1", "spock", kRow);
    const auto& report = row.solved.report();
    CHECK(t.info().positions == report.positions);
    CHECK(t.info().wins == report.wins);
    CHECK(t.info().draws == report.draws);
    CHECK(t.info().losses == report.losses);
    CHECK(t.info().longest_win == std::uint64_t(report.longest_win));
    CHECK(t.info().longest_loss == std::uint64_t(report.longest_loss));
    REQUIRE(report.draws > 0);  // the row has all three values
    std::uint64_t checked = 0;
    for (const auto& [key, value] : truth.values()) {
      const auto from_file = t.probe(key);
      REQUIRE(from_file);
      CHECK(*from_file == value);
      CHECK(*from_file == *row.solved.value_of_key(key));
      // A key next to a stored one is stored only if the fixed point has it.
      common::Key next = key;
      ++next.lo;
      CHECK(t.probe(next).has_value() == truth.value(next).has_value());
      ++checked;
    }
    CHECK(checked == t.info().positions);
    // Read in order: each key once, ascending, the same values.
    std::optional<common::Key> last;
    std::uint64_t seen = 0;
    t.for_each([&](const common::Key& k, solver::WdlValue v) {
      if (last) CHECK(*last < k);
      last = k;
      CHECK(truth.value(k) == v);
      ++seen;
    });
    CHECK(seen == checked);
    // The analysis from the file equals the solver's, move for move.
    for (const spock::Position& p : row.roots) {
      const auto a =
          tablebase::analyze_wdl(row.game, p, [&](const common::Key& k) { return t.probe(k); });
      const auto b = row.solved.analyze(p);
      REQUIRE(a);
      CHECK(a->value == b.value);
      REQUIRE(a->moves.size() == b.moves.size());
      for (std::size_t i = 0; i < b.moves.size(); ++i) CHECK(a->moves[i].value == b.moves[i].value);
    }
  }
}

TEST_CASE("Spock row table: a damaged, truncated or mismatched file is refused, named",
          "[spock_tables][spock][errors]") {
  TempDir dir;
  const fs::path file = dir / "row.wdl";
  // Small blocks, so every part of the file (header, index, blocks) is a few bytes of a small
  // file and every byte can be flipped.
  tablebase::write_wdl_table(file, info_of(kRow), solved_row().entries(), 19, 256);
  const std::vector<char> good = read_bytes(file);
  REQUIRE(good.size() < 20000);
  const auto opens_and_reads = [&] {
    tablebase::WdlTable t(file, "spock-1", "spock", kRow);
    t.verify_all();
  };
  REQUIRE_NOTHROW(opens_and_reads());
  test_support::check_every_flipped_byte_refused(file, good, opens_and_reads);
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{10}, std::size_t{100}, good.size() - 1}) {
    write_bytes(file, std::vector<char>(good.begin(), good.begin() + std::ptrdiff_t(size)));
    INFO("truncated to " << size);
    CHECK_THROWS_AS(opens_and_reads(), TableError);
  }
  std::vector<char> longer = good;
  longer.push_back(0);
  write_bytes(file, longer);
  CHECK_THROWS_WITH(opens_and_reads(), Catch::Matchers::Contains("unexpected bytes"));
  write_bytes(file, good);
  CHECK_THROWS_WITH(tablebase::WdlTable(file, "spock-1", "spock", "spock:3x3:RSK/rsk"),
                    Catch::Matchers::Contains("spock:3x3:RK/rk"));
  CHECK_THROWS_WITH(tablebase::WdlTable(file, "spock-1", "chess"),
                    Catch::Matchers::Contains("game 'spock'"));
  CHECK_THROWS_WITH(tablebase::WdlTable(file, "spock-2", "spock"),
                    Catch::Matchers::Contains("spock-1"));
}

TEST_CASE("solve --tables writes a Spock row that query answers from, as solve does in memory",
          "[spock_tables][spock][cli]") {
  TempDir dir;
  const std::string tables = (dir / "tables").string();
  const SolvedRow& row = solved_row();
  // A half-written file, as a killed writer leaves it: never read as the table, replaced.
  fs::create_directories(tables);
  write_bytes(fs::path(tables) / "spock.wdl.tmp", {'D', 'R', 'O', 'P'});
  // One position of each value, and a placement.
  std::vector<std::string> fens = {"r1k/3/R1K w"};
  for (const solver::Wdl wanted : {solver::Wdl::win, solver::Wdl::draw, solver::Wdl::loss})
    for (const auto& [key, v] : row.entries())
      if (v.wdl == wanted) {
        fens.push_back(spock::to_fen(row.game, row.game.from_key(key)));
        break;
      }
  REQUIRE(fens.size() == 4);
  for (std::size_t i = 0; i < fens.size(); ++i) {
    const Run solve = drop16(
        {"solve", "--variant", kRow, "--tables", tables, "--fen", fens[i], "--json", "--quiet"});
    INFO(fens[i] << " stderr: " << solve.err);
    REQUIRE(solve.status == 0);
    const auto s = nlohmann::json::parse(solve.out);
    CHECK(s.at("tables").at("loaded") == (i > 0));  // the first run solves, the others load
    CHECK(!fs::exists(fs::path(tables) / "spock.wdl.tmp"));
    const Run memory = drop16({"solve", "--variant", kRow, "--fen", fens[i], "--json", "--quiet"});
    const Run query =
        drop16({"query", "--variant", kRow, "--tables", tables, "--fen", fens[i], "--json"});
    const Run query_plain = drop16({"query", "--tables", tables, "--fen", fens[i], "--json"});
    REQUIRE(memory.status == 0);
    REQUIRE(query.status == 0);
    REQUIRE(query_plain.status == 0);
    const auto m = nlohmann::json::parse(memory.out), q = nlohmann::json::parse(query.out);
    for (const char* field : {"variant", "fen", "value", "dte", "moves"}) {
      CHECK(q.at(field) == m.at(field));
      CHECK(s.at(field) == m.at(field));
      CHECK(nlohmann::json::parse(query_plain.out).at(field) == m.at(field));
    }
    for (const char* count : {"positions", "wins", "draws", "losses", "longest_win"})
      CHECK(s.at("solved").at(count) == m.at("solved").at(count));
  }

  const auto refused = [&](const std::vector<std::string>& args, const std::string& words) {
    const Run r = drop16(args);
    INFO("stderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Matchers::Contains(words));
  };
  // Another row into the same directory, a position outside the row, another board.
  refused({"solve", "--variant", "spock:3x3:RSK/rk", "--tables", tables}, "spock:3x3:RK/rk");
  refused({"query", "--tables", tables, "--fen", "rsk/3/R1K w"}, "not among");
  refused({"query", "--tables", tables, "--fen", "rk2/4/4/R1K1 w"}, "4x4");
  refused({"query", "--tables", tables, "--variant", "spock:3x3:SK/sk", "--fen", fens[0]},
          "expected spock:3x3:SK/sk");
  refused({"solve", "--variant", "spock", "--tables", tables}, "ladder row");
  // A damaged table: refused by solve (not overwritten) and by query, the file named.
  const fs::path file = fs::path(tables) / "spock.wdl";
  std::vector<char> bytes = read_bytes(file);
  bytes[bytes.size() / 2] ^= 1;
  write_bytes(file, bytes);
  refused({"query", "--tables", tables, "--fen", fens[0], "--json"}, file.string());
  bytes.resize(bytes.size() / 2);
  write_bytes(file, bytes);
  refused({"query", "--tables", tables, "--fen", fens[0]}, file.string());
  refused({"solve", "--variant", kRow, "--tables", tables}, file.string());
  CHECK(read_bytes(file) == bytes);
}

TEST_CASE(
    "verify --tables checks a Spock row's table against its children, and one flipped value "
    "is caught",
    "[spock_tables][spock][cli][children]") {
  TempDir dir;
  const SolvedRow& row = solved_row();
  const auto entries = row.entries();
  const auto write_row = [&](const std::string& name, const auto& with) {
    const fs::path tables = dir / name;
    fs::create_directories(tables);
    tablebase::write_wdl_table(tables / "spock.wdl", info_of(kRow), with);
    return tables.string();
  };
  const auto verify = [&](const std::string& tables, std::vector<std::string> more) {
    std::vector<std::string> args{"verify", "--variant", kRow,     "--tables",
                                  tables,   "--json",    "--quiet"};
    args.insert(args.end(), more.begin(), more.end());
    return drop16(args);
  };
  // The row as solved: every entry agrees with its children; a sample with the search too.
  const std::string good = write_row("good", entries);
  Run r = verify(good, {"--children", "--samples", "100000"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("method") == "children");
  CHECK(j.at("samples") == entries.size());  // every entry: the file has fewer than asked
  CHECK(j.at("mismatches") == 0);
  CHECK(j.at("sampled").at("draws").get<std::uint64_t>() == row.solved.report().draws);
  r = verify(good, {"--samples", "300", "--seed", "3"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j.at("method") == "children and search");
  CHECK(j.at("samples") == 300);
  CHECK(j.at("search_mismatches") == 0);
  // One value changed, of each kind in turn (the table's counts recounted, so only the values
  // themselves can tell): a draw called a win, a win called a draw, a loss made longer.
  for (const solver::Wdl kind : {solver::Wdl::draw, solver::Wdl::win, solver::Wdl::loss}) {
    auto flipped = entries;
    const auto it = std::find_if(flipped.begin(), flipped.end(),
                                 [&](const auto& e) { return e.second.wdl == kind; });
    REQUIRE(it != flipped.end());
    it->second = kind == solver::Wdl::draw ? solver::WdlValue{solver::Wdl::win, 1}
                 : kind == solver::Wdl::win
                     ? solver::WdlValue{solver::Wdl::draw, 0}
                     : solver::WdlValue{solver::Wdl::loss, it->second.distance + 2};
    const std::string tables = write_row("flipped" + std::to_string(int(kind)), flipped);
    const Run bad = verify(tables, {"--children", "--samples", "100000"});
    INFO("flipped a " << solver::wdl_name(kind) << ": " << bad.err);
    CHECK(bad.status == 1);
    CHECK_THAT(bad.err, Catch::Matchers::Contains("fail the children check"));
    const auto k = nlohmann::json::parse(bad.out);
    CHECK(k.at("children_mismatches").get<int>() >= 1);
    CHECK(k.at("first_mismatch").at("check") == "children");
  }
  // Tables of another row: refused, named. Without --variant, the table's row is verified.
  const Run other =
      drop16({"verify", "--variant", "spock:3x3:SK/sk", "--tables", good, "--samples", "3"});
  CHECK(other.status == 2);
  CHECK_THAT(other.err, Catch::Matchers::Contains("spock:3x3:SK/sk"));
  const Run plain = drop16({"verify", "--tables", good, "--samples", "3", "--quiet"});
  CHECK(plain.status == 0);
  CHECK_THAT(plain.out, Catch::Matchers::Contains("3 positions of spock:3x3:RK/rk"));
}

TEST_CASE("solve --tables killed at any moment leaves no table that looks finished",
          "[spock_tables][spock][cli]") {
  TempDir dir;
  const std::string row = "spock:3x3:RSK/rk";  // about a second: solving, then writing
  const fs::path tables = dir / "tables";
  const fs::path file = tables / "spock.wdl";
  for (const int ms : {100, 300, 500, 700, 800, 900, 1000, 1200}) {
    INFO("killed after " << ms << " ms");
    fs::remove_all(tables);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::execl(DROP16_BINARY, DROP16_BINARY, "solve", "--variant", row.c_str(), "--tables",
              tables.c_str(), "--quiet", "--json", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::usleep(useconds_t(ms) * 1000);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    if (fs::exists(file)) {  // it finished: whole and correct
      tablebase::WdlTable t(file, "spock-1", "spock", row);
      CHECK_NOTHROW(t.verify_all());
    }
    // A rerun finishes the job, whatever was left.
    const Run again =
        drop16({"solve", "--variant", row, "--tables", tables.string(), "--quiet", "--json"});
    CHECK(again.status == 0);
    CHECK(!fs::exists(tables / "spock.wdl.tmp"));
    tablebase::WdlTable t(file, "spock-1", "spock", row);
    CHECK_NOTHROW(t.verify_all());
  }
}
