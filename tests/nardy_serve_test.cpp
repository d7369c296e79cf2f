// serve's /api/analyze for Royal Nardy: the same answer as `drop16 query --variant nardy --json`
// (whose values tests/nardy_cli_test.cpp checks against the two-sided table), and bad requests
// answered 400 with a message while the server keeps serving.
#include <httplib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/drop16_process.h"
#include "tests/serve_process.h"

namespace {

struct Answer {
  int status = 0;
  nlohmann::json body;
};

Answer analyze(int port, const httplib::Params& params) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  auto res = client.Get("/api/analyze", params, httplib::Headers{});
  REQUIRE(res);
  return {res->status, nlohmann::json::parse(res->body)};
}

}  // namespace

TEST_CASE("serve: Royal Nardy's best play and expected points, as query gives them",
          "[nardy][serve]") {
  test_support::ServeProcess server(DROP16_BINARY, {});
  const std::string race = "././././P/P/./././././././././././././p/p/././. 0/0 13/13 0/0 w -";
  for (const auto& [fen, roll] : std::vector<std::pair<std::string, std::string>>{
           {race, "2-1"},
           {"2r/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R 0/0 0/0 0/0 w -", "6-4"}}) {
    const Answer a = analyze(server.port(), {{"variant", "nardy"}, {"fen", fen}, {"roll", roll}});
    INFO(fen << " " << roll);
    REQUIRE(a.status == 200);
    const auto cli = test_support::run_drop16(
        {"query", "--variant", "nardy", "--fen", fen, "--roll", roll, "--json"});
    REQUIRE(cli.status == 0);
    CHECK(a.body == nlohmann::json::parse(cli.out));
  }
  CHECK(analyze(server.port(), {{"variant", "nardy"}, {"fen", race}, {"roll", "2-1"}})
            .body["exact"] == true);
  for (const httplib::Params& bad : std::vector<httplib::Params>{
           {{"variant", "nardy"}},
           {{"variant", "nardy"}, {"roll", "7-1"}},
           {{"variant", "nardy"}, {"fen", "P/./. 0/0 0/0 0/0 w -"}, {"roll", "6-4"}},
       }) {
    const Answer a = analyze(server.port(), bad);
    CHECK(a.status == 400);
    CHECK(a.body.contains("error"));
  }
  CHECK(analyze(server.port(), {{"variant", "nardy"}, {"roll", "3-3"}}).status == 200);
}
