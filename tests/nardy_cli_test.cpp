// drop16 moves / show / bearoff --variant nardy as users run them: JSON that agrees with the rules
// engine, and bad input refused with one line on stderr and exit status 2.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/nardy/game.h"
#include "rules/nardy/notation.h"
#include "rules/nardy/solve/bearoff.h"
#include "rules/nardy/solve/two_sided.h"
#include "tests/drop16_process.h"

using test_support::Run;
using test_support::run_drop16;

TEST_CASE("drop16 moves --variant nardy: the plays of a roll and the rolls of a position",
          "[nardy][cli]") {
  const auto s = nardy::parse_fen(nardy::start_fen());
  // With the dice: the names and resulting positions of the engine's plays.
  const Run r = run_drop16({"moves", "--variant", "nardy", "--roll", "5-6", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  nardy::Position p = s.position;
  p.dice = nardy::parse_roll("6-5");
  CHECK(j.at("fen") == nardy::to_fen(s.game, p));
  CHECK(j.at("roll") == "6-5");
  nardy::MoveList plays;
  s.game.generate(p, plays);
  REQUIRE(j.at("moves").size() == std::size_t(plays.size()));
  for (int i = 0; i < plays.size(); ++i) {
    CHECK(j.at("moves")[i] == nardy::move_name(plays[i]));
    nardy::Position q = p;
    s.game.make(q, plays[i]);
    CHECK(j.at("results")[i] == nardy::to_fen(s.game, q));
  }
  // Without: each roll, its weight and the engine's count.
  const Run c = run_drop16({"moves", "--variant", "nardy", "--json"});
  REQUIRE(c.status == 0);
  const auto rolls = nlohmann::json::parse(c.out).at("rolls");
  REQUIRE(rolls.size() == 21);
  unsigned weights = 0;
  for (const auto& roll : rolls) {
    nardy::Position q = s.position;
    q.dice = nardy::parse_roll(roll.at("roll").get<std::string>());
    CHECK(roll.at("plays") == s.game.count_moves(q));
    weights += roll.at("weight").get<unsigned>();
  }
  CHECK(weights == 36);
  const Run show = run_drop16({"show", "--variant", "nardy", "--fen",
                               "././P/./././r/././././. 0/2 0/0 0/0 b 4-3", "--json"});
  REQUIRE(show.status == 0);
  CHECK(nlohmann::json::parse(show.out).at("fen") == "././P/./././r/././././. 0/2 0/0 0/0 b 4-3");
}

TEST_CASE("drop16 --variant nardy: bad input gets one line and exit status 2", "[nardy][cli]") {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"moves", "--variant", "nardy", "--fen", "2r/./. 0/0 0/0 0/0 w -"},
           {"moves", "--variant", "nardy", "--roll", "7-1"},
           {"show", "--variant", "nardy", "--roll", "66"},
           {"moves", "--variant", "nardy", "--moves", "24/18"},
           {"moves", "--roll", "6-1"},
           {"perft", "--variant", "nardy", "--depth", "1"},
           {"solve", "--variant", "nardy"},
       }) {
    const Run r = run_drop16(args);
    INFO(args[0] << " " << args.back() << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.empty());
  }
}

TEST_CASE("drop16 show, moves and query --variant nardy: a game's end reached by play",
          "[nardy][cli]") {
  // Black's 2-2 eats White's last checker (issue 42): the position the engine prints is the
  // game's end, with White to move, and every command takes it back and says so with the points.
  const std::string before = "p/./R/././././././././././././././././././././. 0/0 14/11 0/3 b -";
  const Run played =
      run_drop16({"moves", "--variant", "nardy", "--fen", before, "--roll", "2-2", "--json"});
  INFO(played.err);
  REQUIRE(played.status == 0);
  const auto plays = nlohmann::json::parse(played.out);
  const auto at =
      std::find(plays.at("moves").begin(), plays.at("moves").end(), "24/22* 22/20 20/18 18/16");
  REQUIRE(at != plays.at("moves").end());
  const std::string end = plays.at("results")[at - plays.at("moves").begin()];
  CHECK(end == "././././././././p/././././././././././././././. 0/0 14/11 1/3 w -");
  const auto s = nardy::parse_fen(end);
  const auto points = s.game.terminal_value(s.position);
  const std::string over = "the game is over: White " + std::to_string(points[nardy::kWhite]) +
                           ", Black " + std::to_string(points[nardy::kBlack]);
  CHECK(over == "the game is over: White 4, Black -4");
  const nlohmann::json score = {{"white", 4}, {"black", -4}};
  for (const char* command : {"show", "moves", "query"}) {
    INFO(command);
    const Run text = run_drop16({command, "--variant", "nardy", "--fen", end});
    INFO(text.err);
    CHECK(text.status == 0);
    CHECK_THAT(text.out, Catch::Matchers::Contains(over));
    const Run json = run_drop16({command, "--variant", "nardy", "--fen", end, "--json"});
    REQUIRE(json.status == 0);
    const auto j = nlohmann::json::parse(json.out);
    CHECK(j.at("fen") == end);
    CHECK(j.at("terminal") == true);
    CHECK(j.at("points") == score);
    // No roll at the end: refused with the reason and the points.
    const Run rolled = run_drop16({command, "--variant", "nardy", "--fen", end, "--roll", "6-5"});
    CHECK(rolled.status == 2);
    CHECK_THAT(rolled.err, Catch::Matchers::Contains("--roll: " + over));
  }
}

