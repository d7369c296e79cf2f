// Royal Nardy's rules engine (rules/nardy/) against the plain brute force of
// rules/nardy/reference_rules.h: the distinct plays of every roll, the terminal test and the score,
// on the start, on random games and on random set-ups; notation round trips; hand-worked cases of
// each rule.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/nardy/game.h"
#include "rules/nardy/notation.h"
#include "rules/nardy/reference_rules.h"
#include "tests/conformance.h"
#include "tests/nardy_positions.h"

namespace {

using nardy::Game;
using nardy::Position;
namespace reference = nardy::reference;

// The positions the engine's plays lead to, as FEN.
std::set<std::string> engine_results(const Game& g, const Position& p) {
  nardy::MoveList plays;
  g.generate(p, plays);
  std::set<std::string> out;
  for (const nardy::Move& m : plays) {
    Position q = p;
    g.make(q, m);
    out.insert(nardy::to_fen(g, q));
  }
  CHECK(out.size() == std::size_t(plays.size()));  // distinct plays, distinct results
  return out;
}

// What the compared positions held, so that a test can require that each rule was exercised.
struct Seen {
  int plays = 0, passes = 0, bear_offs = 0, royal_hits = 0, entries = 0;
};

// For every roll: the same results as the brute force.
void compare_all_rolls(const Game& g, Position p, Seen& seen) {
  for (const nardy::WeightedRoll& w : nardy::all_rolls()) {
    p.dice = w.roll;
    nardy::MoveList list;
    g.generate(p, list);
    for (const nardy::Move& m : list) {
      seen.passes += m.count == 0;
      for (int i = 0; i < m.count; ++i) {
        seen.bear_offs += m.steps[i].to == nardy::kToOff;
        seen.entries += m.steps[i].from == nardy::kFromBar;
      }
      Position q = p;
      g.make(q, m);
      seen.royal_hits += q.eaten != p.eaten;
    }
    const std::string fen = nardy::to_fen(g, p);
    INFO(fen);
    const auto mine = engine_results(g, p);
    const auto theirs = reference::play_results(reference::from_fen(fen));
    CHECK(mine == theirs);
    seen.plays += int(mine.size());
  }
}

Position position(const std::string& fen) {
  return nardy::parse_fen(fen).position;
}

// A position of a 12-point board.
Position position12(const std::string& fen) {
  const auto s = nardy::parse_fen(fen);
  REQUIRE(s.game.points() == 12);
  return s.position;
}

// The names of p's plays.
std::set<std::string> play_names(const Game& g, const Position& p) {
  nardy::MoveList plays;
  g.generate(p, plays);
  std::set<std::string> out;
  for (const nardy::Move& m : plays) out.insert(nardy::move_name(m));
  return out;
}

}  // namespace

TEST_CASE("nardy: the start, and its plays for each of the 21 rolls, as the brute force's",
          "[nardy]") {
  const auto s = nardy::parse_fen(nardy::start_fen());
  CHECK(nardy::to_fen(s.game, s.position) == nardy::start_fen());
  CHECK(reference::to_fen(reference::from_fen(nardy::start_fen())) == nardy::start_fen());
  for (nardy::Side side : {nardy::kWhite, nardy::kBlack}) {
    CHECK(s.position.in_play(side, 24) == 15);
    int royal = 0;
    for (int q = 1; q <= 24; ++q) royal += s.position.royal[side][q - 1];
    CHECK(royal == 7);
    CHECK(s.position.royal[side][23] == 2);
    CHECK(s.position.royal[side][12] == 5);
    CHECK(s.position.plain[side][7] == 3);
    CHECK(s.position.plain[side][5] == 5);
  }
  CHECK(s.game.is_chance(s.position));
  Seen seen;
  compare_all_rolls(s.game, s.position, seen);
  CHECK(seen.plays > 21);
}

