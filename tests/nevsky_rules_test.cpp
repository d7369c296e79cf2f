// Nevsky checkers (shared/games/NEVSKY.md): the bitboard engine against the published perft
// vectors, against hand-made cases for each rule, and against the plain reference engine
// (rules/nevsky/reference_rules.h) on the starts of every variant and on random positions with
// kings, multi-captures and players leaving; hashed, parallel and plain perft; keys and the
// symmetries of four players.
#include <bit>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/nevsky/game.h"
#include "rules/nevsky/notation.h"
#include "rules/nevsky/reference_rules.h"
#include "rules/nevsky/variant.h"
#include "solver/distinct_positions.h"
#include "solver/game_concept.h"
#include "solver/hashed_perft.h"
#include "solver/parallel_perft.h"
#include "solver/perft.h"
#include "solver/turn_order.h"
#include "tests/conformance.h"
#include "tests/nevsky_positions.h"
#include "tests/test_support.h"

namespace {

using nevsky::Game;
using nevsky::Position;
namespace reference = nevsky::reference;
using nevsky_test::board;

static_assert(solver::PerftGame<Game> && solver::KeyedGame<Game> && solver::NamesPlayers<Game>);

Game game_of(const std::string& variant) {
  return Game(nevsky::parse_variant(variant));
}

conformance::Text<Game> text_of(const Game& g) {
  return {
      [&g](const Position& p) { return nevsky::to_fen(g, p); },
      [&g](const std::string& fen) { return nevsky::parse_fen(g, fen); },
      [&g](const Position& p, nevsky::Move m) { return nevsky::move_name(g, p, m); },
      [&g](const Position& p, const std::string& name) { return nevsky::parse_move(g, p, name); }};
}

std::set<std::string> move_names(const Game& g, const Position& p) {
  nevsky::MoveList list;
  g.generate(p, list);
  std::set<std::string> out;
  for (nevsky::Move m : list) out.insert(nevsky::move_name(g, p, m));
  return out;
}

std::set<std::string> reference_moves(const Game& g, const std::string& fen) {
  const auto moves = reference::legal_moves(reference::from_text(fen, g.variant().pairs));
  return {moves.begin(), moves.end()};
}

// The position after a move given as text, checked against the reference engine's.
std::string after(const Game& g, const std::string& fen, const std::string& move) {
  Position p = nevsky::parse_fen(g, fen);
  const Position before = p;
  const nevsky::Move m = nevsky::parse_move(g, p, move);
  const auto undo = g.make(p, m);
  const std::string text = nevsky::to_fen(g, p);
  CHECK(text == reference::to_text(reference::play(reference::from_text(fen, g.variant().pairs),
                                                   nevsky::move_name(g, before, m))));
  g.unmake(p, m, undo);
  CHECK(p == before);
  return text;
}

// Every variant there is: each grid, start group, king count and mode that check_variant accepts.
std::vector<nevsky::Variant> every_variant() {
  std::vector<nevsky::Variant> out;
  for (int n = nevsky::kMinSize; n <= nevsky::kMaxSize; ++n)
    for (int men : {1, 3, 6, 10})
      for (int kings = 0; kings <= 3; ++kings)
        for (bool pairs : {false, true}) {
          const nevsky::Variant v{n, men, kings, pairs};
          try {
            nevsky::check_variant(v);
            out.push_back(v);
          } catch (const nevsky::ParseError&) {
          }
        }
  return out;
}

reference::Board reference_start(const nevsky::Variant& v) {
  return reference::start(v.size, v.men, v.kings, v.pairs);
}

}  // namespace

