// drop16 solve --format coalition-tiers, query and verify on Nevsky's coalition tier tables, as
// users run them: every coalition's value at the start and after each move equal to the hash-map
// solve's (drop16 solve without --tables, another solver), a second solve read from the folder,
// verify's children and forward-search checks passing, and a changed value caught by them; a
// folder of other tables, a foreign format and a --memory too small refused with exit status 2.
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/nevsky/solve/coalition_tier_space.h"
#include "rules/nevsky/variant.h"
#include "tablebase/coalition_tier_files.h"
#include "tests/drop16_process.h"
#include "tests/test_support.h"

using test_support::Run;
using test_support::run_drop16;

namespace {

nlohmann::json json_of(const std::vector<std::string>& args) {
  const Run r = run_drop16(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

// value and distance by coalition name, `plies` added to each distance
std::map<std::string, std::string> values_of(const nlohmann::json& coalitions, int plies = 0) {
  std::map<std::string, std::string> out;
  for (const auto& c : coalitions)
    out[c["coalition"].get<std::string>()] =
        c["value"].get<std::string>() +
        (c["distance"].is_null() ? "" : std::to_string(c["distance"].get<int>() + plies));
  return out;
}

}  // namespace

TEST_CASE("drop16 solve --format coalition-tiers: the hash-map solve's values, query, verify",
          "[coalition][nevsky][tiers][cli]") {
  const test_support::TempDir dir("nevsky_coalition_tiers_cli");
  const std::string tables = dir.dir.string(), row = "nevsky:4x4:1";
  const auto solved = json_of({"solve", "--variant", row, "--tables", tables, "--format",
                               "coalition-tiers", "--threads", "2", "--json"});
  const auto hashed = json_of({"solve", "--variant", row, "--json"});
  CHECK(values_of(solved["coalitions"]) == values_of(hashed["coalitions"]));
  CHECK(values_of(solved["coalitions"]).size() == 14);
  CHECK_FALSE(solved["tables"]["loaded"].get<bool>());
  CHECK(solved["solved"]["positions"].get<std::uint64_t>() >=
        hashed["solved"]["positions"].get<std::uint64_t>() / 2);
  // Again: read from the folder, the same answer.
  const auto again = json_of(
      {"solve", "--variant", row, "--tables", tables, "--format", "coalition-tiers", "--json"});
  CHECK(again["tables"]["loaded"].get<bool>());
  CHECK(values_of(again["coalitions"]) == values_of(solved["coalitions"]));
  // query: the start and after each move (its distance counted from the start), against the
  // hash-map solve of each position.
  const auto q = json_of({"query", "--tables", tables, "--json"});
  CHECK(q["variant"] == row);
  CHECK(values_of(q["coalitions"]) == values_of(solved["coalitions"]));
  REQUIRE(q["moves"].size() > 0);
  for (const auto& m : q["moves"]) {
    const auto after =
        json_of({"solve", "--variant", row, "--fen", m["fen"].get<std::string>(), "--json"});
    CHECK(values_of(m["coalitions"]) == values_of(after["coalitions"], 1));
  }
  // verify: children and the forward search.
  const auto v = json_of({"verify", "--tables", tables, "--samples", "100", "--json"});
  CHECK(v["mismatches"] == 0);
  CHECK(v["coalitions_searched"].get<int>() > 0);
  // A value changed in a tier's file (written whole, checksums right): the children check
  // catches it.
  {
    nevsky::CoalitionTierSpace space(nevsky::parse_variant(row));
    REQUIRE(space.load_index(dir.dir));
    const auto at = space.locate(space.game().start());
    const tablebase::CoalitionTierName name{dir.dir, space.variant_name(),     space.index_scheme(),
                                            at.tier, space.tier_name(at.tier), 7};
    std::vector<tablebase::CoalitionCode> codes(space.tier_size(at.tier) * 7);
    tablebase::read_coalition_tier(name, codes);
    auto& c = codes[at.index * 7];
    c = c == tablebase::kCoalitionDraw<tablebase::CoalitionCode>
            ? tablebase::coalition_code<tablebase::CoalitionCode>(true, 3)
            : tablebase::coalition_flip(c);
    tablebase::write_coalition_tier(name, codes, 3);
  }
  const Run caught =
      run_drop16({"verify", "--tables", tables, "--samples", "100000", "--children", "--json"});
  CHECK(caught.status == 1);
  CHECK(nlohmann::json::parse(caught.out)["children_mismatches"].get<int>() >= 1);
  // Refused: the keyed format into this folder, another game's format, too little memory.
  CHECK(run_drop16({"solve", "--variant", row, "--tables", tables, "--format", "coalitions"})
            .status == 2);
  // Without --format: the default, these tables, read back.
  CHECK(json_of({"solve", "--variant", row, "--tables", tables, "--json"})["tables"]["loaded"] ==
        true);
  CHECK(run_drop16({"solve", "--variant", row, "--tables", tables, "--format", "loopy-tiers"})
            .status == 2);
  const test_support::TempDir small("nevsky_coalition_tiers_cli_small");
  const Run tight =
      run_drop16({"solve", "--variant", "nevsky:4x4:1+1", "--tables", small.dir.string(),
                  "--format", "coalition-tiers", "--memory", "0.001"});
  CHECK(tight.status == 2);
  CHECK(tight.err.find("--memory") != std::string::npos);
}