TEST_CASE("nardy: plays of random games and random set-ups are the brute force's", "[nardy]") {
  std::mt19937_64 rng(18);
  const Game g;
  int positions = 0;
  Seen seen;
  for (const Position& p : test_support::nardy_random_games(g, 16, 150, rng)) {
    if (positions++ % 3) continue;  // every third position, all its rolls
    compare_all_rolls(g, p, seen);
  }
  for (int points : {24, 18, 12}) {
    const Game short_board(points);
    for (int k = 0; k < 150; ++k) {
      const Position p = test_support::nardy_random_setup(short_board, rng);
      const std::string fen = nardy::to_fen(short_board, p);
      INFO(fen);
      REQUIRE(nardy::to_fen(short_board, position(fen)) == fen);  // the parser accepts it
      const auto b = reference::from_fen(fen);
      CHECK(short_board.is_terminal(p) == reference::terminal(b));
      if (short_board.is_terminal(p)) {
        CHECK(short_board.terminal_value(p)[nardy::kWhite] == reference::white_score(b));
        continue;
      }
      compare_all_rolls(short_board, p, seen);
    }
  }
  CHECK(positions > 500);
  CHECK(seen.passes > 100);
  CHECK(seen.bear_offs > 1000);
  CHECK(seen.royal_hits > 100);
  CHECK(seen.entries > 1000);
}

TEST_CASE("nardy: every play's name parses back to it, and FEN and keys round-trip", "[nardy]") {
  std::mt19937_64 rng(7);
  const Game g12(12);
  for (int k = 0; k < 200; ++k) {
    Position p = test_support::nardy_random_setup(g12, rng);
    const auto key = g12.raw_key(p);
    CHECK(g12.from_key(key) == p);
    CHECK(g12.canonical_key(p) == g12.canonical_key(Game::swapped(p)));
    if (g12.is_terminal(p)) continue;
    p.dice = nardy::all_rolls()[k % nardy::kDistinctRolls].roll;
    CHECK(g12.from_key(g12.raw_key(p)) == p);
    CHECK(nardy::to_fen(g12, position(nardy::to_fen(g12, p))) == nardy::to_fen(g12, p));
    nardy::MoveList plays;
    g12.generate(p, plays);
    for (const nardy::Move& m : plays) {
      const nardy::Move back = nardy::parse_move(g12, p, nardy::move_name(m));
      Position a = p, b = p;
      g12.make(a, m);
      g12.make(b, back);
      CHECK(a == b);
    }
  }
  const Game g;
  for (const char* roll : {"6-5", "5-6", "1-1"})
    CHECK(nardy::roll_text(nardy::parse_roll(roll)) == (roll[0] == '5' ? "6-5" : roll));
}

TEST_CASE("nardy: every position of random games, ends included, prints and parses back",
          "[nardy][notation][round-trip]") {
  std::mt19937_64 rng(42);
  const auto round_trips = [&](const Game& g, const Position& start, int games) {
    return conformance::check_round_trips(
        g, start, games, 2000, rng, [&](const Position& p) { return nardy::to_fen(g, p); },
        [&](const std::string& fen) {
          const auto s = nardy::parse_fen(fen);
          CHECK(s.game.points() == g.points());
          return s.position;
        });
  };
  const Game g;
  const auto from_start = round_trips(g, position(nardy::start_fen()), 20);
  CHECK(from_start.ends > 10);
  // Shortened boards from random set-ups, where games end within a few rolls, often by eating.
  int ends = 0;
  for (int points : {12, 18}) {
    const Game short_board(points);
    for (int k = 0; k < 100; ++k)
      ends += round_trips(short_board, test_support::nardy_random_setup(short_board, rng), 1).ends;
  }
  CHECK(ends > 50);
}

