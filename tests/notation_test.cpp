// FEN, move and variant notation: round trips, the accepted spellings RULES.md allows, and one
// check per class of bad input that the error is a ParseError whose message names the fault.
#include "rules/drop/notation.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/parse_error.h"

namespace {

using Catch::Matchers::Contains;
using drop::Game;
using drop::Position;

Game game_of(const char* variant) {
  return Game(drop::parse_variant(variant));
}

// The message of the ParseError that `parse` throws, or a marker that fails every Contains()
// check when nothing (or something else) is thrown.
template <typename F>
std::string parse_error_of(F parse) {
  try {
    parse();
  } catch (const drop::ParseError& e) {
    return e.what();
  }
  return "<accepted: no ParseError>";
}

std::string fen_error(const Game& g, const std::string& fen) {
  return parse_error_of([&] { drop::parse_fen(g, fen); });
}
std::string move_error(const Game& g, const std::string& fen, const std::string& move) {
  const Position p = drop::parse_fen(g, fen);
  return parse_error_of([&] { drop::parse_move(g, p, move); });
}
std::string variant_error(const std::string& text) {
  return parse_error_of([&] { drop::parse_variant(text); });
}

}  // namespace

TEST_CASE("canonical FENs round-trip unchanged", "[notation]") {
  struct Case {
    const char* variant;
    const char* fen;
  };
  const Case cases[] = {
      {"drop16", "4/4/4/4[NNBBRRQKnnbbrrqk] w"},
      {"drop16", "bb2/k1B1/1q1R/1N1r[nn] w"},
      {"drop16", "1RBq/Qr1N/b1r1/1n2[B] b"},
      {"drop16", "b1n1/NNKq/B3/R1bR[] w"},
      {"drop16", "4/4/4/4[] b"},
      {"3x2:NNBK/nk", "k2/1K1[NNBn] w"},
      {"1x5:RQK", "k/K/r/1/R[Q] w"},
      {"8x4:NNBBRRQK", "3r3b/nR1Q3B/5n2/3k4[NBRKbrq] b"},
      {"7x4:NBRQK", "7/3K3/n6/6q[NBRQbrk] w"},
  };
  for (const Case& c : cases) {
    INFO(c.variant << " " << c.fen);
    const Game g = game_of(c.variant);
    CHECK(drop::to_fen(g, drop::parse_fen(g, c.fen)) == c.fen);
  }
}

TEST_CASE("FEN spellings RULES.md allows parse to the same position", "[notation]") {
  const Game g = game_of("drop16");
  const std::string start = "4/4/4/4[NNBBRRQKnnbbrrqk] w";
  // Hand letters in any order; Fairy-Stockfish's trailing fields; both empty-hand spellings.
  CHECK(drop::to_fen(g, drop::parse_fen(g, "4/4/4/4[kqrrbbnnKQRRBBNN] w")) == start);
  CHECK(drop::to_fen(g, drop::parse_fen(g, "4/4/4/4[nNbBrRqQkKNnBbRr] w")) == start);
  CHECK(drop::to_fen(g, drop::parse_fen(g, start + " - - 0 1")) == start);
  CHECK(drop::parse_fen(g, start + " - - 0 1") == g.start());
  CHECK(drop::to_fen(g, drop::parse_fen(g, "N3/4/4/3n[-] b")) == "N3/4/4/3n[] b");
  CHECK(drop::parse_fen(g, "N3/4/4/3n[-] b") == drop::parse_fen(g, "N3/4/4/3n[] b"));
  CHECK(drop::parse_fen(g, "N3/4/4/3n[] b - - 0 1") == drop::parse_fen(g, "N3/4/4/3n[] b"));
  // The parsed position is the one written: pieces on the squares named, hands counted.
  const Position p = drop::parse_fen(g, "1n2/1q2/KR1k/4[NNb] b");
  const auto& geo = g.geometry();
  CHECK(p.side_to_move == drop::kBlack);
  CHECK(p.piece_on(geo.square(1, 3))->type == drop::kKnight);  // b4 n
  CHECK(p.piece_on(geo.square(1, 3))->color == drop::kBlack);
  CHECK(p.piece_on(geo.square(0, 1))->type == drop::kKing);  // a2 K
  CHECK(p.piece_on(geo.square(0, 1))->color == drop::kWhite);
  CHECK_FALSE(p.piece_on(geo.square(0, 0)));  // a1 empty
  CHECK(p.hand[drop::kWhite][drop::kKnight] == 2);
  CHECK(p.hand[drop::kBlack][drop::kBishop] == 1);
  CHECK(drop::popcount(p.occupied()) == 5);
}

