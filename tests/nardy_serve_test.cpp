// serve's /api/analyze and /api/moves for Royal Nardy: the same answers as `drop16 query` and
// `drop16 moves --variant nardy --json` (whose values tests/nardy_cli_test.cpp checks against the
// two-sided table), and bad requests answered 400 with a message while the server keeps serving.
#include <httplib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/drop16_process.h"
#include "tests/serve_process.h"

namespace {

struct Answer {
  int status = 0;
  nlohmann::json body;
};

Answer get(int port, const char* path, const httplib::Params& params) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  auto res = client.Get(path, params, httplib::Headers{});
  REQUIRE(res);
  return {res->status, nlohmann::json::parse(res->body)};
}

Answer analyze(int port, const httplib::Params& params) {
  return get(port, "/api/analyze", params);
}

// The server's answer at `path` and what `drop16 command --variant nardy --json` prints, for one
// FEN and roll (none when empty).
std::pair<Answer, nlohmann::json> served_and_printed(int port, const char* path,
                                                     const char* command, const std::string& fen,
                                                     const std::string& roll) {
  httplib::Params params{{"variant", "nardy"}, {"fen", fen}};
  std::vector<std::string> args{command, "--variant", "nardy", "--fen", fen, "--json"};
  if (!roll.empty()) {
    params.emplace("roll", roll);
    args.insert(args.end(), {"--roll", roll});
  }
  const Answer a = get(port, path, params);
  const auto cli = test_support::run_drop16(args);
  REQUIRE(cli.status == 0);
  return {a, nlohmann::json::parse(cli.out)};
}

}  // namespace

TEST_CASE("serve: Royal Nardy's best play and expected points, as query gives them",
          "[nardy][serve]") {
  test_support::ServeProcess server(DROP16_BINARY, {});
  const std::string race = "././././P/P/./././././././././././././p/p/././. 0/0 13/13 0/0 w -";
  // The last: a game's end (White's last checker eaten), which takes no roll.
  const std::string end = "././././././././p/././././././././././././././. 0/0 14/11 1/3 w -";
  for (const auto& [fen, roll] : std::vector<std::pair<std::string, std::string>>{
           {race, "2-1"},
           {"2r/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R 0/0 0/0 0/0 w -", "6-4"},
           {end, ""}}) {
    INFO(fen << " " << roll);
    const auto [a, printed] = served_and_printed(server.port(), "/api/analyze", "query", fen, roll);
    REQUIRE(a.status == 200);
    CHECK(a.body == printed);
  }
  CHECK(analyze(server.port(), {{"variant", "nardy"}, {"fen", race}, {"roll", "2-1"}})
            .body["exact"] == true);
  const Answer over = analyze(server.port(), {{"variant", "nardy"}, {"fen", end}});
  CHECK(over.body["terminal"] == true);
  CHECK(over.body["points"] == nlohmann::json{{"white", 4}, {"black", -4}});
  for (const httplib::Params& bad : std::vector<httplib::Params>{
           {{"variant", "nardy"}},
           {{"variant", "nardy"}, {"roll", "7-1"}},
           {{"variant", "nardy"}, {"fen", "P/./. 0/0 0/0 0/0 w -"}, {"roll", "6-4"}},
           {{"variant", "nardy"}, {"fen", end}, {"roll", "6-4"}},
       }) {
    const Answer a = analyze(server.port(), bad);
    CHECK(a.status == 400);
    CHECK(a.body.contains("error"));
  }
  CHECK(analyze(server.port(), {{"variant", "nardy"}, {"roll", "3-3"}}).status == 200);
  // The other endpoints do not serve it, and say which ones do.
  httplib::Client client("127.0.0.1", server.port());
  for (const char* path : {"/api/play", "/api/line"}) {
    INFO(path);
    const auto res = client.Get(path, httplib::Params{{"variant", "nardy"}, {"move", "pass"}},
                                httplib::Headers{});
    REQUIRE(res);
    CHECK(res->status == 400);
    const std::string error = nlohmann::json::parse(res->body).value("error", "");
    CHECK_THAT(error, Catch::Matchers::Contains("served by /api/analyze and /api/moves only"));
    CHECK_THAT(error, !Catch::Matchers::Contains("WxH"));
  }
}

TEST_CASE("serve: Royal Nardy's plays or rolls, as moves gives them", "[nardy][serve]") {
  test_support::ServeProcess server(DROP16_BINARY, {});
  const std::string start =
      "2r/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R 0/0 0/0 0/0 w -";
  const std::string end = "././././././././p/././././././././././././././. 0/0 14/11 1/3 w -";
  // Still to roll (the rolls and their plays), rolled by the request or by the FEN, and the end.
  for (const auto& [fen, roll] : std::vector<std::pair<std::string, std::string>>{
           {start, ""},
           {start, "6-4"},
           {start.substr(0, start.size() - 1) + "3-3", ""},
           {end, ""}}) {
    INFO(fen << " " << roll);
    auto [a, printed] = served_and_printed(server.port(), "/api/moves", "moves", fen, roll);
    REQUIRE(a.status == 200);
    CHECK(a.body["game"] == "nardy");
    CHECK(a.body["drawing"] == "points_and_dice");
    CHECK(a.body["players"] == nlohmann::json({"white", "black"}));
    for (const char* page_only : {"game", "drawing", "players"}) a.body.erase(page_only);
    CHECK(a.body == printed);
  }
  // No FEN: the start, still to roll.
  const Answer opening = get(server.port(), "/api/moves", {{"variant", "nardy"}});
  CHECK(opening.body["fen"] == start);
  CHECK(opening.body["rolls"].size() == 21);
  for (const httplib::Params& bad : std::vector<httplib::Params>{
           {{"variant", "nardy"}, {"roll", "7-1"}},
           {{"variant", "nardy"}, {"fen", "P/./. 0/0 0/0 0/0 w -"}},
           {{"variant", "nardy"}, {"fen", end}, {"roll", "6-4"}},
       }) {
    const Answer a = get(server.port(), "/api/moves", bad);
    CHECK(a.status == 400);
    CHECK(a.body.contains("error"));
  }
}