// The review's position (issue 42): White's last checker eaten by Black's 2-2, White to move. The
// game is over (ROYAL-NARDY.md's decision: a side whose last checkers are eaten has finished);
// the text parses, and the points are rule 6's: White finished with more royal checkers (6
// against Black's 4), and Black has borne off some (oin, 1), so White scores 1 x 2 x (6 - 4) = 4.
TEST_CASE("nardy: a side whose last checker was eaten is to move at the game's end",
          "[nardy][notation]") {
  const auto s =
      nardy::parse_fen("p/./R/././././././././././././././././././././. 0/0 14/11 0/3 b -");
  Position p = s.position;
  p.dice = nardy::parse_roll("2-2");
  const nardy::Move m = nardy::parse_move(s.game, p, "24/22* 22/20 20/18 18/16");
  s.game.make(p, m);
  const std::string fen = nardy::to_fen(s.game, p);
  CHECK(fen == "././././././././p/././././././././././././././. 0/0 14/11 1/3 w -");
  const Position back = position(fen);
  CHECK(back == p);
  CHECK(s.game.is_terminal(back));
  CHECK(!s.game.is_chance(back));
  const auto points = s.game.terminal_value(back);
  CHECK(points[nardy::kWhite] == 4);
  CHECK(points[nardy::kBlack] == -4);
  CHECK(nardy::end_text(s.game, back) == "the game is over: White 4, Black -4");
  CHECK(nardy::board_diagram(s.game, back).ends_with("the game is over: White 4, Black -4\n"));
  // A side that bore off its last checker itself, with none eaten, cannot be the one to move.
  CHECK_THROWS_WITH(position("./././././././././././././././././././././././2p 0/0 15/13 0/0 w -"),
                    Catch::Contains("borne off all its checkers and lost no royal one"));
}

TEST_CASE("nardy: bad text is refused with a one-line message", "[nardy]") {
  const std::string ok = "2r/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R";
  conformance::check_refused<nardy::ParseError>(
      {
          std::string(""),
          ok + " 0/0 0/0 0/0 w",      // 5 fields
          "./././. 0/0 0/0 0/0 w -",  // 4 points
          ok + " 0/0 0/0 0/0 x -",    // side
          ok + " 0/0 0/0 0/0 w 7-1",  // die
          ok + " 0/0 0/0 0/0 w 61",   // roll form
          ok + " 1/0 0/0 0/0 w -",    // 9 plain
          ok + " 0/0 0/0 1/0 w -",    // 7 royal + 1 eaten
          ok + " 0/0 1/0 0/0 w -",    // 16 checkers
          ok + " 0 0/0 0/0 w -",      // bar form
          "2rP/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R 0/0 0/0 0/0 w -",
          "RP/./././././././././././. 0/0 0/0 0/0 w -",  // royal before plain
          "2x/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R 0/0 0/0 0/0 w -",
          "P/././././././././././. 0/0 0/0 0/0 b -",    // black has finished
          "P/././././././././././. 0/0 0/0 0/0 w 6-5",  // over: no dice
      },
      [](const std::string& fen) { return nardy::parse_fen(fen); }, "FEN: ");
  const auto s = nardy::parse_fen(ok + " 0/0 0/0 0/0 w 6-5");
  conformance::check_refused<nardy::ParseError>(
      {"", "24/18", "24/18 13/8 8/7", "13/7 13/8", "R24/18 13/7x", "bar/20", "8/off 13/8",
       "1/7 24/18", "R8/2 R13/8"},
      [&](const std::string& play) { return nardy::parse_move(s.game, s.position, play); });
  CHECK_NOTHROW(nardy::parse_move(s.game, s.position, "R24/18 8/3"));
  CHECK_NOTHROW(nardy::parse_move(s.game, s.position, "8/2 8/3"));
  CHECK_THROWS_AS(nardy::Game(11), nardy::ParseError);
  // Random text from the notation's own alphabet, near the start's: it parses and round-trips, or
  // is refused with a ParseError, never anything else.
  std::mt19937_64 rng(3);
  const std::string alphabet = "./PRpr0123456789 -wb";
  const std::string start = nardy::start_fen();
  // A text that parses is compared as its printed form: FEN -> position -> FEN again.
  const auto printed = [](const std::string& fen) {
    const auto p = nardy::parse_fen(fen);
    return nardy::to_fen(p.game, p.position);
  };
  const auto seen = conformance::check_mangled<nardy::ParseError>(
      3000,
      [&] {
        std::string text = start;
        for (int edits = 1 + int(rng() % 3); edits > 0; --edits)
          text[rng() % text.size()] = alphabet[rng() % alphabet.size()];
        return text;
      },
      printed, [](const std::string& fen) { return fen; });
  CHECK(seen.accepted > 0);
}