TEST_CASE("nevsky: perft of the starts matches ../shared/vectors/nevsky-start-perft.txt",
          "[nevsky][vectors]") {
  int lines = 0;
  for (const std::string& line : test_support::vector_lines("nevsky-start-perft.txt")) {
    INFO(line);
    const auto bar = line.find('|'), bar2 = line.find('|', bar + 1);
    REQUIRE(bar2 != std::string::npos);
    const Game g = game_of(line.substr(0, bar));
    const int depth = std::stoi(line.substr(bar + 1, bar2 - bar - 1));
    const std::uint64_t nodes = std::stoull(line.substr(bar2 + 1));
    Position p = g.start();
    CHECK(solver::perft(g, p, depth) == nodes);
    CHECK(reference::perft(reference_start(g.variant()), depth) == nodes);
    ++lines;
  }
  CHECK(lines >= 10);
}

TEST_CASE("nevsky: the starts, as the rule book places them", "[nevsky]") {
  const Game g = game_of("nevsky");
  CHECK(nevsky::to_fen(g, g.start()) == "wwwrrr/ww2rr/w4r/b4g/bb2gg/bbbggg w");
  CHECK(nevsky::to_fen(game_of("nevsky:6x6:6+2"), game_of("nevsky:6x6:6+2").start()) ==
        "WWwrrR/ww2rR/w4r/b4g/Bb2gg/BbbgGG w");
  CHECK(nevsky::to_fen(game_of("nevsky:6x6:3+3"), game_of("nevsky:6x6:3+3").start()) ==
        "WW2RR/W4R/6/6/B4G/BB2GG w");
  CHECK(nevsky::to_fen(game_of("nevsky:3x3:1+1"), game_of("nevsky:3x3:1+1").start()) ==
        "W1R/3/B1G w");
  CHECK(
      nevsky::to_fen(game_of("nevsky:8x8:10+1:pairs"), game_of("nevsky:8x8:10+1:pairs").start()) ==
      "WwwwrrrR/www2rrr/ww4rr/w6r/b6g/bb4gg/bbb2ggg/BbbbgggG w");
  // Every variant's start equals the reference engine's, built from the rule book's text.
  const auto variants = every_variant();
  CHECK(variants.size() == 2 * (6 * 2 + 5 * 4 + 3 * 4 + 1 * 4));
  for (const nevsky::Variant& v : variants) {
    INFO(v.name());
    const Game game(v);
    CHECK(nevsky::to_fen(game, game.start()) == reference::to_text(reference_start(v)));
    CHECK(game.start().to_move == nevsky::kWhite);
    CHECK(game.players_left(game.start()) == nevsky::kEveryone);
    CHECK(nevsky::parse_variant(v.name()) == v);
  }
}

TEST_CASE("nevsky: perft of every variant's start agrees with the reference engine",
          "[nevsky][reference]") {
  for (const nevsky::Variant& v : every_variant()) {
    INFO(v.name());
    const Game g(v);
    // Deep enough for captures and kings to play a part, small enough for the reference engine.
    const int depth = v.size <= 4 ? 7 : v.men >= 6 ? 4 : 5;
    Position p = g.start();
    CHECK(solver::perft(g, p, depth) == reference::perft(reference_start(v), depth));
  }
}

