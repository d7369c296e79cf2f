// Value-only tables (`solve --value-only`, tier_solver.h): one bit a position, checked against the
// tables with DTEs (whose .value files hold the same bits, by an independent sweep: min/max of
// every child's DTE, not "some child loses") and against the forward solver.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/forward_solver.h"
#include "tablebase/crc64.h"
#include "tablebase/table_file.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_solver.h"
#include "tablebase/value_digest.h"
#include "tests/analysis_moves.h"
#include "tests/drop16_process.h"
#include "tests/stopped_solves.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace {

struct TempDir : test_support::TempDir {
  TempDir() : test_support::TempDir("value_only_test") {}
};

tablebase::TierSolveOptions options(const fs::path& dir, bool value_only) {
  tablebase::TierSolveOptions o;
  o.dir = dir;
  o.memory_bytes = std::uint64_t{1} << 30;
  o.threads = 2;
  o.zstd_level = 3;
  o.value_only = value_only;
  return o;
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The .value files of `full` (a solve with DTEs) and `values` (value-only) are the same bytes,
// and `values` holds no .dte file.
void check_same_values(const drop::TierSpace& space, const fs::path& full, const fs::path& values) {
  for (int t = 0; t < space.tier_count(); ++t) {
    const fs::path file = tablebase::value_path(values, space.tier_name(t));
    INFO(file);
    CHECK(file_bytes(tablebase::value_path(full, space.tier_name(t))) == file_bytes(file));
  }
  for (const auto& entry : fs::directory_iterator(values))
    CHECK(entry.path().extension() != ".dte");
}

}  // namespace

TEST_CASE("value-only tables hold the bits of the tables with DTEs, on the test ladder",
          "[tablebase][value-only][parallel]") {
  for (const char* variant :
       {"2x2:NK", "3x3:NK", "3x3:NBK", "3x4:NK", "2x3:NBK/nr", "3x3:NBRK", "2x4:NBR/nbq"}) {
    INFO(variant);
    TempDir full, values;
    const drop::Game game(drop::parse_variant(variant));
    const drop::TierSpace space(game);
    tablebase::solve_tiers(space, options(full.dir, false));
    const auto report = tablebase::solve_tiers(space, options(values.dir, true));
    CHECK(report.dte_bytes == 0);
    CHECK(report.planned_bytes <= tablebase::planned_memory(space));
    // Small tiers take a page either way; large ones an eighth.
    int largest = 0;
    for (int t = 0; t < space.tier_count(); ++t)
      if (space.tier_size(t) > space.tier_size(largest)) largest = t;
    if (space.tier_size(largest) > 1'000'000)
      CHECK(4 * tablebase::tier_memory(space, largest, true) <
            tablebase::tier_memory(space, largest, false));
    check_same_values(space, full.dir, values.dir);
  }
}

TEST_CASE("value-only tables in memory give the forward solver's value of every position",
          "[tablebase][value-only][parallel]") {
  for (const char* variant : {"3x3:NBK", "2x3:NBK/nr"}) {
    INFO(variant);
    const drop::Game game(drop::parse_variant(variant));
    const drop::TierSpace space(game);
    auto o = options({}, true);
    tablebase::TierSolver<drop::TierSpace> tiers(space, o);
    tiers.run();
    solver::ForwardSolver<drop::Game> search(game, std::uint64_t{1} << 30);
    std::uint64_t mismatches = 0, wins = 0, positions = 0;
    for (int t = 0; t < space.tier_count(); ++t)
      for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
        for (const auto& symmetry : game.geometry().symmetries()) {
          drop::Position p = game.transformed(space.unrank(t, i), symmetry);
          const bool win = solver::is_win(search.dte(p));
          mismatches += tiers.win(space.locate(p)) != win;
          wins += win;
          ++positions;
        }
    CHECK(mismatches == 0);
    CHECK(wins > 0);  // both values occur, so a table of one value would fail
    CHECK(wins < positions);
  }
}

