// Teeko (shared/games/TEEKO.md): the bitboard engine against the plain mailbox engine
// (rules/teeko/reference_rules.h) on random positions of every board and both pattern sets, and
// in perft; moves and results worked out by hand from the rules; keys and the board's
// symmetries; every malformed FEN, move and variant refused.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/teeko/game.h"
#include "rules/teeko/notation.h"
#include "rules/teeko/reference_rules.h"
#include "rules/teeko/variant.h"
#include "solver/game_concept.h"
#include "solver/perft.h"
#include "tests/conformance.h"
#include "tests/test_support.h"

namespace {

using teeko::Game;
using teeko::Position;
namespace reference = teeko::reference;

static_assert(solver::PerftGame<Game> && solver::KeyedGame<Game>);

Game game_of(const char* variant) {
  return Game(teeko::parse_variant(variant));
}

conformance::Text<Game> text_of(const Game& g) {
  return {
      [&g](const Position& p) { return teeko::to_fen(g, p); },
      [&g](const std::string& fen) { return teeko::parse_fen(g, fen); },
      [&g](const Position&, teeko::Move m) { return teeko::move_name(g, m); },
      [&g](const Position& p, const std::string& name) { return teeko::parse_move(g, p, name); }};
}

std::set<std::string> move_names(const Game& g, const Position& p) {
  teeko::MoveList list;
  g.generate(p, list);
  std::set<std::string> out;
  for (teeko::Move m : list) out.insert(teeko::move_name(g, m));
  return out;
}

constexpr const char* kVariants[] = {"teeko:4x4",          "teeko",     "teeko:advanced",
                                     "teeko:4x4:advanced", "teeko:6x6", "teeko:7x7:advanced"};

// Positions random play of the reference engine passes through, from the empty board: long
// enough walks to spend most of their plies stepping.
std::vector<std::string> sample_fens(const Game& g, int walks, std::mt19937& rng) {
  std::vector<std::string> out;
  for (int i = 0; i < walks; ++i) {
    const auto walk = conformance::random_walk(
        reference::from_fen(teeko::to_fen(g, g.start()), g.variant().advanced), 60, rng,
        [](const reference::Board& b) { return reference::to_fen(b); });
    for (std::size_t k = 0; k < walk.size(); k += 7) out.push_back(walk[k]);
    out.push_back(walk.back());
  }
  return out;
}

// The position's images under the board's 8 symmetries, built by hand from coordinates (the
// engine's own tables not used), and with the colours and the side to move swapped.
std::vector<Position> hand_images(const Game& g, const Position& p) {
  const int n = g.size(), m = n - 1;
  std::vector<Position> out;
  for (int kind = 0; kind < 16; ++kind) {
    Position q;
    for (int c = 0; c < 2; ++c)
      for (int sq = 0; sq < n * n; ++sq) {
        if (!(p.pieces[c] >> sq & 1)) continue;
        int f = sq % n, r = sq / n;
        if (kind & 1) f = m - f;        // mirror the files
        if (kind & 2) r = m - r;        // mirror the ranks
        if (kind & 4) std::swap(f, r);  // the a1 diagonal
        q.pieces[c ^ (kind >> 3)] |= teeko::Bitboard{1} << (r * n + f);
      }
    q.side_to_move = teeko::Color(p.side_to_move ^ (kind >> 3));
    out.push_back(q);
  }
  return out;
}

}  // namespace