TEST_CASE("nardy: each rule on a hand-made position", "[nardy]") {
  // Royal checkers never land on their own checkers: from the start with 6-5, no royal goes to
  // White's 8 (plain checkers) or back onto the royal stack at 13; the 24s may go to 18, whose
  // next 5 would reach 13 (own) and so is refused; 19 is Black's closed point.
  {
    const Game g;
    const Position p =
        position("2r/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R 0/0 0/0 0/0 w 6-5");
    const auto names = play_names(g, p);
    CHECK(names.count("R13/7 R7/2") == 1);
    CHECK(names.count("8/2 8/3") == 1);
    CHECK(names.count("8/2 6/1") == 0);  // Black's two royal checkers close White's 1
    CHECK(names.count("R24/18 R13/8") == 0);
    CHECK(names.count("R24/18 R18/13") == 0);
    CHECK(names.count("R24/18 R24/19") == 0);
    // A play is its resulting position: steps through 8 name the same play as through 7.
    CHECK(nardy::parse_move(g, p, "R13/8 R8/2") == nardy::parse_move(g, p, "R13/7 R7/2"));
    CHECK_THROWS_AS(nardy::parse_move(g, p, "R13/8 R13/7"), nardy::ParseError);
    CHECK_NOTHROW(nardy::parse_move(g, p, "R24/18 8/3"));
  }
  // A royal blot hit is eaten, a plain one goes to the bar: White's lone checker on its 12 with
  // 5-4 hits Black's royal on White's 7 or Black's plain on White's 8, then goes on to 3.
  const Game g12(12);  // the positions below are of 12-point boards
  {
    const Position p = position12("././././././r/p/./././P 0/1 0/0 0/0 w 5-4");
    CHECK(play_names(g12, p) == std::set<std::string>{"12/7* 7/3", "12/8* 8/3"});
    Position eat = p, bar = p;
    g12.make(eat, nardy::parse_move(g12, p, "12/7 7/3"));
    g12.make(bar, nardy::parse_move(g12, p, "12/8* 8/3"));
    CHECK(nardy::to_fen(g12, eat) == "././P/././././p/./././. 0/1 0/0 0/1 b -");
    CHECK(nardy::to_fen(g12, bar) == "././P/./././r/././././. 0/2 0/0 0/0 b -");
    // Black must bring both from the bar first (its entry points are White's 1..6).
    Position q = bar;
    q.dice = nardy::parse_roll("4-3");
    CHECK(play_names(g12, q) == std::set<std::string>{"bar/9 bar/10*"});
  }
  // Bearing off: the larger die takes the farthest checker; a royal checker cannot step onto its
  // own, so with 2-2 White's royal 3 and plain 1 cannot move at all, and the play is a pass.
  {
    const Position p = position12("./././P/./P/./././././2p 0/0 13/0 0/0 w 6-1");
    CHECK(play_names(g12, p) == std::set<std::string>{"6/off 4/3", "6/5 5/off"});
    const Position stuck = position12("P/./R/./././././././2p/. 0/0 13/0 0/0 w 2-2");
    CHECK(play_names(g12, stuck) == std::set<std::string>{"pass"});
    CHECK_FALSE(g12.is_terminal(stuck));  // Black can still move
  }
  // Maximum use of the dice: with 6-3 White's checker on 10 can play one die only (Black holds
  // White's 1), and must play the 6.
  {
    const Position p = position12("2p/././././././././P/./. 0/0 0/0 0/0 w 6-3");
    CHECK(play_names(g12, p) == std::set<std::string>{"10/4"});
    const Position both = position12("././././././././././P/2p 0/0 0/0 0/0 w 6-3");
    CHECK(play_names(g12, both) == std::set<std::string>{"11/5 5/2"});
  }
}