TEST_CASE("nevsky: engine and reference agree on random games with kings, captures and leavers",
          "[nevsky][reference]") {
  std::mt19937 rng(20260431);
  struct Stats {
    int positions = 0, moves = 0, ends = 0, multi_captures = 0, three_players_taken = 0,
        king_captures = 0, crowned = 0, blocked_left = 0, captured_out = 0;
  } stats;
  for (const char* variant :
       {"nevsky", "nevsky:6x6:6+3", "nevsky:6x6:3+1", "nevsky:4x4:3+2", "nevsky:3x3:1+1",
        "nevsky:5x5:3", "nevsky:7x7:6+2", "nevsky:8x8:10+3", "nevsky:pairs", "nevsky:6x6:3+3:pairs",
        "nevsky:4x4:1+1:pairs", "nevsky:8x8:3+2:pairs"}) {
    const Game g = game_of(variant);
    for (const std::string& fen :
         nevsky_test::random_games(reference_start(g.variant()), 40, 400, rng)) {
      INFO(variant << " " << fen);
      Position p = nevsky::parse_fen(g, fen);
      REQUIRE(nevsky::to_fen(g, p) == fen);
      const auto expected = reference_moves(g, fen);
      const auto board = reference::from_text(fen, g.variant().pairs);
      stats.moves += conformance::check_moves(
          g, p, text_of(g), {expected.begin(), expected.end()},
          [&](const std::string& name, const Position& after) {
            CHECK(nevsky::to_fen(g, after) == reference::to_text(reference::play(board, name)));
          });
      stats.ends += g.is_terminal(p);
      ++stats.positions;
      // What each move did, for the coverage checks below.
      const Position before = p;
      nevsky::MoveList list;
      g.generate(p, list);
      for (nevsky::Move m : list) {
        const auto undo = g.make(p, m);
        std::set<int> owners;
        for (nevsky::Bitboard c = m.captured(); c;)
          owners.insert(before.piece_on(nevsky::pop_lsb(c))->player);
        stats.multi_captures += nevsky::popcount(m.captured()) >= 2;
        stats.three_players_taken += owners.size() == 3;
        stats.king_captures += m.is_capture() && before.piece_on(m.from())->king;
        stats.crowned += !before.piece_on(m.from())->king && p.piece_on(m.to())->king;
        for (nevsky::Player q : nevsky::kAllPlayers)
          if (before.checkers(q) && !p.checkers(q))
            ++((before.checkers(q) & ~m.captured()) ? stats.blocked_left : stats.captured_out);
        g.unmake(p, m, undo);
      }
    }
  }
  INFO("positions " << stats.positions << ", moves " << stats.moves << ", ends " << stats.ends
                    << ", multi-captures " << stats.multi_captures << ", three players' checkers "
                    << stats.three_players_taken << ", king captures " << stats.king_captures
                    << ", crowned " << stats.crowned << ", blocked and left " << stats.blocked_left
                    << ", captured out " << stats.captured_out);
  // The sample holds every rule at work, many times over.
  CHECK(stats.positions > 10000);
  CHECK(stats.ends > 50);
  CHECK(stats.multi_captures > 500);
  CHECK(stats.three_players_taken > 5);
  CHECK(stats.king_captures > 500);
  CHECK(stats.crowned > 20);
  CHECK(stats.blocked_left > 20);
  CHECK(stats.captured_out > 100);
}

TEST_CASE("nevsky: engine and reference agree on random placements and their perft",
          "[nevsky][reference]") {
  std::mt19937 rng(77);
  int perfts = 0;
  for (const char* variant : {"nevsky", "nevsky:pairs", "nevsky:4x4:3", "nevsky:5x5:3:pairs",
                              "nevsky:8x8:10", "nevsky:8x8:10:pairs", "nevsky:3x3:1"}) {
    const Game g = game_of(variant);
    for (int i = 0; i < 300; ++i) {
      const double fill = 0.2 + 0.7 * (i % 10) / 10.0;
      const std::string text = nevsky_test::random_placement(g.size(), g.variant().men, fill, rng);
      INFO(variant << " " << text);
      Position p = nevsky::parse_fen(g, text);
      const auto board = reference::from_text(text, g.variant().pairs);
      REQUIRE(nevsky::to_fen(g, p) == reference::to_text(board));
      const auto expected = reference_moves(g, nevsky::to_fen(g, p));
      conformance::check_moves(g, p, text_of(g), {expected.begin(), expected.end()});
      if (i % 10 == 0 && g.size() <= 6) {
        CHECK(solver::perft(g, p, 3) == reference::perft(board, 3));
        ++perfts;
      }
    }
  }
  CHECK(perfts > 100);
}

