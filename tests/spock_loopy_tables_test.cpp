// Spock's loopy tier tables from the command line (solve --format loopy-tiers, query, verify),
// against the keyed table of the same row, which the hash-map retrograde writes: the same counts,
// every position the keyed table holds answered alike by the loopy tables through the front
// ends' reader (tablebase/game_tables.h), the same answers from query, verify finding nothing
// wrong; and the choices of format refused, exit 2, where they do not apply.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/spock/entry.h"
#include "rules/spock/notation.h"
#include "tablebase/game_tables.h"
#include "tablebase/keyed_tables.h"
#include "tests/drop16_process.h"
#include "tests/test_support.h"

namespace {

using test_support::Run;

Run drop16(const std::vector<std::string>& args) {
  return test_support::run_drop16(args);
}

nlohmann::json solved(const std::vector<std::string>& args) {
  const Run r = drop16(args);
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

void refused(const std::vector<std::string>& args, const std::string& words) {
  const Run r = drop16(args);
  INFO("stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Matchers::Contains(words));
}

}  // namespace

TEST_CASE("spock loopy tier tables from the command line against the keyed table",
          "[spock_tables][cli]") {
  const test_support::TempDir tmp("spock_loopy_tables_test");
  const std::string row = "spock:3x3:RSK/rk";
  const std::string keyed = (tmp.dir / "keyed").string(), loopy = (tmp.dir / "loopy").string();
  const auto k = solved({"solve", "--variant", row, "--tables", keyed, "--json", "--quiet"});
  const auto l = solved({"solve", "--variant", row, "--tables", loopy, "--format", "loopy-tiers",
                         "--threads", "2", "--json", "--quiet"});
  CHECK(k.at("tables").at("file").get<std::string>().ends_with("spock.wdl"));
  CHECK(l.at("tables").at("format") == "loopy-tiers");
  for (const char* count :
       {"positions", "wins", "draws", "losses", "longest_win", "longest_loss"}) {
    INFO(count);
    CHECK(l.at("solved").at(count) == k.at("solved").at(count));
  }
  CHECK(l.at("solved").at("draws").get<std::uint64_t>() > 0);

  // Every position of the keyed table, in the loopy tables, through the reader the front ends
  // use (query, serve, the Python module), which opens whichever format the directory holds.
  tablebase::GameTablesOf<spock::Entry> by_key(keyed, ""), by_tier(loopy, row);
  CHECK(by_key.variant() == row);
  CHECK(by_tier.variant() == row);
  CHECK(tablebase::tables_variant_in(loopy) == row);
  std::uint64_t positions = 0, mismatches = 0;
  std::map<solver::Wdl, std::string> fen_of;  // a position of each value
  tablebase::open_keyed_table(keyed, "spock", spock::kKeyFormat, row)
      .for_each([&](const common::Key& key, solver::WdlValue v) {
        ++positions;
        if (by_tier.probe(key) != std::optional(v)) ++mismatches;
        fen_of.try_emplace(v.wdl, spock::to_fen(by_key.game(), by_key.game().from_key(key)));
      });
  CHECK(positions == k.at("solved").at("positions").get<std::uint64_t>());
  CHECK(mismatches == 0);
  REQUIRE(fen_of.size() == 3);

  // query answers alike from both, and the loopy solve answers its --fen as query does.
  for (const auto& [wdl, fen] : fen_of) {
    INFO(fen);
    const auto a = solved({"query", "--tables", keyed, "--fen", fen, "--json"});
    const auto b = solved({"query", "--tables", loopy, "--fen", fen, "--json"});
    const auto s = solved({"solve", "--variant", row, "--tables", loopy, "--format", "loopy-tiers",
                           "--fen", fen, "--json", "--quiet"});
    CHECK(s.at("tables").at("tiers_resumed") == s.at("tables").at("tiers"));
    for (const char* field : {"variant", "fen", "value", "dte", "moves"}) {
      CHECK(b.at(field) == a.at(field));
      CHECK(s.at(field) == a.at(field));
    }
  }
  // verify reads the format the directory holds.
  const auto v = solved(
      {"verify", "--variant", row, "--tables", loopy, "--samples", "40", "--json", "--quiet"});
  CHECK(v.at("source") == loopy);
  CHECK(v.at("positions") == k.at("solved").at("positions"));
  CHECK(v.at("mismatches") == 0);

  // A format the game does not have, or none at all; the loopy options with keyed tables; a
  // directory holding the other format's tables; a row past what the tier space indexes.
  refused({"solve", "--variant", row, "--tables", (tmp.dir / "x").string(), "--format", "tiers"},
          "keyed and loopy-tiers");
  refused({"solve", "--variant", "rookrace:4x4:0", "--tables", (tmp.dir / "x").string(), "--format",
           "keyed"},
          "written as loopy-tiers");
  refused({"solve", "--variant", row, "--format", "loopy-tiers"}, "--tables");
  refused({"solve", "--variant", row, "--tables", (tmp.dir / "x").string(), "--plan"},
          "--format loopy-tiers");
  refused({"solve", "--variant", row, "--tables", (tmp.dir / "x").string(), "--slice-minutes", "1"},
          "--format loopy-tiers");
  refused({"solve", "--variant", row, "--tables", loopy}, "the tables of " + row);
  refused({"solve", "--variant", row, "--tables", keyed, "--format", "loopy-tiers"},
          "the table of " + row);
  refused({"solve", "--variant", "spock:3x3:RSLK/rslk", "--tables", (tmp.dir / "y").string(),
           "--format", "loopy-tiers"},
          "more pieces than the tier space indexes");
  CHECK(!std::filesystem::exists(tmp.dir / "x"));
}
