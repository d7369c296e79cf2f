// verify --digest on tier tables of every format (app/tier_digests.h): the same digests for the
// same values whatever the files' compression, a digest run's JSON taken by --against, a tier
// whose digest was changed there named with exit status 1, and bad input refused with 2.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/drop16_process.h"
#include "tests/test_support.h"

using test_support::Run;
using test_support::run_drop16;

namespace {

nlohmann::json digests(const std::string& dir) {
  const Run r = run_drop16({"verify", "--tables", dir, "--digest", "--json", "--quiet"});
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("verify --digest: loopy and coalition tier tables, any compression",
          "[cli][digest][tables]") {
  // A row of each format, solved twice at two zstd levels: other files, the same values.
  for (const auto& [variant, format] : std::vector<std::pair<std::string, std::string>>{
           {"rookrace:4x4:2", "loopy-tiers"}, {"nevsky:4x4:1", "coalition-tiers"}}) {
    CAPTURE(variant);
    test_support::TempDir tmp("tier-digest-test");
    const std::string fast = (tmp.dir / "fast").string(), small = (tmp.dir / "small").string();
    for (const auto& [dir, level] : {std::pair{fast, "1"}, std::pair{small, "19"}})
      REQUIRE(run_drop16({"solve", "--variant", variant, "--tables", dir, "--format", format,
                          "--zstd-level", level, "--quiet"})
                  .status == 0);
    const nlohmann::json a = digests(fast), b = digests(small);
    CHECK(a["variant"] == variant);
    CHECK(a["tiers_checked"] == a["tiers"]);
    CHECK(a["tiers"].get<int>() > 1);
    CHECK(a["digests"] == b["digests"]);
    CHECK(a["tables_digest"] == b["tables_digest"]);

    // --against: the same values pass; a tier's digest changed is named, exit status 1.
    const auto against = tmp.dir / "against.json";
    std::ofstream(against) << a.dump();
    CHECK(run_drop16(
              {"verify", "--tables", small, "--digest", "--against", against.string(), "--quiet"})
              .status == 0);
    nlohmann::json changed = a;
    const std::string tier = changed["digests"].begin().key();
    changed["digests"][tier] = "0000000000000000";
    std::ofstream(against) << changed.dump();
    const Run differs = run_drop16(
        {"verify", "--tables", small, "--digest", "--against", against.string(), "--quiet"});
    CHECK(differs.status == 1);
    CHECK_THAT(differs.err, Catch::Contains("differ") && Catch::Contains(tier));
  }
}

TEST_CASE("verify --digest: refused without tier tables", "[cli][digest][tables]") {
  test_support::TempDir tmp("tier-digest-test");
  const std::string keyed = (tmp.dir / "keyed").string();
  REQUIRE(run_drop16({"solve", "--variant", "spock:3x3:RK/rk", "--tables", keyed, "--format",
                      "keyed", "--quiet"})
              .status == 0);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"verify", "--tables", keyed, "--digest"},
        std::vector<std::string>{"verify", "--variant", "rookrace:4x4:1", "--digest"}}) {
    const Run r = run_drop16(args);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--digest"));
  }
}