TEST_CASE(
    "a value-only solve folding children by groups, stopped and resumed after every chunk, "
    "gives the same bits",
    "[tablebase][value-only]") {
  TempDir full, folded, stopped;
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  const drop::TierSpace space(game, true, 6);
  tablebase::solve_tiers(space, options(full.dir, false));
  auto o = options(folded.dir, true);
  o.memory_bytes = tablebase::planned_memory(space, true);
  CHECK(tablebase::solve_tiers(space, o).group_folds > 0);
  check_same_values(space, full.dir, folded.dir);

  o.dir = stopped.dir;
  o.checkpoint_interval = {};
  o.chunk_entries = 1 << 11;
  int polls = 0, inside_folds = 0;
  o.stop_requested = [&] { return ++polls % 97 == 0; };
  const int runs = test_support::solve_until_done(space, o, [&] {
    for (const auto& entry : fs::directory_iterator(stopped.dir))
      inside_folds +=
          entry.path().extension() == ".partial" &&
          tablebase::TableReader(entry.path()).header().encoding.find("children being folded") !=
              std::string::npos;
  });
  CHECK(runs > 1);
  CHECK(inside_folds > 0);
  check_same_values(space, full.dir, stopped.dir);
}

TEST_CASE("value-only tables and checkpoints are not taken for tables with DTEs, nor back",
          "[tablebase][value-only]") {
  TempDir values, mixed;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  tablebase::solve_tiers(space, options(values.dir, true));
  // A solve with DTEs finds value-only tiers: it says so instead of skipping them.
  REQUIRE_THROWS_WITH(tablebase::solve_tiers(space, options(values.dir, false)),
                      Catch::Contains("values only"));

  // Each kind of solve refuses the other's checkpoint.
  for (const bool value_only : {true, false}) {
    fs::remove_all(mixed.dir);
    fs::create_directories(mixed.dir);
    auto o = options(mixed.dir, value_only);
    o.checkpoint_interval = {};
    o.chunk_entries = 1 << 8;
    int polls = 0;
    o.stop_requested = [&] { return ++polls == 1; };  // in the first tier
    CHECK_THROWS_AS(tablebase::solve_tiers(space, o), tablebase::SolveInterrupted);
    REQUIRE_THROWS_WITH(tablebase::solve_tiers(space, options(mixed.dir, !value_only)),
                        Catch::Contains("checkpoint of a"));
  }
}

TEST_CASE("drop16 solve --value-only: values of the position and its moves, used by prove",
          "[tablebase][value-only][cli]") {
  TempDir tmp;
  const std::string full = (tmp.dir / "full").string(), values = (tmp.dir / "values").string();
  const auto solve = [](const std::string& dir, bool value_only) {
    std::vector<std::string> args{"solve",  "--variant", "3x3:NBK",      "--tables", dir,
                                  "--json", "--quiet",   "--zstd-level", "3"};
    if (value_only) args.push_back("--value-only");
    const auto run = test_support::run_drop16(args);
    REQUIRE(run.status == 0);
    return nlohmann::json::parse(run.out);
  };
  const auto with_dte = solve(full, false), value_only = solve(values, true);
  CHECK(value_only["tables"]["value_only"] == true);
  CHECK_FALSE(value_only.contains("dte"));
  CHECK(value_only["value"] == with_dte["value"]);
  REQUIRE(value_only["moves"].size() == with_dte["moves"].size());
  const auto by_name = test_support::moves_by_name(value_only["moves"]);
  for (const auto& m : with_dte["moves"]) {
    REQUIRE(by_name.count(m["move"]));
    CHECK(by_name.at(m["move"])["value"] == m["value"]);
  }
  // The prover's endgame tables: the same values from either kind.
  for (const char* fen : {"3/3/3[NBKnbk] w", "2n/1K1/3[NBbk] b"}) {
    INFO(fen);
    const auto prove = [&](const std::string& dir) {
      const auto run =
          test_support::run_drop16({"prove", "--variant", "3x3:NBK", "--fen", fen, "--tables", dir,
                                    "--all-moves", "--json", "--quiet"});
      REQUIRE(run.status == 0);
      return nlohmann::json::parse(run.out);
    };
    const auto a = prove(full), b = prove(values);
    CHECK(a["value"] == b["value"]);
    CHECK(a["moves"] == b["moves"]);
  }
  // Value-only tables need a directory, and hold no DTEs for query.
  CHECK(test_support::run_drop16({"solve", "--variant", "3x3:NK", "--value-only"}).status == 2);
  const auto query =
      test_support::run_drop16({"query", "--tables", values, "--fen", "3/3/3[NBKnbk] w"});
  CHECK(query.status == 2);
  CHECK(query.err.find("values only") != std::string::npos);
}

namespace {

// The digest as value_digest.h defines it, computed record by record from the file's records.
std::uint64_t digest_by_records(const fs::path& value_file) {
  tablebase::TableReader reader(value_file);
  const std::vector<std::uint32_t> records = reader.read_all();
  std::vector<std::byte> bytes((records.size() + 7) / 8);
  for (std::size_t i = 0; i < records.size(); ++i)
    if (records[i]) bytes[i / 8] |= std::byte(1u << (i % 8));
  return tablebase::crc64(bytes);
}

}  // namespace