namespace {

void check_text_round_trips(const char* variant, std::mt19937& rng) {
  const Game g = game_of(variant);
  drop::MoveList list;
  int positions = 0;
  for (int game = 0; game < 20; ++game) {
    Position p = g.start();
    for (;;) {
      const std::string fen = drop::to_fen(g, p);
      INFO(variant << " " << fen);
      const Position back = drop::parse_fen(g, fen);
      REQUIRE(back == p);
      REQUIRE(drop::to_fen(g, back) == fen);
      ++positions;
      g.generate(p, list);
      for (drop::Move m : list) {
        const std::string name = drop::move_name(g.geometry(), m);
        INFO(name);
        REQUIRE(drop::parse_move(g, p, name) == m);
      }
      if (list.empty()) break;
      g.make(p, list[int(rng() % list.size())]);
    }
  }
  CHECK(positions > 20);
}

}  // namespace

TEST_CASE("random positions and all their moves round-trip through text", "[notation]") {
  std::mt19937 rng(2026);
  for (const char* variant :
       {"drop16", "3x2:NK", "1x5:RQK", "5x3:NBRQK/nbr", "8x4:NNBBRRQK", "4x3:QQ/kk", "7x4:NBRQK"})
    check_text_round_trips(variant, rng);
}

// Boards of more than 32 squares take the engine's slow symmetry path (no byte tables).
TEST_CASE("FEN and moves on boards of more than 32 squares", "[notation][large-board]") {
  const Game g = game_of("8x8:NNBBRRQK");
  const char* fen = "3r3b/6q1/8/8/nR1Q3B/8/5n2/3k4[NBRKbr] b";
  CHECK(drop::to_fen(g, drop::parse_fen(g, fen)) == fen);
  CHECK_THAT(fen_error(g, "8/8/8/8/8/8/8/9[] w"), Contains("rank 1 has 9 squares"));
  CHECK_THAT(move_error(g, fen, "N@i1"), Contains("'i1' is not a square"));
  std::mt19937 rng(88);
  for (const char* variant : {"8x8:NNBBRRQK", "6x6:NBRQK", "7x5:NNBBRRQK/nrqk"})
    check_text_round_trips(variant, rng);
}