TEST_CASE("nevsky: a man passing through its goal corner mid-capture stays a man", "[nevsky]") {
  const Game g = game_of("nevsky");
  // White's man on 63 jumps Red's 62 onto its goal corner 61, then Black's 51 onto 41: a man.
  const std::string through = board(6, {{"14", 'g'}, {"63", 'w'}, {"62", 'r'}, {"51", 'b'}}, 'w');
  CHECK(move_names(g, nevsky::parse_fen(g, through)) == std::set<std::string>{"63:61:41"});
  CHECK(after(g, through, "63:61:41") == board(6, {{"14", 'g'}, {"41", 'w'}}, 'g'));
  // Stopping on the corner is no move: the capture goes on.
  CHECK_THROWS_WITH(nevsky::parse_move(g, nevsky::parse_fen(g, through), "63:61"),
                    Catch::Contains("must go on"));
  // Without Black's checker the capture ends on the corner: crowned.
  const std::string ends = board(6, {{"14", 'g'}, {"63", 'w'}, {"62", 'r'}}, 'w');
  CHECK(after(g, ends, "63:61") == board(6, {{"14", 'g'}, {"61", 'W'}}, 'g'));
  // A step onto the goal corner crowns too; the new king moves on the next turn.
  const std::string step = board(6, {{"66", 'r'}, {"62", 'w'}, {"11", 'b'}}, 'w');
  CHECK(move_names(g, nevsky::parse_fen(g, step)) == std::set<std::string>{"62-61"});
  CHECK(after(g, step, "62-61") == board(6, {{"66", 'r'}, {"61", 'W'}, {"11", 'b'}}, 'r'));
}

TEST_CASE("nevsky: a king takes the most checkers it can, landing where it likes after the last",
          "[nevsky]") {
  const Game g = game_of("nevsky");
  // White's king on 12 takes Red's 32 and Green's 44 (landing on 45 or 46); taking 32 alone
  // (landing on 52 or 62) is not allowed. The man on 15 may take Black's 14 instead: the player
  // chooses the piece, and a man has no longest-capture rule.
  const std::string two =
      board(6, {{"12", 'W'}, {"32", 'r'}, {"44", 'g'}, {"15", 'w'}, {"14", 'b'}}, 'w');
  CHECK(move_names(g, nevsky::parse_fen(g, two)) ==
        std::set<std::string>{"12:42:45", "12:42:46", "15:13"});
  CHECK_THROWS_WITH(nevsky::parse_move(g, nevsky::parse_fen(g, two), "12:52"),
                    Catch::Contains("most checkers"));
  CHECK(after(g, two, "12:42:46") == board(6, {{"46", 'W'}, {"15", 'w'}, {"14", 'b'}}, 'b'));
  // The maximum is each king's own: the king on 36 takes one (Black's 26), the one on 11 two.
  const std::string kings =
      board(6, {{"11", 'W'}, {"31", 'r'}, {"43", 'g'}, {"36", 'W'}, {"26", 'b'}}, 'w');
  CHECK(move_names(g, nevsky::parse_fen(g, kings)) ==
        std::set<std::string>{"11:41:44", "11:41:45", "11:41:46", "36:16"});
  // A king's route may cross its start cell, empty during the move: 33 takes 32 and 35 either way.
  const std::string cross =
      board(6, {{"33", 'W'}, {"32", 'r'}, {"35", 'g'}, {"66", 'r'}, {"11", 'b'}}, 'w');
  CHECK(move_names(g, nevsky::parse_fen(g, cross)) ==
        std::set<std::string>{"33:31:36", "33:36:31"});
}

TEST_CASE("nevsky: one capture takes checkers of all three opponents", "[nevsky]") {
  const Game g = game_of("nevsky");
  const std::string three = board(
      6,
      {{"22", 'w'}, {"32", 'r'}, {"43", 'g'}, {"34", 'b'}, {"66", 'r'}, {"61", 'g'}, {"11", 'b'}},
      'w');
  CHECK(move_names(g, nevsky::parse_fen(g, three)) == std::set<std::string>{"22:42:44:24"});
  CHECK(after(g, three, "22:42:44:24") ==
        board(6, {{"24", 'w'}, {"66", 'r'}, {"61", 'g'}, {"11", 'b'}}, 'r'));
  // Capturing is compulsory, backwards too: White's man on 33 must take Red's 34 (behind it).
  const std::string back = board(6, {{"33", 'w'}, {"34", 'r'}, {"11", 'b'}}, 'w');
  CHECK(move_names(g, nevsky::parse_fen(g, back)) == std::set<std::string>{"33:35"});
  CHECK_THROWS_WITH(nevsky::parse_move(g, nevsky::parse_fen(g, back), "33-43"),
                    Catch::Contains("compulsory"));
}