TEST_CASE("tier digests depend on the value bits alone", "[tablebase][value-only]") {
  TempDir full, values;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  tablebase::solve_tiers(space, options(full.dir, false));
  auto o = options(values.dir, true);
  o.zstd_level = 19;
  o.threads = 1;
  tablebase::solve_tiers(space, o);
  int files_differ = 0;
  for (int t = 0; t < space.tier_count(); ++t) {
    const std::string& tier = space.tier_name(t);
    INFO(tier);
    const fs::path file = tablebase::value_path(values.dir, tier);
    files_differ += file_bytes(tablebase::value_path(full.dir, tier)) != file_bytes(file);
    const std::uint64_t digest =
        tablebase::tier_value_digest(values.dir, game.variant().name(), tier);
    CHECK(digest == digest_by_records(file));
    CHECK(digest == tablebase::tier_value_digest(full.dir, game.variant().name(), tier));
  }
  CHECK(files_differ > 0);  // other compression, so the equal digests say something

  // One bit changed anywhere, the last entry's included, changes the digest.
  int largest = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    if (space.tier_size(t) > space.tier_size(largest)) largest = t;
  tablebase::TableReader reader(tablebase::value_path(values.dir, space.tier_name(largest)));
  std::vector<std::uint64_t> bits = reader.read_packed();
  const std::uint64_t entries = reader.header().record_count,
                      digest = tablebase::value_bits_digest(bits, entries);
  CHECK(digest == tablebase::value_file_digest(reader));
  REQUIRE(entries % 64 != 0);  // so the last word has bits past the entries
  bits.back() ^= std::uint64_t{1} << 63;
  CHECK(tablebase::value_bits_digest(bits, entries) == digest);  // past the entries: not a value
  for (const std::uint64_t i : {std::uint64_t{0}, entries / 2, entries - 1}) {
    bits[i / 64] ^= std::uint64_t{1} << (i % 64);
    CHECK(tablebase::value_bits_digest(bits, entries) != digest);
    bits[i / 64] ^= std::uint64_t{1} << (i % 64);
  }
}

TEST_CASE(
    "drop16 verify --digest prints each tier's digest and compares them with an earlier run's",
    "[tablebase][value-only][cli]") {
  TempDir tmp;
  const std::string full = (tmp.dir / "full").string(), values = (tmp.dir / "values").string();
  for (const auto& [dir, extra] : {std::pair{full, "--zstd-level=3"}, {values, "--value-only"}})
    REQUIRE(test_support::run_drop16(
                {"solve", "--variant", "3x3:NBK", "--tables", dir, "--quiet", extra})
                .status == 0);
  const auto digest = [](const std::vector<std::string>& extra) {
    std::vector<std::string> args{"verify", "--digest", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test_support::run_drop16(args);
  };
  const auto first = digest({"--tables", full, "--json"});
  REQUIRE(first.status == 0);
  auto j = nlohmann::json::parse(first.out);
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  CHECK(j["tiers_checked"] == space.tier_count());
  CHECK(j["digests"].size() == std::size_t(space.tier_count()));
  CHECK(j["tables_digest"].is_string());
  const fs::path published = tmp.dir / "digests.json";
  std::ofstream(published) << first.out;
  const auto same = digest({"--tables", values, "--json", "--against", published.string()});
  REQUIRE(same.status == 0);
  const auto k = nlohmann::json::parse(same.out);
  CHECK(k["tables_digest"] == j["tables_digest"]);
  CHECK(k["differ"].empty());

  // A published digest that does not match is reported, and the run fails.
  const std::string tier = space.tier_name(space.tier_count() - 1);
  j["digests"][tier] = "0123456789abcdef";
  std::ofstream(published) << j.dump();
  const auto differs = digest({"--tables", values, "--against", published.string()});
  CHECK(differs.status == 1);
  CHECK(differs.out.find("1 differ") != std::string::npos);
  CHECK(differs.err.find(tier) != std::string::npos);

  // What it cannot compare is bad input.
  CHECK(digest({"--tables", values, "--against", (tmp.dir / "none.json").string()}).status == 2);
  std::ofstream(published) << "{\"variant\": \"3x3:NK\", \"digests\": {}}";
  CHECK(digest({"--tables", values, "--against", published.string()}).status == 2);
  CHECK(digest({"--tables", values, "--children"}).status == 2);
  CHECK(digest({"--tables", (tmp.dir / "empty").string()}).status == 2);
}
