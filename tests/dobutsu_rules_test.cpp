// Dobutsu shogi (shared/games/DOBUTSU.md): the engine against the plain mailbox engine
// (rules/dobutsu/reference_rules.h) on random positions and in perft; moves, catches and tries
// worked out by hand from the rules; keys and the symmetries (the mirror, the half turn with the
// colours swapped); every malformed FEN, move and variant refused.
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/dobutsu/game.h"
#include "rules/dobutsu/notation.h"
#include "rules/dobutsu/reference_rules.h"
#include "rules/dobutsu/variant.h"
#include "solver/game_concept.h"
#include "solver/perft.h"
#include "tests/conformance.h"
#include "tests/test_support.h"

namespace {

using dobutsu::Game;
using dobutsu::Position;
namespace reference = dobutsu::reference;

static_assert(solver::PerftGame<Game> && solver::KeyedGame<Game>);

conformance::Text<Game> text_of(const Game& g) {
  return {
      [&g](const Position& p) { return dobutsu::to_fen(g, p); },
      [&g](const std::string& fen) { return dobutsu::parse_fen(g, fen); },
      [&g](const Position&, dobutsu::Move m) { return dobutsu::move_name(g, m); },
      [&g](const Position& p, const std::string& name) { return dobutsu::parse_move(g, p, name); }};
}

std::set<std::string> move_names(const Game& g, const Position& p) {
  dobutsu::MoveList list;
  g.generate(p, list);
  std::set<std::string> out;
  for (dobutsu::Move m : list) out.insert(dobutsu::move_name(g, m));
  return out;
}

// Every position random play of the reference engine passes through, from the start (random
// play soon leaves a Lion to be caught: the games are short).
std::vector<std::string> sample_fens(const Game& g, int walks, std::mt19937& rng) {
  std::vector<std::string> out;
  for (int i = 0; i < walks; ++i) {
    const auto walk =
        conformance::random_walk(reference::from_fen(dobutsu::to_fen(g, g.start())), 80, rng,
                                 [](const reference::Board& b) { return reference::to_fen(b); });
    out.insert(out.end(), walk.begin(), walk.end());
  }
  return out;
}

// The position's images built by hand from coordinates: the mirror (files a and c exchanged), and
// the half turn with the colours, the hands and the side to move swapped, and both.
std::vector<Position> hand_images(const Position& p) {
  std::vector<Position> out;
  for (int kind = 0; kind < 4; ++kind) {
    Position q;
    const bool mirror = kind & 1, turn = kind & 2;
    for (int sq = 0; sq < 12; ++sq) {
      const dobutsu::Cell cell = p.cell(sq);
      if (!cell) continue;
      int f = sq % 3, r = sq / 3;
      if (mirror) f = 2 - f;
      if (turn) f = 2 - f, r = 3 - r;
      const int color = (cell - 1) / 5, kind_index = (cell - 1) % 5;
      q.set(r * 3 + f, dobutsu::Cell(1 + kind_index + 5 * (turn ? 1 - color : color)));
    }
    q.hand = turn ? decltype(p.hand){p.hand[1], p.hand[0]} : p.hand;
    q.side_to_move = dobutsu::Color(turn ? 1 - p.side_to_move : p.side_to_move);
    out.push_back(q);
  }
  return out;
}

}  // namespace