TEST_CASE("nevsky: routes with the same start, end and captured set are one move", "[nevsky]") {
  const Game g = game_of("nevsky");
  // White's man on 22 goes round 32, 43, 34, 23 either way and ends on its start cell.
  const std::string round = board(6,
                                  {{"22", 'w'},
                                   {"32", 'r'},
                                   {"43", 'g'},
                                   {"34", 'b'},
                                   {"23", 'r'},
                                   {"66", 'r'},
                                   {"61", 'g'},
                                   {"11", 'b'}},
                                  'w');
  Position p = nevsky::parse_fen(g, round);
  CHECK(move_names(g, p) == std::set<std::string>{"22:24:44:42:22"});
  CHECK(g.count_moves(p) == 1);
  CHECK(solver::perft(g, p, 1) == 1);
  // Either route names the move; the least is printed.
  const nevsky::Move m = nevsky::parse_move(g, p, "22:42:44:24:22");
  CHECK(m == nevsky::parse_move(g, p, "22:24:44:42:22"));
  CHECK(nevsky::move_name(g, p, m) == "22:24:44:42:22");
  CHECK(after(g, round, "22:42:44:24:22") ==
        board(6, {{"22", 'w'}, {"66", 'r'}, {"61", 'g'}, {"11", 'b'}}, 'r'));
}

TEST_CASE("nevsky: a blocked player leaves, its checkers taken off", "[nevsky]") {
  const Game g = game_of("nevsky");
  // Red's one man on 66 cannot move: White's 56 (46 behind it) and Green's 65 (64 behind it).
  const std::string blocked = board(
      6,
      {{"11", 'w'}, {"56", 'w'}, {"46", 'w'}, {"66", 'r'}, {"65", 'g'}, {"64", 'g'}, {"13", 'b'}},
      'w');
  Position p = nevsky::parse_fen(g, blocked);
  CHECK(move_names(g, p) == std::set<std::string>{"11-21", "56-55", "46-45"});
  // After 11-21 Red's turn comes, it cannot move, and it leaves: Green is to move, one ply later.
  const std::string left =
      board(6, {{"21", 'w'}, {"56", 'w'}, {"46", 'w'}, {"65", 'g'}, {"64", 'g'}, {"13", 'b'}}, 'g');
  CHECK(after(g, blocked, "11-21") == left);
  const Position q = nevsky::parse_fen(g, left);
  CHECK(g.players_left(q) == (nevsky::kEveryone & ~nevsky::player_bit(nevsky::kRed)));
  // A text naming the blocked player is read as its turn coming: it leaves on reading.
  const std::string named_red = board(
      6,
      {{"11", 'w'}, {"56", 'w'}, {"46", 'w'}, {"66", 'r'}, {"65", 'g'}, {"64", 'g'}, {"13", 'b'}},
      'r');
  CHECK(nevsky::to_fen(g, nevsky::parse_fen(g, named_red)) ==
        board(6, {{"11", 'w'}, {"56", 'w'}, {"46", 'w'}, {"65", 'g'}, {"64", 'g'}, {"13", 'b'}},
              'g'));
  // A text naming a player without checkers passes the turn on.
  CHECK(nevsky::parse_fen(g, board(6, {{"22", 'w'}, {"55", 'g'}}, 'r')).to_move == nevsky::kGreen);
}

