// Nevsky's text forms: variant names, the position string, moves by any route, the board
// diagram; every malformed or unreachable text refused with a ParseError, never a crash.
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "rules/nevsky/game.h"
#include "rules/nevsky/notation.h"
#include "rules/nevsky/variant.h"
#include "tests/conformance.h"
#include "tests/nevsky_positions.h"
#include "tests/test_support.h"

namespace {

using nevsky::Game;
using nevsky::Position;
using nevsky_test::board;

Game game_of(const std::string& variant) {
  return Game(nevsky::parse_variant(variant));
}

}  // namespace

TEST_CASE("nevsky: variant names", "[nevsky][notation]") {
  using nevsky::Variant;
  CHECK(nevsky::parse_variant("nevsky") == Variant{6, 6, 0, false});
  CHECK(nevsky::parse_variant("nevsky:6x6:6") == Variant{6, 6, 0, false});
  CHECK(nevsky::parse_variant("nevsky:4x4:3") == Variant{4, 3, 0, false});
  CHECK(nevsky::parse_variant("nevsky:6x6:6+2") == Variant{6, 6, 2, false});
  CHECK(nevsky::parse_variant("nevsky:6x6:3:pairs") == Variant{6, 3, 0, true});
  CHECK(nevsky::parse_variant("nevsky:3x3:1+1:pairs") == Variant{3, 1, 1, true});
  CHECK(nevsky::parse_variant("nevsky:pairs") == Variant{6, 6, 0, true});
  CHECK(nevsky::parse_variant("nevsky:8x8:10+3") == Variant{8, 10, 3, false});
  CHECK(nevsky::parse_variant("nevsky:5x5:3+0") == Variant{5, 3, 0, false});
  CHECK(nevsky::parse_variant("nevsky:6x6:6").name() == "nevsky");
  CHECK(nevsky::parse_variant("nevsky:6x6:6:pairs").name() == "nevsky:pairs");
  CHECK(nevsky::parse_variant("nevsky:5x5:3+0").name() == "nevsky:5x5:3");
  for (const char* name : {"nevsky:3x3:1", "nevsky:4x4:3+3", "nevsky:8x8:10+1:pairs",
                           "nevsky:6x6:6+2", "nevsky:7x7:1+1"})
    CHECK(nevsky::parse_variant(name).name() == name);
  struct Bad {
    const char *name, *says;
  };
  for (const Bad bad : {
           Bad{"", "expected nevsky"},
           Bad{"nevski", "expected nevsky"},
           Bad{"nevskyx", "expected nevsky"},
           Bad{"nevsky:", "expected nevsky"},
           Bad{"nevsky:6x6", "expected nevsky"},
           Bad{"nevsky:6x6:", "men a player"},
           Bad{"nevsky:6x6:4", "1, 3, 6 or 10"},
           Bad{"nevsky:6x6:10", "overlap"},
           Bad{"nevsky:5x5:6", "6 men need 6x6"},
           Bad{"nevsky:3x3:3", "overlap"},
           Bad{"nevsky:7x7:10", "overlap"},
           Bad{"nevsky:2x2:1", "3x3 to 8x8"},
           Bad{"nevsky:9x9:1", "3x3 to 8x8"},
           Bad{"nevsky:6x5:3", "square"},
           Bad{"nevsky:6X6:3", "NxN"},
           Bad{"nevsky:x6:3", "NxN"},
           Bad{"nevsky:6x6:3+4", "0 to 3"},
           Bad{"nevsky:6x6:1+2", "0 to 1"},
           Bad{"nevsky:6x6:3+", "after '+'"},
           Bad{"nevsky:6x6:3+-1", "after '+'"},
           Bad{"nevsky:6x6:3:pair", "men a player"},
           Bad{"nevsky:6x6:3:pairs:pairs", "men a player"},
           Bad{"nevsky::pairs", "expected nevsky"},
           Bad{"nevsky:6x6:a", "men a player"},
       }) {
    INFO("'" << bad.name << "'");
    CHECK_THROWS_WITH(nevsky::parse_variant(bad.name),
                      Catch::StartsWith(std::string("variant '") + bad.name + "': ") &&
                          Catch::Contains(bad.says));
  }
  CHECK(nevsky::names_nevsky("nevsky:6x6:3"));
  CHECK(nevsky::names_nevsky("nevsky"));
  CHECK(!nevsky::names_nevsky("nevskyx"));
  CHECK(!nevsky::names_nevsky("rookrace"));
  CHECK_THROWS_AS(Game(nevsky::Variant{5, 6, 0, false}), nevsky::ParseError);
}