TEST_CASE("dobutsu: the start and moves worked out by hand", "[dobutsu]") {
  const Game g;
  const Position start = g.start();
  CHECK(dobutsu::to_fen(g, start) == "gle/1c1/1C1/ELG[] w");
  CHECK(move_names(g, start) == std::set<std::string>{"b1a2", "b1c2", "c1c2", "b2b3"});
  const conformance::WorkedMove cases[] = {
      // A capture: the Chick goes to Sente's hand.
      {"gle/1c1/1C1/ELG[] w", "b2b3", "gle/1C1/3/ELG[C] b"},
      {"gle/1C1/3/ELG[C] b", "b4b3", "g1e/1l1/3/ELG[Cc] w"},
      // A drop, anywhere empty.
      {"g1e/1l1/3/ELG[Cc] w", "C@b2", "g1e/1l1/1C1/ELG[c] b"},
      // A Chick stepping onto the far rank promotes.
      {"2l/gC1/3/ELG[ce] w", "b3b4", "1Hl/g2/3/ELG[ce] b"},
      // A Hen taken goes to the hand as a Chick.
      {"1Hl/g2/3/ELG[ce] b", "c4b4", "1l1/g2/3/ELG[cce] w"},
  };
  for (const auto& c : cases)
    conformance::check_worked_move(
        g, text_of(g), c, reference::to_fen(reference::play(reference::from_fen(c.fen), c.move)));
  // A Chick dropped on its last rank stays a Chick, and cannot move.
  const Position dropping = dobutsu::parse_fen(g, "1l1/g2/3/1LG[cceE] b");
  Position dropped = dropping;
  g.make(dropped, dobutsu::parse_move(g, dropping, "C@a1"));
  CHECK(dobutsu::to_fen(g, dropped) == "1l1/g2/3/cLG[Ece] w");
  dropped.side_to_move = dobutsu::kGote;
  for (const std::string& m : move_names(g, dropped)) CHECK(m.substr(0, 2) != "a1");

  // A catch: only the Lion's capture is played, and the game is then over.
  const Position catching = dobutsu::parse_fen(g, "1l1/1C1/3/ELG[ceg] w");
  CHECK(g.is_catch(catching));
  CHECK(move_names(g, catching) == std::set<std::string>{"b3b4"});
  Position caught = catching;
  g.make(caught, dobutsu::parse_move(g, catching, "b3b4"));
  CHECK(dobutsu::to_fen(g, caught) == "1H1/3/3/ELG[ceg] b");
  CHECK(g.is_terminal(caught));
  CHECK(dobutsu::parse_fen(g, "1H1/3/3/ELG[ceg] b") == caught);
  CHECK(reference::legal_moves(reference::from_fen("1H1/3/3/ELG[ceg] b")).empty());
  // A try: Gote's Lion on Sente's home rank, out of reach: Sente has lost.
  const Position tried = dobutsu::parse_fen(g, "3/3/3/l1L[CEGceg] w");
  CHECK(g.is_try(tried));
  CHECK(g.is_terminal(tried));
  CHECK(reference::legal_moves(reference::from_fen("3/3/3/l1L[CEGceg] w")).empty());
  // On the home rank but within reach: a catch, not a try.
  const Position within = dobutsu::parse_fen(g, "3/3/3/lL1[CEGceg] w");
  CHECK(!g.is_try(within));
  CHECK(move_names(g, within) == std::set<std::string>{"b1a1"});
}

TEST_CASE("dobutsu: the engine and the reference engine agree on random positions",
          "[dobutsu][reference]") {
  std::mt19937 rng(20261206);
  const Game g;
  int moves_checked = 0, ends = 0, catches = 0, drops = 0;
  for (const std::string& fen : sample_fens(g, 300, rng)) {
    INFO(fen);
    const Position p = dobutsu::parse_fen(g, fen);
    REQUIRE(dobutsu::to_fen(g, p) == fen);
    const auto board = reference::from_fen(fen);
    moves_checked += conformance::check_moves(
        g, p, text_of(g), reference::legal_moves(board),
        [&](const std::string& name, const Position& next) {
          CHECK(dobutsu::to_fen(g, next) == reference::to_fen(reference::play(board, name)));
        });
    ends += g.is_terminal(p);
    catches += g.is_catch(p);
    drops += p.hand[p.side_to_move][0] + p.hand[p.side_to_move][1] + p.hand[p.side_to_move][2] > 0;
    Position q = p;
    CHECK(solver::perft(g, q, 3) == reference::perft(board, 3));
  }
  CHECK(moves_checked > 3000);
  CHECK(ends > 10);
  CHECK(catches > 10);
  CHECK(drops > 100);
}

TEST_CASE("dobutsu: perft from the start agrees with the reference engine",
          "[dobutsu][reference]") {
  const Game g;
  Position p = g.start();
  for (int depth = 1; depth <= 6; ++depth) {
    INFO("depth " << depth);
    CHECK(solver::perft(g, p, depth) ==
          reference::perft(reference::from_fen(dobutsu::to_fen(g, p)), depth));
  }
}

