// The bitboard engine against the plain mailbox implementation in rules/drop/reference_rules.h:
// same legal moves (as text) on positions from random playouts of many variants, and the same
// perft without any bulk counting or hashing on the reference side.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "rules/drop/notation.h"
#include "rules/drop/reference_rules.h"
#include "solver/perft.h"
#include "tests/conformance.h"

namespace {

conformance::Text<drop::Game> text_of(const drop::Game& g) {
  return {[&g](const drop::Position& p) { return drop::to_fen(g, p); },
          [&g](const std::string& fen) { return drop::parse_fen(g, fen); },
          [&g](const drop::Position&, drop::Move m) { return drop::move_name(g.geometry(), m); },
          [&g](const drop::Position& p, const std::string& name) {
            return drop::parse_move(g, p, name);
          }};
}

// The reference's board as a comparable text: cells, each hand's letters sorted, side.
std::string board_text(drop::reference::Board b) {
  for (std::string& hand : b.hand) std::sort(hand.begin(), hand.end());
  return std::string(b.cells.begin(), b.cells.end()) + " " + b.hand[0] + "/" + b.hand[1] + " " +
         std::to_string(b.side);
}

}  // namespace

TEST_CASE("engine and reference agree on the legal moves of random positions", "[reference]") {
  std::mt19937_64 rng(20261130);
  for (const char* name : {"drop16", "3x3:NBRK", "2x5:NNBBRRQK", "5x3:QQKRB/nnk", "1x4:RQ",
                           "8x8:NNBBRRQK", "6x2:BBQK/rrnk"}) {
    const drop::Game game(drop::parse_variant(name));
    for (int playout = 0; playout < 40; ++playout) {
      drop::Position p = game.start();
      auto board = drop::reference::from_position(game, p);
      while (true) {
        const auto expected = drop::reference::legal_moves(board);
        INFO(name << " " << drop::to_fen(game, p));
        conformance::check_moves(game, p, text_of(game), expected,
                                 [&](const std::string& move, const drop::Position& after) {
                                   CHECK(board_text(drop::reference::from_position(game, after)) ==
                                         board_text(drop::reference::play(board, move)));
                                 });
        if (expected.empty()) break;
        const std::string move = expected[rng() % expected.size()];
        game.make(p, drop::parse_move(game, p, move));
        board = drop::reference::play(board, move);
      }
    }
  }
}

TEST_CASE("engine perft equals the reference's leaf-by-leaf perft", "[reference]") {
  const drop::Game drop16(drop::drop16_variant());
  auto start = drop16.start();
  const auto board = drop::reference::from_position(drop16, start);
  for (int depth = 0; depth <= 3; ++depth)
    REQUIRE(solver::perft(drop16, start, depth) == drop::reference::perft(board, depth));

  const drop::Game small(drop::parse_variant("3x3:NBK/rqk"));
  auto p = small.start();
  const auto small_board = drop::reference::from_position(small, p);
  REQUIRE(solver::perft(small, p, 5) == drop::reference::perft(small_board, 5));
}