TEST_CASE("bad FENs: one ParseError naming the fault", "[notation][errors]") {
  const Game g = game_of("drop16");
  // Wrong number of ranks, either way.
  CHECK_THAT(fen_error(g, "4/4/4[] w"), Contains("3 ranks") && Contains("4"));
  CHECK_THAT(fen_error(g, "4/4/4/4/4[] w"), Contains("5 ranks"));
  // Wrong rank width: too wide (by a digit or a letter) and too narrow; the message says which
  // rank, counting from 1 at the bottom as RULES.md's example does.
  CHECK_THAT(fen_error(g, "5/4/4/4[] w"), Contains("rank 4 has 5 squares") && Contains("4 wide"));
  CHECK_THAT(fen_error(g, "4/4/4/N4[] w"), Contains("rank 1") && Contains("4 wide"));
  CHECK_THAT(fen_error(g, "4/3/4/4[] w"), Contains("rank 3 has 3 squares"));
  CHECK_THAT(fen_error(g, "4/4//4[] w"), Contains("rank 2 has 0 squares"));
  // Unknown letters on the board and in the hands.
  CHECK_THAT(fen_error(g, "4/4/4/3x[] w"), Contains("unknown letter") && Contains("'x'"));
  CHECK_THAT(fen_error(g, "4/4/P3/4[] w"), Contains("unknown letter") && Contains("'P'"));
  CHECK_THAT(fen_error(g, "4/4/4/4[NP] w"), Contains("unknown letter") && Contains("hands"));
  // A '0' is a digit, not a letter, but counts nothing.
  CHECK_THAT(fen_error(g, "4/4/4/0004[] w"),
             Contains("rank 1") && Contains("'0' counts no squares"));
  // More pieces of a kind than the variant allows: on the board, in hand, and both together.
  CHECK_THAT(fen_error(g, "NNN1/4/4/4[] w"),
             Contains("White has 3 knight") && Contains("allows 2"));
  CHECK_THAT(fen_error(g, "4/4/4/4[QQ] w"), Contains("White has 2 queen") && Contains("allows 1"));
  CHECK_THAT(fen_error(g, "k3/4/4/4[k] w"), Contains("Black has 2 king") && Contains("allows 1"));
  CHECK_THAT(fen_error(g, "RR2/4/4/4[R] b"), Contains("3 rook"));
  // Different hands per side: Black owns no rook at all in this variant.
  CHECK_THAT(fen_error(game_of("3x3:NBR/nb"), "r2/3/3[] w"),
             Contains("Black has 1 rook") && Contains("allows 0"));
  // Side to move: wrong letter, missing, upper case.
  CHECK_THAT(fen_error(g, "4/4/4/4[] x"), Contains("side to move") && Contains("'x'"));
  CHECK_THAT(fen_error(g, "4/4/4/4[] W"), Contains("side to move"));
  CHECK_THAT(fen_error(g, "4/4/4/4[]"), Contains("missing side to move"));
  // Missing or broken hands.
  CHECK_THAT(fen_error(g, "4/4/4/4 w"), Contains("hands"));
  CHECK_THAT(fen_error(g, "4/4/4/4[NN w"), Contains("']'"));
  CHECK_THAT(fen_error(g, "4/4/4/4[N]N w"), Contains("']'"));
  // Nothing at all, and junk after the side to move.
  CHECK_THAT(fen_error(g, ""), Contains("empty"));
  CHECK_THAT(fen_error(g, "4/4/4/4[] w x"), Contains("unexpected field") && Contains("'x'"));
  // Every message says it is about the FEN.
  CHECK_THAT(fen_error(g, "4/4/4[] w"), Contains("FEN"));
}

TEST_CASE("bad moves: one ParseError naming the fault", "[notation][errors]") {
  const Game g = game_of("drop16");
  const std::string start = "4/4/4/4[NNBBRRQKnnbbrrqk] w";
  // Syntax.
  CHECK_THAT(move_error(g, start, ""), Contains("expected a drop like N@b3"));
  CHECK_THAT(move_error(g, start, "N@b"), Contains("expected a drop like N@b3"));
  CHECK_THAT(move_error(g, start, "a1-b2"), Contains("expected a drop like N@b3"));
  CHECK_THAT(move_error(g, start, "X@b3"), Contains("a drop starts with"));
  CHECK_THAT(move_error(g, start, "n@b3"), Contains("upper case"));
  // Off-board squares, for drops and captures, on both axes.
  CHECK_THAT(move_error(g, start, "N@e1"), Contains("'e1' is not a square"));
  CHECK_THAT(move_error(g, start, "N@a5"), Contains("'a5' is not a square"));
  CHECK_THAT(move_error(g, start, "N@a0"), Contains("not a square"));
  CHECK_THAT(move_error(g, "1n2/1q2/KR1k/4[] w", "b2b9"), Contains("'b9' is not a square"));
  // A capture that the piece cannot make: hidden behind a blocker, an empty target, no piece.
  const std::string pos = "1n2/1q2/KR1k/4[] w";
  CHECK_THAT(move_error(g, pos, "b2b4"), Contains("not a legal capture"));
  CHECK_THAT(move_error(g, pos, "b2c2"), Contains("not a legal capture"));
  CHECK_THAT(move_error(g, pos, "c1d2"), Contains("not a legal capture"));
  CHECK_THAT(move_error(g, pos, "b3b4"), Contains("not a legal capture"));  // Black's queen
  // Drops on an occupied square and of a piece not in hand (the opponent's hand does not count).
  CHECK_THAT(move_error(g, "N3/4/4/4[N] w", "N@a4"), Contains("occupied"));
  CHECK_THAT(move_error(g, "N3/4/4/4[q] w", "Q@b1"), Contains("no queen in the hand"));
  CHECK_THAT(move_error(g, "N3/4/4/4[N] b", "N@b1"), Contains("no knight"));
  // Every message quotes the move.
  CHECK_THAT(move_error(g, start, "N@e1"), Contains("'N@e1'"));
  // And the same texts in a legal setting are accepted, so the checks above test the fault and
  // not the spelling.
  const Position p = drop::parse_fen(g, pos);
  CHECK(drop::parse_move(g, p, "b2b3") ==
        drop::Move::capture(g.geometry().square(1, 1), g.geometry().square(1, 2)));
  CHECK(drop::parse_move(g, drop::parse_fen(g, "N3/4/4/4[N] w"), "N@b1") ==
        drop::Move::drop(drop::kKnight, g.geometry().square(1, 0)));
}

