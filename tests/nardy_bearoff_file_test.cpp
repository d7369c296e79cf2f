// Royal Nardy's bear-off database on disk (rules/nardy/solve/bearoff_file.h): what is read back is
// the table built in memory, every field of it; a damaged, truncated, re-versioned or mismatched
// file is refused naming the file, and an existing file is never written over.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "rules/nardy/solve/bearoff_file.h"
#include "tablebase/crc64.h"
#include "tablebase/table_file.h"
#include "tests/drop16_process.h"

namespace {

namespace fs = std::filesystem;
using nardy::bearoff::OneSided;
using nardy::bearoff::read_one_sided;
using nardy::bearoff::write_one_sided;
using tablebase::TableError;

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("nardy_bearoff_file_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void write_all(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

// The file's refusal, and that it names the file.
void check_refused(const fs::path& p, int expected_checkers = -1) {
  try {
    read_one_sided(p, expected_checkers);
    FAIL("read " << p << " without complaint");
  } catch (const TableError& e) {
    CHECK(std::string(e.what()).find(p.string()) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("nardy bear-off file: read back, it is the table built in memory",
          "[nardy][bearoff-file]") {
  const OneSided built(6, 2);
  const fs::path file = scratch("b6.db");
  fs::remove(file);
  write_one_sided(file, built);
  const OneSided loaded = read_one_sided(file, 6);
  CHECK(loaded.size() == built.size());
  CHECK(loaded.tables() == built.tables());
  CHECK(read_one_sided(file).tables() == built.tables());
  // A rebuild gives the same bytes: the database is deterministic, so a file can be checked by
  // building again.
  const fs::path again = scratch("b6-again.db");
  fs::remove(again);
  write_one_sided(again, OneSided(6, 1));
  CHECK(read_all(again) == read_all(file));
  // Never written over.
  const std::string before = read_all(file);
  CHECK_THROWS_AS(write_one_sided(file, OneSided(3, 1)), TableError);
  CHECK(read_all(file) == before);
  fs::remove_all(file.parent_path());
}

TEST_CASE("nardy bear-off file: damaged, truncated or mismatched files are refused",
          "[nardy][bearoff-file]") {
  const OneSided built(4, 1);
  const fs::path file = scratch("b4.db");
  fs::remove(file);
  write_one_sided(file, built);
  const std::string good = read_all(file);
  const fs::path bad = scratch("bad.db");
  // One flipped bit anywhere: the magic, a header field, an expectation, a count, a best play.
  for (std::size_t at : {std::size_t(0), std::size_t(13), std::size_t(20), std::size_t(60),
                         std::size_t(48 + 8 * built.size() + 17), good.size() - 1}) {
    std::string b = good;
    b[at] = char(b[at] ^ 0x10);
    write_all(bad, b);
    INFO("byte " << at);
    check_refused(bad);
  }
  write_all(bad, good.substr(0, good.size() - 4));
  check_refused(bad);
  write_all(bad, good + "x");
  check_refused(bad);
  write_all(bad, good.substr(0, 20));
  check_refused(bad);
  check_refused(scratch("missing.db"));
  check_refused(file, 5);  // a database of 4 checkers where 5 were asked for
  // Another format version, with a header checksum that agrees: refused for the version.
  std::string v2 = good;
  v2[8] = 2;
  const std::uint64_t crc = tablebase::crc64(std::as_bytes(std::span(v2.data(), 40)));
  for (int i = 0; i < 8; ++i) v2[40 + i] = char(crc >> (8 * i));
  write_all(bad, v2);
  try {
    read_one_sided(bad);
    FAIL("version 2 read");
  } catch (const TableError& e) {
    CHECK(std::string(e.what()).find("version 2") != std::string::npos);
  }
  fs::remove_all(file.parent_path());
}

TEST_CASE("drop16 bearoff --build / --db: the file's answers, and refusals with exit 2",
          "[nardy][bearoff-file][cli]") {
  using test_support::run_drop16;
  const fs::path file = scratch("cli.db");
  fs::remove(file);
  const std::string fen = "P/R/./././././././././././././././././2p/. 0/0 13/0 0/0 w 2-1";
  const auto built = run_drop16({"bearoff", "--variant", "nardy", "--checkers", "5", "--build",
                                 file.string(), "--fen", fen, "--json"});
  INFO(built.err);
  REQUIRE(built.status == 0);
  const auto loaded =
      run_drop16({"bearoff", "--variant", "nardy", "--db", file.string(), "--fen", fen, "--json"});
  REQUIRE(loaded.status == 0);
  const auto a = nlohmann::json::parse(built.out), b = nlohmann::json::parse(loaded.out);
  CHECK(a.at("file_bytes") == fs::file_size(file));
  for (const char* key : {"checkers", "positions", "expected_rolls", "distribution", "best_play"})
    CHECK(a.at(key) == b.at(key));
  std::string damaged = read_all(file);
  damaged[damaged.size() / 2] ^= 1;
  const fs::path bad = scratch("cli-bad.db");
  write_all(bad, damaged);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"bearoff", "--variant", "nardy", "--db", bad.string()},
           {"bearoff", "--variant", "nardy", "--db", file.string(), "--checkers", "6"},
           {"bearoff", "--variant", "nardy", "--checkers", "2", "--build", file.string()},
           {"bearoff", "--variant", "nardy", "--db", file.string(), "--build", bad.string()},
       }) {
    const auto r = run_drop16(args);
    INFO(args.back() << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  CHECK(read_all(bad) == damaged);
  fs::remove_all(file.parent_path());
}