TEST_CASE("nevsky: pair play: partners are never taken, and the pair whose opponents are out wins",
          "[nevsky]") {
  const Game free_for_all = game_of("nevsky"), pairs = game_of("nevsky:pairs");
  // White's man on 22 next to Green's 32: taken in free-for-all, a blocker in pair play.
  const std::string next_to_green =
      board(6, {{"22", 'w'}, {"32", 'g'}, {"55", 'r'}, {"11", 'b'}}, 'w');
  CHECK(move_names(free_for_all, nevsky::parse_fen(free_for_all, next_to_green)) ==
        std::set<std::string>{"22:42"});
  CHECK(move_names(pairs, nevsky::parse_fen(pairs, next_to_green)) ==
        std::set<std::string>{"22-21"});
  // A king never flies over its partner either; in free-for-all it takes Green's 32, Red's 52
  // and Black's 65, one checker of each opponent.
  const std::string king = board(6, {{"12", 'W'}, {"32", 'g'}, {"52", 'r'}, {"65", 'b'}}, 'w');
  CHECK(move_names(pairs, nevsky::parse_fen(pairs, king)).count("12:42") == 0);
  CHECK(move_names(pairs, nevsky::parse_fen(pairs, king)).count("12-22"));
  CHECK(move_names(free_for_all, nevsky::parse_fen(free_for_all, king)) ==
        std::set<std::string>{"12:42:62:66"});

  // White takes Red's last checker, Black has none: White and Green have won.
  const std::string last = board(6, {{"22", 'w'}, {"32", 'r'}, {"55", 'g'}}, 'w');
  const std::string won = after(pairs, last, "22:42");
  CHECK(won == board(6, {{"42", 'w'}, {"55", 'g'}}, 'g'));  // the turn was passing to Red
  const Position p = nevsky::parse_fen(pairs, won);
  CHECK(pairs.is_terminal(p));
  CHECK(pairs.count_moves(p) == 0);
  CHECK(move_names(pairs, p).empty());
  const nevsky::PlayerSet left = pairs.players_left(p);
  CHECK(left == (nevsky::player_bit(nevsky::kWhite) | nevsky::player_bit(nevsky::kGreen)));
  using nevsky::Result;
  CHECK(Game::coalition_result(left, nevsky::kWhiteGreen) == Result::win);
  CHECK(Game::coalition_result(left, nevsky::kRedBlack) == Result::loss);
  CHECK(Game::coalition_result(left, nevsky::player_bit(nevsky::kWhite)) == Result::draw);
  CHECK(Game::coalition_result(left, nevsky::player_bit(nevsky::kWhite) |
                                         nevsky::player_bit(nevsky::kRed)) == Result::draw);
  // The same capture in free-for-all leaves White and Green playing on.
  CHECK(after(free_for_all, last, "22:42") == board(6, {{"42", 'w'}, {"55", 'g'}}, 'g'));
  CHECK(!free_for_all.is_terminal(nevsky::parse_fen(free_for_all, won)));
}

TEST_CASE("nevsky: the last player with checkers wins, and a finished text names it", "[nevsky]") {
  const Game g = game_of("nevsky");
  const std::string won = after(g, board(6, {{"22", 'w'}, {"32", 'r'}}, 'w'), "22:42");
  CHECK(won == board(6, {{"42", 'w'}}, 'w'));
  const Position p = nevsky::parse_fen(g, won);
  CHECK(g.is_terminal(p));
  CHECK(g.count_moves(p) == 0);
  CHECK(g.player_to_move(p) == nevsky::kWhite);
  CHECK(g.players_left(p) == nevsky::player_bit(nevsky::kWhite));
  CHECK(Game::coalition_result(g.players_left(p), nevsky::player_bit(nevsky::kWhite)) ==
        nevsky::Result::win);
  CHECK(Game::coalition_result(g.players_left(p), nevsky::kEveryone ^ 1) == nevsky::Result::loss);
  // Whoever the text names, the finished position names the one player left.
  for (char named : {'w', 'r', 'g', 'b'})
    CHECK(nevsky::to_fen(g, nevsky::parse_fen(g, board(6, {{"42", 'w'}}, named))) == won);
  CHECK_THROWS_WITH(nevsky::parse_move(g, p, "42-52"), Catch::Contains("game is over"));
  // The last opponent blocked: Red's man on 66 cannot move after 11-21, so Red leaves and White
  // is left alone.
  const std::string stuck =
      board(6, {{"66", 'r'}, {"56", 'w'}, {"46", 'w'}, {"65", 'w'}, {"64", 'w'}, {"11", 'w'}}, 'w');
  const std::string alone =
      board(6, {{"56", 'w'}, {"46", 'w'}, {"65", 'w'}, {"64", 'w'}, {"21", 'w'}}, 'w');
  CHECK(after(g, stuck, "11-21") == alone);
  CHECK(g.is_terminal(nevsky::parse_fen(g, alone)));
}