TEST_CASE("drop16 bearoff --variant nardy: the database's answer for a home board",
          "[nardy][cli]") {
  // White: a plain checker on 1, a royal one on 2; 2-1 bears both off.
  const std::string fen = "P/R/./././././././././././././././././2p/. 0/0 13/0 0/0 w 2-1";
  const Run r = run_drop16({"bearoff", "--variant", "nardy", "--checkers", "3", "--threads", "1",
                            "--fen", fen, "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const nardy::bearoff::OneSided db(3, 1);
  const auto s = nardy::parse_fen(fen);
  const auto board = nardy::bearoff::home_board(s.game, s.position, nardy::kWhite);
  REQUIRE(board);
  CHECK(j.at("positions") == db.size());
  CHECK(j.at("expected_rolls").get<double>() == db.expected_rolls(*board));
  CHECK(j.at("best_play") == "R2/off 1/off");
  CHECK(j.at("tail_count") == "0");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"bearoff", "--variant", "nardy", "--checkers", "16"},
           {"bearoff", "--variant", "drop16", "--checkers", "2"},
           {"bearoff", "--variant", "nardy", "--checkers", "2", "--fen", nardy::start_fen()},
           {"bearoff", "--variant", "nardy", "--checkers", "1", "--fen", fen},
       }) {
    const Run bad = run_drop16(args);
    INFO(args.back() << ": " << bad.err);
    CHECK(bad.status == 2);
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
  }
}

