// A table folder is one variant's tables in one format (tablebase/tables_found.h): a solve of
// another game, another variant or another format into it is refused with exit status 2 and one
// line naming what the folder holds, and the folder is left byte for byte as it was. Each folder
// is written by the solve a user runs, one of every table format that solve writes.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tablebase/tables_found.h"
#include "tests/drop16_process.h"

namespace fs = std::filesystem;
using test_support::Run;
using test_support::run_drop16;

namespace {

// One solve into a folder: its variant, its format (--format, or "" for the game's default), and
// the tables it leaves, as tables_in names them.
struct FolderSolve {
  std::string variant;
  std::string format;
  registry::TableFormat held;
};

std::vector<std::string> solve_args(const FolderSolve& s, const fs::path& dir) {
  std::vector<std::string> args = {"solve",    "--variant",  s.variant,
                                   "--tables", dir.string(), "--quiet"};
  if (!s.format.empty()) args.insert(args.end(), {"--format", s.format});
  return args;
}

// Every file of the folder by name: its size and its bytes' last write.
std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> listing(const fs::path& dir) {
  std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> files;
  for (const auto& entry : fs::directory_iterator(dir))
    files[entry.path().filename().string()] = {entry.file_size(), entry.last_write_time()};
  return files;
}

}  // namespace

TEST_CASE("a solve into another variant's table folder is refused, the folder kept",
          "[cli][tables][tables-folder]") {
  using registry::TableFormat;
  const std::vector<FolderSolve> solves = {
      {"2x2:NK", "", TableFormat::tiers},
      {"spock:3x3:K/k", "", TableFormat::keyed},
      {"spock:3x3:K/k", "loopy-tiers", TableFormat::loopy_tiers},
      {"rookrace:2x2:1", "", TableFormat::loopy_tiers},
      {"rookrace:2x2:0", "", TableFormat::loopy_tiers},
      {"nevsky:3x3:1", "", TableFormat::coalition_tiers},
      {"nevsky:3x3:1", "coalitions", TableFormat::coalitions},
  };
  const fs::path root =
      fs::temp_directory_path() / ("tables_folder_test_" + std::to_string(getpid()));
  fs::remove_all(root);
  for (std::size_t i = 0; i < solves.size(); ++i) {
    const fs::path dir = root / std::to_string(i);
    const Run first = run_drop16(solve_args(solves[i], dir));
    INFO(solves[i].variant << " " << solves[i].format << ": " << first.err);
    REQUIRE(first.status == 0);
    // What the folder holds, as the readers and the check see it: this one set.
    const std::vector<tablebase::HeldTables> held = tablebase::tables_in(dir);
    REQUIRE(held.size() == 1);
    CHECK(held[0].variant == solves[i].variant);
    CHECK(held[0].format == solves[i].held);
    const auto before = listing(dir);
    for (std::size_t j = 0; j < solves.size(); ++j) {
      if (j == i) continue;
      const Run r = run_drop16(solve_args(solves[j], dir));
      INFO("into " << solves[i].variant << " " << solves[i].format << "'s folder: "
                   << solves[j].variant << " " << solves[j].format << ": " << r.err);
      CHECK(r.status == 2);
      CHECK(r.out.empty());
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK_THAT(r.err, Catch::Matchers::Contains("holds the table") &&
                            Catch::Matchers::Contains(solves[i].variant) &&
                            Catch::Matchers::Contains("give another directory"));
      CHECK(listing(dir) == before);
    }
    // The folder's own solve again: its tables found finished, the folder still one set.
    const Run again = run_drop16(solve_args(solves[i], dir));
    CHECK(again.status == 0);
    CHECK(tablebase::tables_in(dir).size() == 1);
  }
  CHECK(tablebase::tables_in(root / "none").empty());
  fs::remove_all(root);
}