TEST_CASE("nevsky: hashed, parallel and plain perft agree", "[nevsky][perft][parallel]") {
  for (const char* variant : {"nevsky", "nevsky:6x6:6+2", "nevsky:4x4:3:pairs", "nevsky:5x5:1+1"}) {
    INFO(variant);
    const Game g = game_of(variant);
    REQUIRE(g.keys_fit());
    Position p = g.start(), q = g.start();
    const int depth = 6;
    const std::uint64_t plain = solver::perft(g, p, depth);
    solver::PerftTable<nevsky::Key> table(1 << 20);
    CHECK(solver::hashed_perft(g, q, depth, table) == plain);
    solver::Progress quiet("", 0, "", false);
    const auto divide = solver::parallel_divide(
        g, g.start(), depth, 2, quiet,
        [&](Position& x, int d) { return solver::hashed_perft(g, x, d, table); });
    CHECK(solver::checked_u64(divide.total()) == plain);
  }
}

TEST_CASE("nevsky: distinct positions by ply match a plain breadth-first search",
          "[nevsky][keys]") {
  const Game g = game_of("nevsky:4x4:3+1");
  const int plies = 8;
  const auto raw = solver::count_distinct_positions(
      g, g.start(), plies, 1ull << 30, 1, false, [&](const Position& p) { return g.raw_key(p); });
  const auto symmetric =
      solver::count_distinct_positions(g, g.start(), plies, 1ull << 30, 1, false,
                                       [&](const Position& p) { return g.symmetric_key(p); });
  // The symmetric count by hand: a position's class is the least text of its images (quarter
  // turns, and reflections where at most two players are left).
  const auto class_of = [](const reference::Board& b) {
    int left = 0;
    for (int q = 0; q < 4; ++q) left += reference::holds_checkers(b, q);
    std::string least;
    for (bool reflect : {false, true})
      for (int turns = 0; turns < 4 && (!reflect || left <= 2); ++turns) {
        const std::string text = reference::to_text(nevsky_test::image(b, turns, reflect).first);
        if (least.empty() || text < least) least = text;
      }
    return least;
  };
  std::set<std::string> level{reference::to_text(reference_start(g.variant()))};
  for (int ply = 1; ply <= plies; ++ply) {
    std::set<std::string> next, classes;
    for (const std::string& text : level) {
      const auto b = reference::from_text(text, false);
      for (const auto& m : reference::legal_moves(b)) {
        const auto child = reference::play(b, m);
        next.insert(reference::to_text(child));
        classes.insert(class_of(child));
      }
    }
    level.swap(next);
    INFO("ply " << ply);
    CHECK(raw.per_ply[std::size_t(ply)] == level.size());
    CHECK(symmetric.per_ply[std::size_t(ply)] == classes.size());
  }
}