TEST_CASE("nevsky: position strings print and read back", "[nevsky][notation]") {
  const Game g = game_of("nevsky");
  for (const char* fen : {"wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg w", "W5/6/2rG2/6/6/5b r",
                          "6/6/2R3/3B2/6/g5 b", "6/6/6/6/3w2/6 w"})
    CHECK(nevsky::to_fen(g, nevsky::parse_fen(g, fen)) == fen);
  // Any whitespace between the fields and around them.
  CHECK(nevsky::to_fen(g, nevsky::parse_fen(g, " \twwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg\n g ")) ==
        "wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg g");
  const Game small = game_of("nevsky:3x3:1+1:pairs");
  CHECK(nevsky::to_fen(small, small.start()) == "W1R/3/B1G w");
  CHECK(nevsky::board_diagram(g, g.start()) ==
        "6  w w w r r r\n"
        "5  w w . . r r\n"
        "4  w . . . . r\n"
        "3  b . . . . g\n"
        "2  b b . . g g\n"
        "1  b b b g g g\n"
        "   1 2 3 4 5 6\n"
        "White to move\n");
  CHECK(nevsky::board_diagram(g, nevsky::parse_fen(g, "W5/6/2rG2/6/6/6 r")) ==
        "6  W . . . . .\n"
        "5  . . . . . .\n"
        "4  . . r G . .\n"
        "3  . . . . . .\n"
        "2  . . . . . .\n"
        "1  . . . . . .\n"
        "   1 2 3 4 5 6\n"
        "out: Black\n"
        "Red to move\n");
  CHECK(nevsky::board_diagram(small, nevsky::parse_fen(small, "W2/3/2G r")) ==
        "3  W . .\n"
        "2  . . .\n"
        "1  . . G\n"
        "   1 2 3\n"
        "pair play: White and Green against Red and Black\n"
        "out: Red, Black\n"
        "game over: White and Green win\n");
  CHECK(nevsky::board_diagram(g, nevsky::parse_fen(g, "6/6/6/6/3w2/6 g"))
            .ends_with("out: Red, Green, Black\ngame over: White wins\n"));
}

TEST_CASE("nevsky: every position of random games, ends included, prints and parses back",
          "[nevsky][notation][round-trip]") {
  std::mt19937_64 rng(42);
  for (const char* variant :
       {"nevsky", "nevsky:pairs", "nevsky:4x4:3+1", "nevsky:3x3:1+1:pairs", "nevsky:8x8:10+3"}) {
    INFO(variant);
    const Game g = game_of(variant);
    const auto seen = conformance::check_round_trips(
        g, g.start(), 20, 400, rng, [&](const Position& p) { return nevsky::to_fen(g, p); },
        [&](const std::string& fen) { return nevsky::parse_fen(g, fen); });
    CHECK(seen.positions > 20);
  }
}

TEST_CASE("nevsky: every malformed or unreachable position string is a ParseError",
          "[nevsky][notation]") {
  const Game g = game_of("nevsky");
  struct Bad {
    const char *fen, *says;
  };
  for (const Bad bad : {
           Bad{"", "empty"},
           Bad{"   ", "empty"},
           Bad{"wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg", "2 fields"},
           Bad{"wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg w w", "2 fields"},
           Bad{"wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg x", "player to move"},
           Bad{"wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg W", "player to move"},
           Bad{"wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg wr", "player to move"},
           Bad{"wwwrrr/ww2rr/w4r/b4g/bb2gg w", "5 rows"},
           Bad{"wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg/6 w", "7 rows"},
           Bad{"wwwrrr/ww3rr/w4r/b4g/bb2gg/bbbggg w", "row 5 has 7 cells"},
           Bad{"wwwrrr/ww1rr/w4r/b4g/bb2gg/bbbggg w", "row 5 has 5 cells"},
           Bad{"wwwrrr/ww11rr/w4r/b4g/bb2gg/bbbggg w", "two digits"},
           Bad{"wwwrrr/ww0rr/w4r/b4g/bb2gg/bbbggg w", "unexpected '0'"},
           Bad{"wwwrrr/ww9/w4r/b4g/bb2gg/bbbggg w", "unexpected '9'"},
           Bad{"wwwrrr/ww..rr/w4r/b4g/bb2gg/bbbggg w", "unexpected '.'"},
           Bad{"wwwrrr/wwxxrr/w4r/b4g/bb2gg/bbbggg w", "unexpected 'x'"},
           Bad{"wwwrrr/ww\xff\xffrr/w4r/b4g/bb2gg/bbbggg w", "byte 255"},
           Bad{"wwwrrr//w4r/b4g/bb2gg/bbbggg w", "row 5 has 0 cells"},
           Bad{"wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg/ w", "7 rows"},
           Bad{"6/6/6/6/6/6 w", "no checker"},
           Bad{"wwwrrr/wwwwrr/w4r/b4g/bb2gg/bbbggg w", "White has 8 checkers"},
           Bad{"6/6/6/6/6/5w w", "goal corner 61"},
           Bad{"6/6/6/6/6/r5 w", "goal corner 11"},
       }) {
    INFO("'" << bad.fen << "'");
    CHECK_THROWS_WITH(nevsky::parse_fen(g, bad.fen),
                      Catch::StartsWith("position: ") && Catch::Contains(bad.says));
  }
  // A king on any corner is fine, and so is a man on another player's goal.
  CHECK_NOTHROW(nevsky::parse_fen(g, "R5/6/6/6/6/5W w"));
  CHECK_NOTHROW(nevsky::parse_fen(g, "r5/6/6/6/6/5b w"));
  // More checkers than a smaller variant gives.
  const Game three = game_of("nevsky:6x6:3");
  CHECK_THROWS_WITH(nevsky::parse_fen(three, "wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg w"),
                    Catch::Contains("gives each player 3"));
}

