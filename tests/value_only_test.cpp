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
#include "solver/forward_solver.h"
#include "tablebase/drop_space.h"
#include "tablebase/table_file.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_solver.h"
#include "tests/drop16_process.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;
using tablebase::DropTierSpace;

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
void check_same_values(const DropTierSpace& space, const fs::path& full, const fs::path& values) {
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
    const DropTierSpace space(game);
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
    const DropTierSpace space(game);
    auto o = options({}, true);
    tablebase::TierSolver<DropTierSpace> tiers(space, o);
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
  const DropTierSpace space(game, true, 6);
  tablebase::solve_tiers(space, options(full.dir, false));
  auto o = options(folded.dir, true);
  o.memory_bytes = tablebase::planned_memory(space, true);
  CHECK(tablebase::solve_tiers(space, o).group_folds > 0);
  check_same_values(space, full.dir, folded.dir);

  o.dir = stopped.dir;
  o.checkpoint_interval = {};
  o.chunk_entries = 1 << 11;
  int polls = 0, runs = 0, inside_folds = 0;
  o.stop_requested = [&] { return ++polls % 97 == 0; };
  for (bool done = false; !done; ++runs) {
    try {
      tablebase::solve_tiers(space, o);
      done = true;
    } catch (const tablebase::SolveInterrupted&) {
      for (const auto& entry : fs::directory_iterator(stopped.dir))
        inside_folds +=
            entry.path().extension() == ".partial" &&
            tablebase::TableReader(entry.path()).header().encoding.find("children being folded") !=
                std::string::npos;
    }
  }
  CHECK(runs > 1);
  CHECK(inside_folds > 0);
  check_same_values(space, full.dir, stopped.dir);
}

TEST_CASE("value-only tables and checkpoints are not taken for tables with DTEs, nor back",
          "[tablebase][value-only]") {
  TempDir values, mixed;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const DropTierSpace space(game);
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
  for (std::size_t m = 0; m < with_dte["moves"].size(); ++m) {
    CHECK(value_only["moves"][m]["move"] == with_dte["moves"][m]["move"]);
    CHECK(value_only["moves"][m]["value"] == with_dte["moves"][m]["value"]);
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