TEST_CASE("dobutsu: keys are exact, and canonical keys equal exactly on isomorphic positions",
          "[dobutsu][keys]") {
  std::mt19937 rng(7);
  const Game g;
  for (const std::string& fen : sample_fens(g, 20, rng)) {
    INFO(fen);
    const Position p = dobutsu::parse_fen(g, fen);
    const auto images = hand_images(p);
    conformance::check_same_class(g, p, images, 2);
    CHECK(g.symmetric_key(images[1]) == g.symmetric_key(p));
    const Position rep = g.from_key(g.canonical_key(p));
    CHECK(rep.side_to_move == dobutsu::kSente);
    CHECK(g.canonical_key(rep) == g.canonical_key(p));
  }
  const Position a = dobutsu::parse_fen(g, "gle/1c1/1C1/ELG[] w");
  const Position b = dobutsu::parse_fen(g, "gle/1c1/1C1/ELG[] b");
  const Position c = dobutsu::parse_fen(g, "gle/1c1/C2/1LG[E] w");
  CHECK(g.raw_key(a) != g.raw_key(b));
  CHECK(g.canonical_key(a) != g.canonical_key(c));
}

TEST_CASE("dobutsu: text round trips through random games", "[dobutsu]") {
  std::mt19937_64 rng(11);
  const Game g;
  const auto seen = conformance::check_round_trips(
      g, g.start(), 200, 120, rng, [&](const Position& p) { return dobutsu::to_fen(g, p); },
      [&](const std::string& s) { return dobutsu::parse_fen(g, s); });
  CHECK(seen.positions > 500);
}

TEST_CASE("dobutsu: malformed variants, positions and moves are refused in one line", "[dobutsu]") {
  using dobutsu::ParseError;
  conformance::check_refused<ParseError>(
      {"dobutsu:", "dobutsu:3x4", "dobutsux", "dobutsu:x"},
      [](const std::string& s) { return dobutsu::parse_variant(s); }, "variant");
  const Game g;
  conformance::check_refused<ParseError>(
      {"", "gle/1c1/1C1/ELG[]", "gle/1c1/1C1/ELG[] w w", "gle/1c1/1C1/ELG w", "gle/1c1/ELG[] w",
       "gle/1c1/1C1/ELG1[] w", "gle/1c1/1C1/EL[] w", "gle/1c1/1C1/ELG[C] w", "gle/1c1/1C1/ELX[] w",
       "gle/1c1/1C1/ELG[] x", "g1e/1c1/1C1/ELG[] w", "g1e/1c1/1C1/ELG[L] w", "gLe/1c1/1C1/ELG[] w",
       "gle/1c1/1C1/ELG[H] w", "gle/1h1/1C1/ELG[c] w", "gle/1c1/1C1/ELG]] w"},
      [&](const std::string& s) { return dobutsu::parse_fen(g, s); }, "FEN");
  const Position start = g.start();
  conformance::check_refused<ParseError>(
      {"", "b2", "b2b", "b2b3b4", "d1d2", "a5a4", "b1b2", "a1a2", "C@a3", "L@a3", "H@a3", "X@a3",
       "b2b4"},
      [&](const std::string& s) { return dobutsu::parse_move(g, start, s); }, "move");
  const Position catching = dobutsu::parse_fen(g, "1l1/1C1/3/ELG[ceg] w");
  conformance::check_refused<ParseError>(
      {"b1b2", "a1b2"}, [&](const std::string& s) { return dobutsu::parse_move(g, catching, s); },
      "move");
  std::mt19937 rng(3);
  const auto seen = conformance::check_mangled<ParseError>(
      2000,
      [&] { return test_support::mangled("g1e/1l1/1C1/ELG[c] b", "LGECHlgech/123[] wb", rng); },
      [&](const std::string& s) { return dobutsu::parse_fen(g, s); },
      [&](const Position& p) { return dobutsu::to_fen(g, p); });
  CHECK(seen.accepted > 20);
  CHECK(seen.refused > 500);
}