TEST_CASE("teeko: patterns, the start and moves worked out by hand", "[teeko]") {
  const Game g = game_of("teeko");
  // 5x5: 10 lines a direction of the rows and files, 4 diagonals each way, 16 blocks of 2x2.
  CHECK(g.patterns().size() == 44);
  CHECK(game_of("teeko:advanced").patterns().size() == 44 + 14);
  CHECK(game_of("teeko:4x4").patterns().size() == 4 + 4 + 2 + 9);
  const Position start = g.start();
  CHECK(teeko::to_fen(g, start) == "5/5/5/5/5 x");
  CHECK(g.count_moves(start) == 25);
  const conformance::WorkedMove cases[] = {
      {"5/5/5/5/5 x", "c3", "5/5/2X2/5/5 o"},
      {"5/5/2X2/5/5 o", "a1", "5/5/2X2/5/O4 x"},
      // The eighth piece dropped: from now on, steps.
      {"2X1X/2OO1/2O2/2XX1/5 o", "b1", "2X1X/2OO1/2O2/2XX1/1O3 x"},
      {"2X1X/2OO1/2O2/2XOX/5 o", "c3b2", "2X1X/2OO1/5/1OXOX/5 x"},
  };
  for (const auto& c : cases)
    conformance::check_worked_move(
        g, text_of(g), c, reference::to_fen(reference::play(reference::from_fen(c.fen), c.move)));
  // A step goes to an adjacent empty square only: d4 (X) has c5 and e3 free around it, not d2.
  const auto steps = move_names(g, teeko::parse_fen(g, "2X1X/2OO1/2O2/2XOX/5 x"));
  CHECK(steps.count("c2b1"));
  CHECK(steps.count("e5e4"));
  CHECK(!steps.count("c2c4"));
  CHECK(!steps.count("c2c3"));  // occupied by O
  CHECK(steps.count("c5b5"));
  // Four in a row wins at once: Black's drop on d1 makes a1-d1; Red to move has lost.
  const Position four = teeko::parse_fen(g, "5/5/5/OOO2/XXX2 x");
  const auto win = teeko::parse_move(g, four, "d1");
  Position after = four;
  g.make(after, win);
  CHECK(teeko::to_fen(g, after) == "5/5/5/OOO2/XXXX1 o");
  CHECK(g.is_terminal(after));
  CHECK(move_names(g, after).empty());
  CHECK(reference::legal_moves(reference::from_fen("5/5/5/OOO2/XXXX1 o")).empty());
  // A 2x2 block wins, a diagonal wins; three in a line with a gap does not.
  CHECK(g.is_pattern(teeko::parse_fen(g, "OOO2/5/5/XX3/XX3 o").pieces[teeko::kBlack]));
  CHECK(g.is_pattern(teeko::parse_fen(g, "X4/1X3/2X2/3X1/OOO2 o").pieces[teeko::kBlack]));
  CHECK(!g.is_pattern(teeko::parse_fen(g, "OOO2/5/5/5/XXX1X o").pieces[teeko::kBlack]));
  // The corners of a 3x3 square win only in the advanced variant.
  const char* corners = "OOO2/5/X1X2/5/X1X2 o";
  CHECK(!g.is_pattern(teeko::parse_fen(g, corners).pieces[teeko::kBlack]));
  const Game advanced = game_of("teeko:advanced");
  CHECK(advanced.is_pattern(teeko::parse_fen(advanced, corners).pieces[teeko::kBlack]));
}

TEST_CASE("teeko: fast and reference engines agree on random positions of every variant",
          "[teeko][reference]") {
  std::mt19937 rng(20261206);
  int moves_checked = 0, ends = 0, stepping = 0;
  for (const char* v : kVariants) {
    const Game g = game_of(v);
    for (const std::string& fen : sample_fens(g, 12, rng)) {
      INFO(v << " " << fen);
      const Position p = teeko::parse_fen(g, fen);
      REQUIRE(teeko::to_fen(g, p) == fen);
      const auto board = reference::from_fen(fen, g.variant().advanced);
      moves_checked += conformance::check_moves(
          g, p, text_of(g), reference::legal_moves(board),
          [&](const std::string& name, const Position& next) {
            CHECK(teeko::to_fen(g, next) == reference::to_fen(reference::play(board, name)));
          });
      ends += g.is_terminal(p);
      stepping += !p.dropping();
      Position q = p;
      CHECK(solver::perft(g, q, 3) == reference::perft(board, 3));
    }
  }
  CHECK(moves_checked > 5000);
  CHECK(ends > 10);
  CHECK(stepping > 100);
}

TEST_CASE("teeko: perft from the empty board agrees with the reference engine",
          "[teeko][reference]") {
  for (const auto& [variant, depth] :
       {std::pair{"teeko:4x4", 5}, std::pair{"teeko", 4}, std::pair{"teeko:advanced", 4}}) {
    INFO(variant << " depth " << depth);
    const Game g = game_of(variant);
    Position p = g.start();
    const std::uint64_t nodes = solver::perft(g, p, depth);
    CHECK(nodes ==
          reference::perft(reference::from_fen(teeko::to_fen(g, p), g.variant().advanced), depth));
    // No pattern can be made in the first depth <= 6 plies: every drop is a move.
    std::uint64_t drops = 1;
    for (int k = 0; k < depth; ++k) drops *= std::uint64_t(g.squares() - k);
    CHECK(nodes == drops);
  }
}

