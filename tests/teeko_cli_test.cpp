// Teeko from the command line, as users run it: perft and moves against the reference engine,
// solve into tables against the in-memory hash-map solve (the same counts and start value), query
// and query --batch answering from the tables alike, verify of the tables finding nothing wrong,
// and bad input refused with one line and exit 2.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/teeko/reference_rules.h"
#include "tests/drop16_process.h"
#include "tests/test_support.h"

namespace {

using test_support::Run;

nlohmann::json ran(const std::vector<std::string>& args) {
  const Run r = test_support::run_drop16(args);
  INFO("drop16 " << args.front() << " stderr: " << r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("teeko from the command line: perft, solve, tables, query, verify", "[teeko][cli]") {
  const Run perft = test_support::run_drop16(
      {"perft", "--variant", "teeko:4x4", "--fen", "2XO/1OX1/X3/O3 x", "--depth", "4", "--json"});
  REQUIRE(perft.status == 0);
  CHECK(nlohmann::json::parse(perft.out).at("nodes") ==
        teeko::reference::perft(teeko::reference::from_fen("2XO/1OX1/X3/O3 x"), 4));

  const test_support::TempDir tmp("teeko_cli_test");
  const std::string dir = (tmp.dir / "teeko-4x4").string();
  const auto memory =
      ran({"solve", "--variant", "teeko:4x4", "--engine", "hash-map", "--json", "--quiet"});
  const auto tables = ran(
      {"solve", "--variant", "teeko:4x4", "--tables", dir, "--threads", "2", "--json", "--quiet"});
  for (const char* count :
       {"positions", "wins", "draws", "losses", "longest_win", "longest_loss"}) {
    INFO(count);
    CHECK(tables.at("solved").at(count) == memory.at("solved").at(count));
  }
  CHECK(memory.at("value") == "draw");
  CHECK(tables.at("value") == "draw");
  CHECK(tables.at("tables").at("format") == "loopy-tiers");

  // Red one step (d1c2) from a 2x2 block: query from the tables, alone and in a batch.
  const std::string fen = "XXX1/1OO1/1O2/X2O o";
  const auto q = ran({"query", "--tables", dir, "--fen", fen, "--json"});
  CHECK(q.at("value") == "win");
  CHECK(q.at("dte") == 1);
  const auto in_memory =
      ran({"solve", "--variant", "teeko:4x4", "--fen", fen, "--json", "--quiet"});
  CHECK(in_memory.at("value") == "win");
  CHECK(in_memory.at("dte") == 1);
  const std::filesystem::path batch = tmp.dir / "batch.txt";
  std::ofstream(batch) << "4/4/4/4 x\n" << fen << "\n";
  const Run b = test_support::run_drop16({"query", "--tables", dir, "--batch", batch.string()});
  INFO(b.err);
  REQUIRE(b.status == 0);
  CHECK_THAT(b.out, Catch::Matchers::Contains("draw"));
  CHECK_THAT(b.out, Catch::Matchers::Contains("win"));

  const Run v = test_support::run_drop16({"verify", "--tables", dir, "--samples", "300", "--json"});
  INFO(v.err);
  REQUIRE(v.status == 0);
  CHECK(nlohmann::json::parse(v.out).at("mismatches") == 0);

  // Bad input: one line on stderr, exit 2.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"perft", "--variant", "teeko:3x3", "--depth", "1"},
        {"moves", "--variant", "teeko", "--fen", "5/5/5/5/X4 x"},
        {"moves", "--variant", "teeko", "--moves", "c3", "c3"},
        {"query", "--variant", "teeko", "--tables", dir}}) {
    INFO(args[0] << " " << args[2]);
    const Run r = test_support::run_drop16(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