TEST_CASE("nevsky: every malformed or illegal move is a ParseError", "[nevsky][notation]") {
  const Game g = game_of("nevsky");
  const Position start = g.start();
  const Position capture = nevsky::parse_fen(
      g, board(6, {{"12", 'W'}, {"32", 'r'}, {"44", 'g'}, {"15", 'w'}, {"14", 'b'}, {"65", 'b'}},
               'w'));
  struct Bad {
    const Position& p;
    const char *move, *says;
  };
  for (const Bad bad : {
           Bad{start, "", "expected a step"},
           Bad{start, "35", "expected a step"},
           Bad{start, "36-", "not a cell"},
           Bad{start, "36-35-34", "expected a step"},
           Bad{start, " 36-35", "not a cell"},
           Bad{start, "36-35 ", "not a cell"},
           Bad{start, "36-70", "not a cell"},
           Bad{start, "36-37", "not a cell"},
           Bad{start, "a6-35", "not a cell"},
           Bad{start, "36_35", "expected a step"},
           Bad{start, "33-34", "holds no checker"},
           Bad{start, "46-45", "holds Red's man"},
           Bad{start, "36-46", "not a legal step"},
           Bad{start, "25-26", "not a legal step"},
           Bad{start, "25-45", "not a legal step"},
           Bad{start, "36:56", "lands on an occupied cell"},
           Bad{start, "26:46", "jumps White's man, which White may not capture"},
           Bad{start, "36:34", "jumps over no checker"},
           Bad{start, "36:14", "not along a row or column"},
           Bad{start, "36:36", "not along a row or column"},
           Bad{capture, "12-22", "compulsory"},
           Bad{capture, "12:52", "most checkers"},
           Bad{capture, "12:42", "must go on"},
           Bad{capture, "12:42:46:16", "jumps over no checker"},
           Bad{capture, "15:11", "passes over more than one checker"},
           Bad{capture, "15:12", "a man jumps the checker next to it"},
           Bad{capture, "15:13:11", "jumps White's king, which White may not capture"},
           Bad{capture, "12:15", "lands on an occupied cell"},
           Bad{capture, "15:14", "jumps over no checker"},
       }) {
    INFO("'" << bad.move << "'");
    CHECK_THROWS_WITH(
        nevsky::parse_move(g, bad.p, bad.move),
        Catch::StartsWith(std::string("move '") + bad.move + "': ") && Catch::Contains(bad.says));
  }
  // A man jumps only the checker next to it.
  const Position man = nevsky::parse_fen(g, board(6, {{"22", 'w'}, {"42", 'r'}, {"66", 'r'}}, 'w'));
  CHECK_THROWS_WITH(nevsky::parse_move(g, man, "22:52"), Catch::Contains("a man jumps"));
  CHECK(nevsky::move_name(g, start, nevsky::parse_move(g, start, "36-35")) == "36-35");
  CHECK(nevsky::move_name(g, capture, nevsky::parse_move(g, capture, "12:42:45")) == "12:42:45");
}

TEST_CASE("nevsky: mangled position strings and moves are refused or read back, never a crash",
          "[nevsky][notation]") {
  std::mt19937 rng(99);
  const std::string alphabet = "wrgbWRGB123456780/ x9:-";
  const Game g = game_of("nevsky:6x6:6+1");
  const auto fens = conformance::check_mangled<nevsky::ParseError>(
      3000,
      [&] {
        return test_support::mangled(nevsky_test::random_placement(6, 6, 0.4, rng), alphabet, rng);
      },
      [&](const std::string& fen) { return nevsky::parse_fen(g, fen); },
      [&](const Position& p) { return nevsky::to_fen(g, p); },
      [&](const Position& p) {
        // Mangled moves on it: refused, or named back to the same move.
        std::string move = rng() % 2 ? "25:45:65" : "25-35";
        move[rng() % move.size()] = alphabet[rng() % alphabet.size()];
        try {
          const nevsky::Move m = nevsky::parse_move(g, p, move);
          CHECK(nevsky::parse_move(g, p, nevsky::move_name(g, p, m)) == m);
        } catch (const nevsky::ParseError&) {
        }
      });
  CHECK(fens.accepted > 100);
  CHECK(fens.refused > 500);
  conformance::check_mangled<nevsky::ParseError>(
      2000,
      [&] {
        std::string name = rng() % 2 ? "nevsky:6x6:3+1:pairs" : "nevsky:4x4:1";
        name[rng() % name.size()] = "x:+0123456789ap"[rng() % 15];
        return name;
      },
      [](const std::string& name) { return nevsky::parse_variant(name); },
      [](const nevsky::Variant& v) { return v.name(); });
}
