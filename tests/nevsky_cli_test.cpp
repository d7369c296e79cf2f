// drop16 --variant nevsky as users run it, through the registry's generic commands: moves, show,
// perft (plain, hashed, parallel) and distinct checked against the plain reference engine
// (rules/nevsky/reference_rules.h), which shares no code with the engine the commands run; solve's
// every coalition value checked against the plain fixed point over raw positions
// (tests/coalition_fixed_point.h) and its counts against a direct call of the solver; bad input
// refused with one line on stderr and exit status 2.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/nevsky/game.h"
#include "rules/nevsky/notation.h"
#include "rules/nevsky/reference_rules.h"
#include "rules/nevsky/variant.h"
#include "solver/coalition_solve.h"
#include "tests/coalition_fixed_point.h"
#include "tests/drop16_process.h"
#include "tests/nevsky_positions.h"

using test_support::Run;
using test_support::run_drop16;

namespace {

namespace reference = nevsky::reference;

nlohmann::json json_of(const std::vector<std::string>& args) {
  const Run r = run_drop16(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

// The reference engine's board of a variant's position text.
reference::Board reference_board(const std::string& variant, const std::string& fen) {
  return reference::from_text(fen, nevsky::parse_variant(variant).pairs);
}

// A position with kings of every player, captures to make and a king's longest capture: White's
// king on 12 must take Red's 32 and Green's 44 (or its man on 15 takes Black's 14).
const std::string kKingsFen = nevsky_test::board(6,
                                                 {{"12", 'W'},
                                                  {"32", 'r'},
                                                  {"44", 'g'},
                                                  {"15", 'w'},
                                                  {"14", 'b'},
                                                  {"66", 'R'},
                                                  {"51", 'G'},
                                                  {"21", 'B'},
                                                  {"35", 'b'}},
                                                 'w');

void check_refused(const std::vector<std::string>& args, const std::vector<std::string>& needles) {
  const Run r = run_drop16(args);
  INFO(args[0] + " " + (args.size() > 2 ? args[2] : std::string()) + ": " + r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  REQUIRE(!r.err.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
  for (const std::string& n : needles) CHECK_THAT(r.err, Catch::Matchers::Contains(n));
}

// A coalition of the JSON (tablebase/coalition_json.h) as a set of players, bit q for player q.
std::uint32_t coalition_of(const nlohmann::json& c) {
  const char* names[] = {"white", "red", "green", "black"};
  std::uint32_t s = 0;
  for (const auto& player : c.at("players"))
    for (std::uint32_t q = 0; q < 4; ++q)
      if (player == names[q]) s |= 1u << q;
  return s;
}

}  // namespace

TEST_CASE(
    "drop16 moves and show --variant nevsky: the reference engine's moves, in the rule "
    "book's notation",
    "[nevsky][cli]") {
  std::mt19937 rng(43);
  std::vector<std::pair<std::string, std::string>> cases = {
      {"nevsky", reference::to_text(reference::start(6, 6, 0, false))},
      {"nevsky", kKingsFen},
      {"nevsky:5x5:3+1:pairs", reference::to_text(reference::start(5, 3, 1, true))}};
  for (const std::string& fen :
       nevsky_test::random_games(reference::start(5, 3, 2, false), 2, 30, rng))
    cases.emplace_back("nevsky:5x5:3+2", fen);
  for (const auto& [variant, fen] : cases) {
    INFO(variant << " " << fen);
    const auto j = json_of({"moves", "--variant", variant, "--fen", fen, "--json"});
    const reference::Board b = reference_board(variant, fen);
    CHECK(j.at("fen") == reference::to_text(b));
    std::set<std::string> listed;
    for (const auto& m : j.at("moves")) listed.insert(m.get<std::string>());
    const auto expected = reference::legal_moves(b);
    CHECK(listed == std::set<std::string>(expected.begin(), expected.end()));
    CHECK(listed.size() == j.at("moves").size());
    CHECK(j.at("terminal") == expected.empty());
  }
  // A capture typed by its route, played by --moves: the reference engine's position after it.
  const reference::Board kings = reference_board("nevsky", kKingsFen);
  for (const std::string& m : reference::legal_moves(kings)) {
    const auto after =
        json_of({"show", "--variant", "nevsky", "--fen", kKingsFen, "--moves", m, "--json"});
    CHECK(after.at("fen") == reference::to_text(reference::play(kings, m)));
  }
  const Run shown = run_drop16({"show", "--variant", "nevsky:4x4:1"});
  REQUIRE(shown.status == 0);
  CHECK_THAT(shown.out, Catch::Matchers::Contains("White to move"));
  // A finished game: no moves, and who won (not "the side to move has lost").
  const std::string over = nevsky_test::board(4, {{"22", 'R'}}, 'w');
  const Run done = run_drop16({"moves", "--variant", "nevsky:4x4:1", "--fen", over});
  REQUIRE(done.status == 0);
  CHECK_THAT(done.out, Catch::Matchers::Contains("0 legal moves: the game is over: Red wins"));
}

TEST_CASE("drop16 perft --variant nevsky: plain, hashed and parallel equal the reference engine's",
          "[nevsky][cli][perft]") {
  const std::vector<std::tuple<std::string, std::string, int>> cases = {
      {"nevsky", reference::to_text(reference::start(6, 6, 0, false)), 4},
      {"nevsky:5x5:3+1:pairs", reference::to_text(reference::start(5, 3, 1, true)), 5},
      {"nevsky", kKingsFen, 3}};
  for (const auto& [variant, fen, depth] : cases) {
    INFO(variant << " " << fen << " depth " << depth);
    const std::uint64_t expected = reference::perft(reference_board(variant, fen), depth);
    const std::vector<std::string> base = {"perft",   "--variant",           variant, "--fen", fen,
                                           "--depth", std::to_string(depth), "--json"};
    for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
             {}, {"--hash", "16"}, {"--threads", "2"}, {"--hash", "16", "--threads", "2"}}) {
      std::vector<std::string> args = base;
      args.insert(args.end(), extra.begin(), extra.end());
      CHECK(json_of(args).at("nodes") == expected);
    }
    // Divided by root move: each move's text is the reference engine's, its count its perft.
    std::vector<std::string> args = base;
    args.push_back("--divide");
    const auto divide = json_of(args).at("divide");
    const reference::Board b = reference_board(variant, fen);
    const auto moves = reference::legal_moves(b);
    REQUIRE(divide.size() == moves.size());
    for (const std::string& m : moves)
      CHECK(divide.at(m) == reference::perft(reference::play(b, m), depth - 1));
  }
}

TEST_CASE(
    "drop16 distinct --variant nevsky: the positions after each ply, as the reference "
    "engine reaches them",
    "[nevsky][cli]") {
  const int depth = 4;
  const auto j = json_of({"distinct", "--variant", "nevsky:4x4:1+1", "--depth",
                          std::to_string(depth), "--json", "--quiet"});
  std::set<std::string> layer = {reference::to_text(reference::start(4, 1, 1, false))};
  for (int d = 0; d <= depth; ++d) {
    INFO("ply " << d);
    CHECK(j.at("positions")[std::size_t(d)] == layer.size());
    CHECK(j.at("up_to_symmetry")[std::size_t(d)] <= layer.size());
    std::set<std::string> next;
    for (const std::string& text : layer) {
      const reference::Board b = reference::from_text(text, false);
      for (const std::string& m : reference::legal_moves(b))
        next.insert(reference::to_text(reference::play(b, m)));
    }
    layer = std::move(next);
  }
  CHECK(j.at("complete") == true);
}

TEST_CASE("drop16 solve --variant nevsky: every coalition's value is the plain fixed point's",
          "[nevsky][cli][coalition]") {
  std::mt19937 rng(7);
  std::vector<std::pair<std::string, std::optional<std::string>>> cases = {
      {"nevsky:3x3:1", std::nullopt}, {"nevsky:3x3:1+1:pairs", std::nullopt}};
  {  // a position a few plies into a game, with a player out or kings
    const auto games = nevsky_test::random_games(reference::start(3, 1, 1, false), 1, 4, rng);
    cases.emplace_back("nevsky:3x3:1+1", games.back());
  }
  for (const auto& [variant, fen] : cases) {
    INFO(variant << " " << fen.value_or("start"));
    std::vector<std::string> args = {"solve", "--variant", variant, "--json", "--quiet"};
    if (fen) args.insert(args.end(), {"--fen", *fen});
    const auto j = json_of(args);
    const nevsky::Game game(nevsky::parse_variant(variant));
    const nevsky::Position root = fen ? nevsky::parse_fen(game, *fen) : game.start();
    CHECK(j.at("fen") == nevsky::to_fen(game, root));
    const test_support::CoalitionFixedPoint<nevsky::Game> plain(game, {root});
    const int at = *plain.find(game.raw_key(root));
    std::set<std::string> winners;
    REQUIRE(j.at("coalitions").size() == 14);
    for (const auto& c : j.at("coalitions")) {
      INFO(c.dump());
      const solver::WdlValue v = plain.value(std::size_t(at), coalition_of(c));
      CHECK(c.at("value") == solver::wdl_name(v.wdl));
      if (v.wdl == solver::Wdl::draw)
        CHECK(c.at("distance").is_null());
      else
        CHECK(c.at("distance") == v.distance);
      if (v.wdl == solver::Wdl::win) winners.insert(c.at("coalition").get<std::string>());
    }
    std::set<std::string> listed;
    for (const auto& w : j.at("winning_coalitions")) listed.insert(w.get<std::string>());
    CHECK(listed == winners);
    // The counts are the solver's, called directly.
    const solver::CoalitionSolution direct = solver::solve_coalitions(game, root, {});
    const auto& solved = j.at("solved");
    CHECK(solved.at("positions") == direct.report.positions);
    CHECK(solved.at("links") == direct.report.links);
    CHECK(solved.at("kingmakers") == direct.report.kingmakers);
    CHECK(solved.at("longest_forced_win") ==
          *std::max_element(direct.report.longest_wins.begin(), direct.report.longest_wins.end()));
    CHECK(j.at("peak_memory_mb").get<double>() <= j.at("memory_mb").get<double>());
  }
}

TEST_CASE("drop16 solve --variant nevsky --max-depth: the values forced within the depth, exact",
          "[nevsky][cli][coalition]") {
  const std::string variant = "nevsky:3x3:1+1";  // kings: endless play, so draws
  const nevsky::Game game(nevsky::parse_variant(variant));
  const test_support::CoalitionFixedPoint<nevsky::Game> plain(game, {game.start()});
  const int at = *plain.find(game.raw_key(game.start()));
  std::uint64_t unknown = 0, found = 0;
  for (const int depth : {5, 40}) {
    INFO("--max-depth " << depth);
    const auto j = json_of(
        {"solve", "--variant", variant, "--max-depth", std::to_string(depth), "--json", "--quiet"});
    CHECK(j.at("search").at("depth").get<int>() <= depth);
    CHECK(j.at("search").at("stopped").is_null());
    REQUIRE(j.at("coalitions").size() == 14);
    for (const auto& c : j.at("coalitions")) {
      INFO(c.dump());
      const solver::WdlValue v = plain.value(std::size_t(at), coalition_of(c));
      if (v.wdl != solver::Wdl::draw && v.distance <= depth) {
        CHECK(c.at("value") == solver::wdl_name(v.wdl));
        CHECK(c.at("distance") == v.distance);
        ++found;
      } else {
        CHECK(c.at("value") == "unknown");  // a draw, or forced only beyond the depth
        CHECK(c.at("distance").is_null());
        ++unknown;
      }
    }
  }
  CHECK(found > 0);
  CHECK(unknown > 0);
  check_refused({"solve", "--variant", variant, "--time-limit", "5"}, {"--max-depth"});
  check_refused({"solve", "--variant", "nevsky:8x8:6", "--max-depth", "3"}, {"bits", "128"});
}

TEST_CASE("drop16 solve --variant nevsky --memory: held as resident memory, refused when too small",
          "[nevsky][cli][coalition][errors]") {
  // nevsky:4x4:1's solve counts about 8 MB; the process holds a few MB besides (far more under
  // AddressSanitizer, whose shadow memory is resident: there only a loose cap is checked).
#if defined(__SANITIZE_ADDRESS__)
  const double cap_gb = 0.5;
#else
  const double cap_gb = 0.025;
#endif
  const auto j = json_of({"solve", "--variant", "nevsky:4x4:1", "--memory", std::to_string(cap_gb),
                          "--json", "--quiet"});
  CHECK(j.at("peak_memory_mb").get<double>() <= cap_gb * 1024);
  CHECK(j.at("solved").at("positions").get<std::uint64_t>() > 1000);
  // Less than the process holds before solving: refused before the solve starts.
  check_refused({"solve", "--variant", "nevsky:4x4:1", "--memory", "0.001", "--quiet"},
                {"--memory: this process holds", "raise --memory"});
#if !defined(__SANITIZE_ADDRESS__)
  // Less than the solve needs: stopped with how far it got.
  check_refused({"solve", "--variant", "nevsky:4x4:1", "--memory", "0.014", "--quiet"},
                {"coalition retrograde needs more than", "raise --memory"});
#endif
}

TEST_CASE("drop16 --variant nevsky: bad input gets one line and exit status 2",
          "[nevsky][cli][errors]") {
  check_refused({"moves", "--variant", "nevsky:9x9:1"}, {"'nevsky:9x9:1'"});
  check_refused({"moves", "--variant", "nevsky:4x4:2"}, {"'nevsky:4x4:2'"});
  check_refused({"perft", "--variant", "nevsky:4x4:1:pair", "--depth", "1"}, {"nevsky:4x4:1:pair"});
  check_refused({"show", "--variant", "nevsky:4x4:1", "--fen", "4/4/4/4 w"}, {"no checker"});
  check_refused({"show", "--variant", "nevsky:4x4:1", "--fen", "w3/3r/b3/3g x"}, {"'x'"});
  check_refused({"moves", "--variant", "nevsky", "--fen", kKingsFen, "--moves", "12:52"},
                {"12:52", "most checkers"});
  check_refused({"moves", "--variant", "nevsky", "--moves", "16-15"}, {"16-15"});
  check_refused({"solve", "--variant", "nevsky:3x3:1", "--tables", "t"},
                {"--tables", "Nevsky checkers"});
  check_refused({"solve", "--variant", "nevsky:8x8:6"}, {"bits", "128"});
  check_refused({"distinct", "--variant", "nevsky:8x8:6", "--depth", "1"}, {"bits"});
  check_refused({"perft", "--variant", "nevsky:8x8:6", "--depth", "1", "--hash", "1"}, {"--hash"});
}