TEST_CASE("drop16 bearoff --two-sided: every pair of plain home boards, the library's values",
          "[nardy][cli]") {
  const Run r = run_drop16({"bearoff", "--variant", "nardy", "--two-sided", "2", "--json", "--fen",
                            "P/./././././././././././././././././././p 0/0 0/0 0/1 w -"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const nardy::bearoff::TwoSidedPlain table(2, 0, 1);
  CHECK(j.at("pairs") == table.pairs());
  double high = -1e9;
  for (std::size_t w = 0; w < table.boards().size(); ++w)
    for (std::size_t b = 0; b < table.boards().size(); ++b)
      high = std::max(high, table.value(w, b));
  CHECK(j.at("max_white_points").get<double>() == high);
  CHECK(high == 2.0);  // White has a royal checker more: finishing first is worth 1 x 2 x 1
}

TEST_CASE("drop16 endgame --variant nardy: the fixed point's value, and bad input",
          "[nardy][cli]") {
  const std::string race = "P/././././././././././p 0/0 14/14 0/0 w -";
  const Run r = run_drop16({"endgame", "--variant", "nardy", "--fen", race, "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  // White bears off its checker on 1 with any roll: it wins a single point.
  CHECK(j.at("white_points").get<double>() == 1.0);
  CHECK(j.at("positions").get<int>() > 1);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"endgame", "--variant", "nardy"},
           {"endgame", "--variant", "nardy", "--fen", nardy::start_fen()},
           {"endgame", "--variant", "drop16", "--fen", race},
           {"endgame", "--variant", "nardy", "--fen", "././P/./p/././P/./p/./. 0/0 13/13 0/0 w -",
            "--max-positions", "10"},
       }) {
    const Run bad = run_drop16(args);
    INFO(args.back() << ": " << bad.err);
    CHECK(bad.status == 2);
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
  }
}

TEST_CASE("drop16 query --variant nardy: the best play and its expected points, exact or not",
          "[nardy][cli][nardy-query]") {
  // A plain race of two checkers a side: exact. Each play's value is minus the two-sided table's
  // value of the position it leads to, from Black's side (Black to roll plays White there).
  const std::string race = "././././P/P/./././././././././././././p/p/././. 0/0 13/13 0/0 w -";
  const Run r =
      run_drop16({"query", "--variant", "nardy", "--fen", race, "--roll", "2-1", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("exact") == true);
  CHECK(j.at("source") == "exact race expectimax");
  CHECK(j.at("roll") == "2-1");
  const nardy::bearoff::TwoSidedPlain table(2, 0, 0);
  const auto index_of = [&](const nardy::bearoff::HomeBoard& b) {
    const auto& boards = table.boards();
    return std::size_t(std::find(boards.begin(), boards.end(), b) - boards.begin());
  };
  double best = -1e9;
  REQUIRE(j.at("plays").size() >= 2);
  for (const auto& play : j.at("plays")) {
    const auto after = nardy::parse_fen(play.at("fen").get<std::string>());
    const auto white = nardy::bearoff::home_board(after.game, after.position, nardy::kWhite);
    const auto black = nardy::bearoff::home_board(after.game, after.position, nardy::kBlack);
    REQUIRE((white && black));
    const double v = play.at("expected_points").get<double>();
    CHECK(std::abs(v + table.value(index_of(*black), index_of(*white))) < 1e-12);
    best = std::max(best, v);
  }
  CHECK(j.at("expected_points").get<double>() == best);
  // The start: the player's estimate, over every one of the engine's plays.
  const Run start = run_drop16({"query", "--variant", "nardy", "--roll", "6-4", "--json"});
  REQUIRE(start.status == 0);
  const auto k = nlohmann::json::parse(start.out);
  CHECK(k.at("exact") == false);
  CHECK(k.at("source") == "player search, depth 1");
  auto s = nardy::parse_fen(nardy::start_fen());
  s.position.dice = nardy::parse_roll("6-4");
  CHECK(k.at("plays").size() == std::size_t(s.game.count_moves(s.position)));
  double top = -1e9;
  bool found = false;
  for (const auto& play : k.at("plays")) {
    top = std::max(top, play.at("expected_points").get<double>());
    found = found || play.at("play") == k.at("best_play");
  }
  CHECK(found);
  CHECK(k.at("expected_points").get<double>() == top);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"query", "--variant", "nardy"},
           {"query", "--variant", "nardy", "--roll", "7-2"},
           {"query", "--variant", "nardy", "--roll", "6-4", "--tables", "/tmp"},
           {"query", "--variant", "nardy", "--roll", "6-4", "--db", "/nonexistent.db"},
           {"query", "--variant", "nardy", "--roll", "6-4", "--depth", "3"},
           {"query", "--variant", "nardy", "--fen", "P/./. 0/0 0/0 0/0 w 6-4"},
           {"query", "--variant", "3x3:NBRK", "--roll", "6-4", "--tables", "/tmp"},
       }) {
    const Run bad = run_drop16(args);
    INFO(args.back() << ": " << bad.err);
    CHECK(bad.status == 2);
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
  }
}

TEST_CASE("drop16 nardy-match: a seeded match repeats, its figures add up, bad input exit 2",
          "[nardy][cli][player]") {
  const std::vector<std::string> args = {"nardy-match", "--games", "6", "--seed", "3", "--json"};
  const Run a = run_drop16(args), b = run_drop16(args);
  INFO(a.err);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  auto x = nlohmann::json::parse(a.out), y = nlohmann::json::parse(b.out);
  for (const char* key : {"mean_points", "standard_error", "wins", "losses", "mean_plies"})
    CHECK(x.at(key) == y.at(key));
  CHECK(x.at("wins").get<int>() + x.at("losses").get<int>() + x.at("draws").get<int>() +
            x.at("unfinished").get<int>() ==
        6);
  CHECK(x.at("win_rate").get<double>() == x.at("wins").get<int>() / 6.0);
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"nardy-match", "--depth", "3"},
           {"nardy-match", "--games", "0"},
           {"nardy-match", "--db", "/nonexistent.db"},
           {"nardy-match", "--checkers", "16"},
       }) {
    const Run r = run_drop16(bad);
    INFO(bad.back() << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
