// drop16 solve without --tables for the games with loopy tier tables: a row is solved by the tier
// engine in a temporary folder (removed after), a --fen's subgame by the hash map, --engine
// chooses either, and the answer says which ran. The two engines share no solving code (the
// reachable retrograde, solver/cyclic_retrograde.h, against the loopy tier solver and its files,
// tablebase/loopy_tier_solver.h): each row's counts, the asked position's value and distance and
// every move's must be the same from both.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/drop16_process.h"
#include "tests/test_support.h"

using test_support::Run;
using test_support::run_drop16;

namespace {

// TMPDIR pointed at a folder of the test's own while it lives, so that what a solve leaves in the
// temporary directory can be seen; the old value put back after.
class ScratchTmpdir {
 public:
  ScratchTmpdir() : folder_("solve_engine_test") {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    setenv("TMPDIR", folder_.dir.c_str(), 1);
  }
  ~ScratchTmpdir() {
    if (old_)
      setenv("TMPDIR", old_->c_str(), 1);
    else
      unsetenv("TMPDIR");
  }
  bool empty() const { return std::filesystem::is_empty(folder_.dir); }

 private:
  test_support::TempDir folder_;
  std::optional<std::string> old_;
};

nlohmann::json solved(std::vector<std::string> args) {
  args.insert(args.end(), {"--json", "--quiet"});
  const Run r = run_drop16(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

// What both engines must agree on: the counts and the analysis (value, distance, every move's).
void check_same_answer(const nlohmann::json& a, const nlohmann::json& b) {
  for (const char* count :
       {"positions", "wins", "draws", "losses", "longest_win", "longest_loss"}) {
    INFO(count);
    CHECK(a.at("solved").at(count) == b.at("solved").at(count));
  }
  for (const char* field : {"variant", "fen", "value", "dte", "moves", "winning_moves"}) {
    INFO(field);
    CHECK(a.contains(field) == b.contains(field));
    if (a.contains(field) && b.contains(field)) CHECK(a.at(field) == b.at(field));
  }
}

}  // namespace

TEST_CASE("solve without --tables: a row by the tier engine, the hash map agrees",
          "[cli][loopy][engine]") {
  const ScratchTmpdir tmp;
  // A start, a row without one (every placement is a root), a start with drawn play.
  for (const std::string variant : {"rookrace:4x4:1", "spock:3x3:RK/rk", "teeko:4x4"}) {
    INFO(variant);
    const nlohmann::json tiers = solved({"solve", "--variant", variant});
    CHECK(tiers.at("engine") == "tiers");
    CHECK(tiers.at("tables").at("temporary") == true);
    CHECK(tiers.at("tables").at("dir").is_null());
    CHECK(tmp.empty());  // the folder it solved in is gone
    const nlohmann::json hashed = solved({"solve", "--variant", variant, "--engine", "hash-map"});
    CHECK(hashed.at("engine") == "hash-map");
    check_same_answer(tiers, hashed);
    CHECK(tiers.at("solved").at("positions").get<long>() > 1000);
  }
  // A --fen's subgame is the hash map's by default; --engine tiers answers it from the row.
  const std::vector<std::string> fen = {"solve", "--variant", "rookrace:4x4:1", "--fen",
                                        "3r/4/4/R3 [0,1] [-,-] w"};
  const nlohmann::json subgame = solved(fen);
  CHECK(subgame.at("engine") == "hash-map");
  std::vector<std::string> by_tiers = fen;
  by_tiers.insert(by_tiers.end(), {"--engine", "tiers"});
  const nlohmann::json row = solved(by_tiers);
  CHECK(row.at("engine") == "tiers");
  CHECK(tmp.empty());
  for (const char* field : {"fen", "value", "dte", "moves"}) {
    INFO(field);
    CHECK(row.at(field) == subgame.at(field));
  }
  // The subgame reaches a part of the row.
  CHECK(subgame.at("solved").at("positions") < row.at("solved").at("positions"));
}

TEST_CASE("solve --engine is refused where it has no meaning", "[cli][loopy][engine]") {
  const test_support::TempDir tmp("solve_engine_refused");
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"solve", "--variant", "rookrace:4x4:1", "--engine", "quick"}, "--engine"},
      {{"solve", "--variant", "rookrace:4x4:1", "--engine", "tiers", "--tables",
        (tmp.dir / "t").string()},
       "--engine"},
      {{"solve", "--variant", "3x3:NK", "--engine", "tiers"}, "--engine"},
      {{"solve", "--variant", "spock", "--engine", "tiers"}, "tier space"},
  };
  for (const auto& [args, needle] : refused) {
    const Run r = run_drop16(args);
    INFO(args[2] + " " + args[4] + ": " + r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Matchers::Contains(needle));
  }
  CHECK(!std::filesystem::exists(tmp.dir / "t"));
}