namespace {

// A 24-point FEN: the given White points hold the given tokens, the rest are empty.
std::string board24(const std::map<int, std::string>& tokens, const std::string& rest) {
  std::string t;
  for (int q = 1; q <= 24; ++q) {
    if (q > 1) t += '/';
    t += tokens.count(q) ? tokens.at(q) : ".";
  }
  return t + " " + rest;
}

}  // namespace

TEST_CASE("nardy: the score: oin, mars, home mars, koks, shekh, royal multipliers, locked",
          "[nardy]") {
  const auto white_points = [](const std::string& fen) {
    INFO(fen);
    const auto s = nardy::parse_fen(fen);
    REQUIRE(s.game.is_terminal(s.position));
    const int v = s.game.terminal_value(s.position)[nardy::kWhite];
    CHECK(s.game.terminal_value(s.position)[nardy::kBlack] == -v);
    CHECK(reference::white_score(reference::from_fen(fen)) == v);
    return v;
  };
  // White has borne off everything; Black's last checkers are where each case says (White's
  // numbering: 19..24 is Black's home, 1..6 White's).
  CHECK(white_points(board24({{24, "2p"}}, "0/0 15/13 0/0 b -")) == 1);           // oin
  CHECK(white_points(board24({{12, "p"}}, "0/0 15/0 0/0 b -")) == 2);             // mars
  CHECK(white_points(board24({{20, "p"}, {24, "r"}}, "0/0 15/0 0/0 b -")) == 3);  // home mars
  CHECK(white_points(board24({{3, "p"}, {20, "p"}}, "0/0 15/0 0/0 b -")) == 3);   // koks
  CHECK(white_points(board24({{12, "p"}}, "0/1 15/0 0/0 b -")) == 4);             // shekh
  CHECK(white_points(board24({{3, "p"}}, "0/1 15/0 0/0 b -")) == 4);              // both: 4
  // The seed's example: 5 royal against 2 and a mars, 2 x 6 = 12; had Black finished first, 3.
  CHECK(white_points(board24({{12, "p"}}, "0/0 10/0 2/5 b -")) == 12);
  CHECK(white_points(board24({{12, "P"}}, "0/0 0/10 2/5 w -")) == 3);
  // More royal checkers win even when the other side finishes first: the difference.
  CHECK(white_points(board24({{12, "p"}}, "0/0 10/0 5/2 b -")) == -3);
  CHECK(white_points(board24({{24, "p"}}, "0/0 10/10 3/3 b -")) == 1);  // equal: oin
  // Locked (a 12-point board): both sides on the bar, both homes closed; White keeps 7 royal,
  // Black 5: White scores the difference; with equal royal counts, a draw.
  CHECK(white_points("2P/2P/2P/PR/2R/2R/2r/2r/pr/2p/2p/2p 1/1 0/0 0/2 w -") == 2);
  CHECK(white_points("2P/2P/2P/PR/2R/2R/2r/2r/pr/2p/2p/2p 1/1 0/0 2/2 b -") == 0);
  // A side whose last checkers are eaten has finished at that moment (ROYAL-NARDY.md's
  // decision). On a 12-point board White's 6-6 enters, eats Black's last checker, a royal one, and
  // bears off: nothing is left in play on either side, and Black, to move, finished first. White,
  // with 7 royal checkers against 5, scores the difference (rule 7), whichever side it is: the
  // colours swapped give the opposite.
  const Game g12(12);
  Position p = position12("././././././r/././././. 1/0 14/13 0/1 w 6-6");
  REQUIRE(play_names(g12, p) == std::set<std::string>{"bar/7* 7/1 1/off"});
  g12.make(p, nardy::parse_move(g12, p, "bar/7* 7/1 1/off"));
  CHECK(nardy::to_fen(g12, p) == "./././././././././././. 0/0 15/13 0/2 b -");
  CHECK(white_points("./././././././././././. 0/0 15/13 0/2 b -") == 2);
  CHECK(white_points("./././././././././././. 0/0 13/15 2/0 w -") == -2);
}