TEST_CASE("variants: names parse, bad ones name the fault", "[notation][errors]") {
  const drop::Variant d16 = drop::parse_variant("drop16");
  CHECK(d16.width == 4);
  CHECK(d16.height == 4);
  CHECK(d16.hand_size(drop::kWhite) == 8);
  CHECK(d16.hand_size(drop::kBlack) == 8);
  CHECK(drop::parse_variant("4x4:NNBBRRQK") == d16);
  CHECK(drop::parse_variant("4x4:KQRRBBNN/kqrrbbnn") == d16);
  const drop::Variant v = drop::parse_variant("5x3:NBRQK/nbr");
  CHECK(v.width == 5);
  CHECK(v.height == 3);
  CHECK(v.max_count(drop::kWhite, drop::kQueen) == 1);
  CHECK(v.max_count(drop::kBlack, drop::kQueen) == 0);
  CHECK(v.max_count(drop::kBlack, drop::kRook) == 1);
  // Names round-trip.
  for (const char* name : {"drop16", "3x3:NBRK", "5x3:NBRQK/nbr", "8x1:-", "1x8:K/-"})
    CHECK(drop::parse_variant(drop::parse_variant(name).name()) == drop::parse_variant(name));
  CHECK(d16.name() == "drop16");
  CHECK(drop::parse_variant("8x8:NNBBRRQK").name() == "8x8:NNBBRRQK");

  CHECK_THAT(variant_error("0x4:NK"), Contains("width") && Contains("1 to 8"));
  CHECK_THAT(variant_error("4x0:NK"), Contains("height") && Contains("1 to 8"));
  CHECK_THAT(variant_error("9x9:NK"), Contains("width '9'"));
  CHECK_THAT(variant_error("4x9:NK"), Contains("height '9'"));
  CHECK_THAT(variant_error("10x4:NK"), Contains("width '10'"));
  CHECK_THAT(variant_error("4x4:NX"), Contains("unknown piece letter 'X'"));
  CHECK_THAT(variant_error("4x4:NP/np"), Contains("unknown piece letter 'P'"));
  CHECK_THAT(variant_error("4x4:Nk"), Contains("upper case"));
  CHECK_THAT(variant_error("4x4:NK/NK"), Contains("lower case"));
  CHECK_THAT(variant_error("4x4:"), Contains("empty hand"));
  CHECK_THAT(variant_error("4x4:NK/"), Contains("empty hand"));
  CHECK_THAT(variant_error("4x4:NNNNNNNNNNNNNNNN"), Contains("more than 15"));
  CHECK_THAT(variant_error("chess"), Contains("expected 'drop16'"));
  CHECK_THAT(variant_error(""), Contains("expected 'drop16'"));
  CHECK_THAT(variant_error("4x4"), Contains("expected 'drop16'"));
  CHECK_THAT(variant_error("chess"), Contains("'chess'"));
}