TEST_CASE("nevsky: keys are exact, canonical keys equal across the symmetries' images",
          "[nevsky][keys]") {
  std::mt19937 rng(4);
  int reflected = 0, positions = 0;
  for (const char* variant : {"nevsky", "nevsky:6x6:3+3:pairs", "nevsky:4x4:3+1", "nevsky:7x7:6",
                              "nevsky:8x8:3+2", "nevsky:3x3:1+1"}) {
    const Game g = game_of(variant);
    REQUIRE(g.keys_fit());
    for (const std::string& fen :
         nevsky_test::random_games(reference_start(g.variant()), 6, 300, rng)) {
      INFO(variant << " " << fen);
      Position p = nevsky::parse_fen(g, fen);
      CHECK(g.from_key(g.raw_key(p)) == p);
      ++positions;
      const auto board = reference::from_text(fen, g.variant().pairs);
      const bool two_or_fewer = std::popcount(unsigned(g.players_left(p))) <= 2;
      const nevsky::CanonicalForm form = g.canonical_form(p);
      const std::uint64_t nodes = solver::perft(g, p, 2);
      bool representative_found = false;
      for (bool reflect : {false, true}) {
        for (int turns = 0; turns < 4; ++turns) {
          const auto [image, symmetry] = nevsky_test::image(board, turns, reflect);
          INFO("turns " << turns << (reflect ? ", reflected: " : ": ")
                        << reference::to_text(image));
          Position q = nevsky::parse_fen(g, reference::to_text(image));
          CHECK(nevsky::to_fen(g, q) == reference::to_text(image));
          if (!reflect || two_or_fewer) {
            CHECK(g.canonical_key(q) == form.key);
            CHECK(g.symmetric_key(q) == form.key);
            CHECK(solver::perft(g, q, 2) == nodes);
            reflected += reflect;
          }
          // The canonical key is the raw key of one image, and its renaming is that image's.
          if (g.raw_key(q) == form.key) {
            bool same = true;
            for (int i = 0; i < 4; ++i)
              same &= int(form.renamed[std::size_t(i)]) == symmetry.renamed[std::size_t(i)];
            representative_found |= same;
          }
        }
      }
      CHECK(representative_found);
      const Position rep = g.from_key(form.key);
      CHECK(rep.to_move == nevsky::kWhite);
      CHECK(g.players_left(rep) == form.rename(g.players_left(p)));
    }
  }
  CHECK(positions > 500);
  CHECK(reflected > 100);
  // Three players left: a reflection reverses the order of play, so it is not a symmetry; the
  // images' keys differ where their games do.
  const Game g = game_of("nevsky");
  const std::string three = board(6, {{"22", 'w'}, {"55", 'r'}, {"54", 'g'}}, 'w');
  const auto [mirror, unused] = nevsky_test::image(reference::from_text(three, false), 0, true);
  CHECK(g.canonical_key(nevsky::parse_fen(g, three)) !=
        g.canonical_key(nevsky::parse_fen(g, reference::to_text(mirror))));
  // Keys differ with the player to move and with a king for a man.
  std::set<nevsky::Key> keys;
  for (const std::string& fen :
       {board(6, {{"22", 'w'}, {"55", 'r'}}, 'w'), board(6, {{"22", 'w'}, {"55", 'r'}}, 'r'),
        board(6, {{"22", 'W'}, {"55", 'r'}}, 'w'), board(6, {{"22", 'w'}, {"55", 'R'}}, 'w'),
        board(6, {{"22", 'w'}, {"55", 'g'}}, 'w')})
    keys.insert(g.raw_key(nevsky::parse_fen(g, fen)));
  CHECK(keys.size() == 5);
}

TEST_CASE("nevsky: keys fit exactly where key.h says", "[nevsky][keys]") {
  CHECK(game_of("nevsky").key_bits() == 110);
  CHECK(game_of("nevsky").keys_fit());
  CHECK(game_of("nevsky:8x8:1").keys_fit());
  CHECK(game_of("nevsky:8x8:3+3:pairs").keys_fit());
  CHECK(game_of("nevsky:7x7:6").keys_fit());
  CHECK(!game_of("nevsky:8x8:6").keys_fit());
  CHECK(!game_of("nevsky:8x8:10").keys_fit());
}