TEST_CASE("teeko: keys are exact, and canonical keys equal exactly on isomorphic positions",
          "[teeko][keys]") {
  std::mt19937 rng(7);
  for (const char* v : {"teeko", "teeko:4x4:advanced", "teeko:7x7:advanced"}) {
    const Game g = game_of(v);
    for (const std::string& fen : sample_fens(g, 6, rng)) {
      INFO(v << " " << fen);
      const Position p = teeko::parse_fen(g, fen);
      const auto images = hand_images(g, p);
      conformance::check_same_class(g, p, images, 2);
      std::set<teeko::Key> same_colours;
      for (int k = 0; k < 8; ++k) {
        CHECK(g.symmetric_key(images[k]) == g.symmetric_key(p));
        same_colours.insert(g.raw_key(images[k]));
      }
      CHECK(same_colours.count(g.raw_key(g.from_key(g.symmetric_key(p)))) == 1);
      const Position rep = g.from_key(g.canonical_key(p));
      CHECK(rep.side_to_move == teeko::kBlack);
      CHECK(g.canonical_key(rep) == g.canonical_key(p));
    }
  }
  // Positions that differ in a square or in the side to move have different keys.
  const Game g = game_of("teeko");
  const Position a = teeko::parse_fen(g, "2X1X/2OO1/2O2/2XOX/5 o");
  const Position b = teeko::parse_fen(g, "2X1X/2OO1/2O2/2XOX/5 x");
  const Position c = teeko::parse_fen(g, "2X1X/2OO1/1O3/2XOX/5 o");
  CHECK(g.raw_key(a) != g.raw_key(b));
  CHECK(g.canonical_key(a) != g.canonical_key(c));
}

TEST_CASE("teeko: text round trips through random games", "[teeko]") {
  std::mt19937_64 rng(11);
  for (const char* v : kVariants) {
    const Game g = game_of(v);
    const auto seen = conformance::check_round_trips(
        g, g.start(), 20, 80, rng, [&](const Position& p) { return teeko::to_fen(g, p); },
        [&](const std::string& s) { return teeko::parse_fen(g, s); });
    CHECK(seen.positions > 200);
  }
}

TEST_CASE("teeko: malformed variants, positions and moves are refused in one line", "[teeko]") {
  using teeko::ParseError;
  conformance::check_refused<ParseError>(
      {"teeko:", "teeko:5x4", "teeko:3x3", "teeko:8x8", "teeko:5x5:adv", "teeko:advanced:5x5",
       "teeko:4x4:advanced:x", "teeko:x", "teeko:99999999999x4", "teekoo"},
      [](const std::string& s) { return teeko::parse_variant(s); }, "variant");
  const Game g = game_of("teeko");
  conformance::check_refused<ParseError>(
      {"", "5/5/5/5/5", "5/5/5/5/5 x x", "5/5/5/5 x", "5/5/5/5/6 x", "5/5/5/5/4 x",
       "5/5/5/5/XXXXX o", "5/5/5/5/Y4 x", "5/5/5/5/5 w", "5/5/5/5/X4 x", "5/5/5/5/O4 o",
       "5/5/5/5/11111 x", "5/5/5/5/XX3 o", "5/5/5/OOO2/XXXX1 x", "XXXX1/OOOO1/5/5/5 x",
       "XXXX1/OOO2/5/5/5 x"},
      [&](const std::string& s) { return teeko::parse_fen(g, s); }, "FEN");
  const Position dropping = teeko::parse_fen(g, "5/5/2X2/5/5 o");
  const Position stepping = teeko::parse_fen(g, "2X1X/2OO1/2O2/2XOX/5 x");
  conformance::check_refused<ParseError>(
      {"", "c", "c3d", "c3c3c3", "f1", "a6", "c3"},
      [&](const std::string& s) { return teeko::parse_move(g, dropping, s); }, "move");
  conformance::check_refused<ParseError>(
      {"a1", "c2c4", "c2c3", "c5c5", "b1a1"},
      [&](const std::string& s) { return teeko::parse_move(g, stepping, s); }, "move");
  std::mt19937 rng(3);
  const auto seen = conformance::check_mangled<ParseError>(
      2000, [&] { return test_support::mangled("2X1X/2OO1/2O2/2XOX/5 o", "XOxo/12345 6", rng); },
      [&](const std::string& s) { return teeko::parse_fen(g, s); },
      [&](const Position& p) { return teeko::to_fen(g, p); });
  CHECK(seen.accepted > 20);
  CHECK(seen.refused > 500);
}
