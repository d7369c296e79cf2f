// The rules engine against hand-made positions whose move sets are derived by hand (in the
// comments), against a deliberately naive reference move generator, and against the symmetry and
// key properties that solvers rely on. Board pictures in comments are drawn rank 4 (top) to 1.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "solver/perft.h"
#include "tests/conformance.h"
#include "tests/test_support.h"

namespace {

using drop::Game;
using drop::Position;
using MoveSet = std::set<std::string>;

Game game_of(const char* variant) {
  return Game(drop::parse_variant(variant));
}

conformance::Text<Game> text_of(const Game& g) {
  return {
      [&g](const Position& p) { return drop::to_fen(g, p); },
      [&g](const std::string& fen) { return drop::parse_fen(g, fen); },
      [&g](const Position&, drop::Move m) { return drop::move_name(g.geometry(), m); },
      [&g](const Position& p, const std::string& name) { return drop::parse_move(g, p, name); }};
}

// Names of the engine's moves; also checks that the list has no duplicates and agrees with the
// bulk counter and the terminal test, which perft and the solvers use instead of generate().
MoveSet engine_moves(const Game& g, const Position& p) {
  drop::MoveList list;
  g.generate(p, list);
  MoveSet names;
  for (drop::Move m : list) names.insert(drop::move_name(g.geometry(), m));
  CHECK(int(names.size()) == list.size());
  CHECK(g.count_moves(p) == std::uint64_t(list.size()));
  CHECK(g.is_terminal(p) == list.empty());
  // capture_targets, piece by piece, names the same captures as the list.
  MoveSet captures, from_targets;
  for (drop::Move m : list)
    if (!m.is_drop()) captures.insert(drop::move_name(g.geometry(), m));
  for (drop::PieceType t : drop::kAllPieceTypes)
    for (drop::Bitboard b = p.pieces(p.side_to_move, t); b;) {
      const int from = drop::pop_lsb(b);
      for (drop::Bitboard to = g.capture_targets(t, from, p.occupied()); to;)
        from_targets.insert(
            drop::move_name(g.geometry(), drop::Move::capture(from, drop::pop_lsb(to))));
    }
  CHECK(from_targets == captures);
  return names;
}

MoveSet moves_of(const Game& g, const char* fen) {
  return engine_moves(g, drop::parse_fen(g, fen));
}

std::string square_text(int file, int rank) {
  return {char('a' + file), char('1' + rank)};
}

// A second, naive move generator written straight from RULES.md: walk coordinates one step at a
// time, no bitboards, no precomputed tables. Disagreement with the engine is a bug in one of them.
MoveSet reference_moves(const Game& g, const Position& p) {
  const int w = g.variant().width, h = g.variant().height;
  auto at = [&](int f, int r) { return p.piece_on(r * w + f); };
  auto on_board = [&](int f, int r) { return f >= 0 && f < w && r >= 0 && r < h; };
  MoveSet out;
  for (drop::PieceType t : drop::kAllPieceTypes) {
    if (p.hand[p.side_to_move][t] == 0) continue;
    for (int r = 0; r < h; ++r)
      for (int f = 0; f < w; ++f)
        if (!at(f, r)) out.insert(std::string{drop::piece_letter(t), '@'} + square_text(f, r));
  }
  const int kKnightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                  {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  const int kStraight[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  const int kDiagonal[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  for (int r = 0; r < h; ++r)
    for (int f = 0; f < w; ++f) {
      const auto piece = at(f, r);
      if (!piece || piece->color != p.side_to_move) continue;
      const std::string from = square_text(f, r);
      auto leap = [&](int df, int dr) {
        if (on_board(f + df, r + dr) && at(f + df, r + dr))
          out.insert(from + square_text(f + df, r + dr));
      };
      auto slide = [&](int df, int dr) {
        for (int g2 = f + df, h2 = r + dr; on_board(g2, h2); g2 += df, h2 += dr)
          if (at(g2, h2)) {
            out.insert(from + square_text(g2, h2));
            return;
          }
      };
      switch (piece->type) {
        case drop::kKnight:
          for (auto& s : kKnightSteps) leap(s[0], s[1]);
          break;
        case drop::kKing:
          for (auto& s : kStraight) leap(s[0], s[1]);
          for (auto& s : kDiagonal) leap(s[0], s[1]);
          break;
        case drop::kRook:
          for (auto& s : kStraight) slide(s[0], s[1]);
          break;
        case drop::kBishop:
          for (auto& s : kDiagonal) slide(s[0], s[1]);
          break;
        case drop::kQueen:
          for (auto& s : kStraight) slide(s[0], s[1]);
          for (auto& s : kDiagonal) slide(s[0], s[1]);
          break;
      }
    }
  return out;
}

// Plays random legal moves, preferring captures half the time so that positions with few pieces
// and empty hands are reached too, not only crowded boards. Returns every position visited.
std::vector<Position> playout(const Game& g, std::mt19937& rng, int max_plies) {
  std::vector<Position> seen{g.start()};
  Position p = g.start();
  drop::MoveList list;
  for (int ply = 0; ply < max_plies; ++ply) {
    g.generate(p, list);
    if (list.empty()) break;
    std::vector<drop::Move> captures;
    for (drop::Move m : list)
      if (!m.is_drop()) captures.push_back(m);
    const bool capture = !captures.empty() && rng() % 2;
    const drop::Move m =
        capture ? captures[rng() % captures.size()] : list[int(rng() % list.size())];
    g.make(p, m);
    seen.push_back(p);
  }
  return seen;
}

// Variants of every shape the engine has a special case for: Drop 16 itself, thin boards, a board
// whose keys need the high 64-bit word (7x4), more than 28 squares (6x5), 32 squares (8x4, no
// exact keys), different hands per side and a 1x1 board. Boards of more than 32 squares have a
// test case of their own (see the end of this file).
const char* const kVariants[] = {"drop16",       "3x2:NK",        "1x5:RQK",   "2x2:NBRQK",
                                 "3x3:NBRK",     "5x3:NBRQK/nbr", "7x4:NBRQK", "6x5:NK",
                                 "8x4:NNBBRRQK", "4x3:QQ/kk",     "1x1:K"};
const char* const kLargeVariants[] = {"8x8:NNBBRRQK", "6x6:NBRQK", "7x5:NNBBRRQK/nrqk"};

Position hand_color_swap(const Game& g, const Position& p) {
  Position q;
  for (int sq = 0; sq < g.variant().width * g.variant().height; ++sq)
    if (const auto piece = p.piece_on(sq)) q.put(sq, {piece->type, drop::opposite(piece->color)});
  q.hand = {p.hand[drop::kBlack], p.hand[drop::kWhite]};
  q.side_to_move = drop::opposite(p.side_to_move);
  return q;
}

// Class representatives computed without the engine's keys: the least FEN over the images, and
// for the mover-relative class, of the position turned so that White is to move.
std::string least_image_fen(const Game& g, const Position& p) {
  std::string best;
  for (const Position& q : test_support::hand_images(g, p)) {
    const std::string f = drop::to_fen(g, q);
    if (best.empty() || f < best) best = f;
  }
  return best;
}
std::string mover_class_fen(const Game& g, const Position& p) {
  return least_image_fen(g, p.side_to_move == drop::kWhite ? p : hand_color_swap(g, p));
}

}  // namespace

TEST_CASE("rook stops at the first piece of either colour and may capture its own", "[rules]") {
  const Game g = game_of("drop16");
  // 4 . n . .    White R b2: north b3 (q; the n behind it is hidden), east c2 empty then d2 (k),
  // 3 . q . .    south b1 empty to the edge: nothing, west a2 (own K: a self-capture).
  // 2 K R . k    White K a2 touches a1 a3 b1 b2 b3: occupied are b2 (own R) and b3 (q).
  // 1 . . . .    Hands are empty, so no drops.
  CHECK(moves_of(g, "1n2/1q2/KR1k/4[] w") == MoveSet{"b2b3", "b2d2", "b2a2", "a2b3", "a2b2"});
  // Black in the same position: n b4 leaps to a2 (K) and c2/d3 (empty); q b3 takes b4 (own n),
  // b2 (R) and a2 (K) on the diagonal, and finds nothing east, west, or on the other diagonals;
  // k d2 touches c1 c2 c3 d1 d3, all empty.
  CHECK(moves_of(g, "1n2/1q2/KR1k/4[] b") == MoveSet{"b4a2", "b3b4", "b3b2", "b3a2"});
}

TEST_CASE("bishop slides over empty squares along diagonals only", "[rules]") {
  const Game g = game_of("drop16");
  // 4 . . k r    White B b2: NE c3 empty then d4 (r); NW a3 (own N); SE c1 (b); SW a1 empty.
  // 3 N q . .    It must not take b3 (q), which is orthogonal to it.
  // 2 . B . .    White N a3 leaps to b1, c2 (empty) and c4 (k).
  // 1 . . b .
  CHECK(moves_of(g, "2kr/Nq2/1B2/2b1[] w") == MoveSet{"b2d4", "b2a3", "b2c1", "a3c4"});
}

TEST_CASE("queen combines rook and bishop lines, blocked by either colour", "[rules]") {
  const Game g = game_of("drop16");
  // 4 r . . k    White Q a1: north a2 empty, a3 (n) stops it before a4 (r); east b1 c1 empty
  // 3 n . R .    then d1 (own K); diagonal b2 empty then c3 (own R), which hides d4 (k).
  // 2 . . . .    White R c3: only west reaches a piece (a3 n over the empty b3); it must not
  // 1 Q . . K    take d4 diagonally. White K d1 touches c1 c2 d2: all empty.
  CHECK(moves_of(g, "r2k/n1R1/4/Q2K[] w") == MoveSet{"a1a3", "a1d1", "a1c3", "c3a3"});
}

TEST_CASE("king takes on the eight adjacent squares only", "[rules]") {
  const Game g = game_of("drop16");
  // 4 . r . .    White K b2 touches a1 (n), a2 (own N), a3, b1, b3, c1, c2 (empty), c3 (q);
  // 3 . . q .    d2 (b) and b4 (r) are two squares away.
  // 2 N K . b    White N a2 leaps to b4 (r), c3 (q) and c1 (empty).
  // 1 n . . .
  CHECK(moves_of(g, "1r2/2q1/NK1b/n3[] w") == MoveSet{"b2a1", "b2a2", "b2c3", "a2b4", "a2c3"});
}

TEST_CASE("knight leaps near edges and corners", "[rules]") {
  // One White knight among 15 Black ones on a full 4x4 board, so its captures are exactly the
  // squares it attacks. Worked by hand from the (1,2)/(2,1) leaps that stay on the board.
  const Game g = game_of("4x4:N/nnnnnnnnnnnnnnn");
  struct Case {
    const char* fen;
    MoveSet moves;
  };
  const Case cases[] = {
      {"nnnn/nnnn/nnnn/Nnnn[] w", {"a1b3", "a1c2"}},                  // corner
      {"nnnn/nnnn/nnnn/nNnn[] w", {"b1a3", "b1c3", "b1d2"}},          // edge
      {"nnnn/nnnn/nNnn/nnnn[] w", {"b2a4", "b2c4", "b2d3", "b2d1"}},  // inner square
      {"nnnN/nnnn/nnnn/nnnn[] w", {"d4c2", "d4b3"}},                  // opposite corner
      {"nnnn/nnnN/nnnn/nnnn[] w", {"d3c1", "d3b2", "d3b4"}},          // right edge
  };
  for (const Case& c : cases) {
    INFO(c.fen);
    CHECK(moves_of(g, c.fen) == c.moves);
  }
  // On boards narrower than a leap the knight has nothing: 2x2 and 1x5 (knight a1, others ranks
  // up). On 2x3 a knight on a1 reaches b3 only.
  CHECK(moves_of(game_of("2x2:N/nnn"), "nn/Nn[] w").empty());
  CHECK(moves_of(game_of("1x5:N/nnnn"), "n/n/n/n/N[] w").empty());
  CHECK(moves_of(game_of("2x3:N/nnnnn"), "nn/nn/Nn[] w") == MoveSet{"a1b3"});
}

TEST_CASE("drops: one per piece type and empty square", "[rules]") {
  const Game g = game_of("3x2:NNBK/nk");
  // 2 k . .      White holds N N B: two knights are one drop per square. Empty: a1 c1 b2 c2,
  // 1 . K .      so 2 types x 4 squares = 8 drops; K b1 touches a2 (k) among a1 c1 a2 b2 c2.
  CHECK(moves_of(g, "k2/1K1[NNBn] w") ==
        MoveSet{"N@a1", "N@c1", "N@b2", "N@c2", "B@a1", "B@c1", "B@b2", "B@c2", "b1a2"});
  // Black drops only its knight (written upper case in moves), and k a2 takes b1.
  CHECK(moves_of(g, "k2/1K1[NNBn] b") == MoveSet{"N@a1", "N@c1", "N@b2", "N@c2", "a2b1"});
  // The opponent's hand gives the mover nothing: White's hand is empty here.
  CHECK(moves_of(g, "k2/1K1[n] w") == MoveSet{"b1a2"});
  // Drop 16 start: 5 types x 16 squares, and nothing else.
  const Game d16 = game_of("drop16");
  MoveSet expected;
  for (const char* t : {"N", "B", "R", "Q", "K"})
    for (int r = 0; r < 4; ++r)
      for (int f = 0; f < 4; ++f) expected.insert(std::string(t) + "@" + square_text(f, r));
  CHECK(moves_of(d16, "4/4/4/4[NNBBRRQKnnbbrrqk] w") == expected);
}

TEST_CASE("drops are impossible on a full board, captures remain", "[rules]") {
  const Game g = game_of("2x2:NRR");
  // 2 n r        Full board, White still holds N. R a1 takes a2 (n) north and b1 (r) east,
  // 1 R r        not b2 (diagonal); the knight in hand cannot be dropped anywhere.
  CHECK(moves_of(g, "nr/Rr[N] w") == MoveSet{"a1a2", "a1b1"});
}

TEST_CASE("moves on non-square boards", "[rules]") {
  // 1x5, file a only: White R a1 slides over the empty a2 to a3 (r); K a4 touches a3 (r) and
  // a5 (k); the queen in hand drops on the one empty square.
  CHECK(moves_of(game_of("1x5:RQK"), "k/K/r/1/R[Q] w") == MoveSet{"a1a3", "a4a3", "a4a5", "Q@a2"});
  // 3x2 (wide): B a1 reaches b2 (k) on its one diagonal; Q c2 takes b2 (west) and c1 (own K,
  // south), its diagonal b1 is empty up to the edge; K c1 touches b1 (empty), b2 and c2.
  CHECK(moves_of(game_of("3x2:BQK"), "1kQ/B1K[] w") ==
        MoveSet{"a1b2", "c2b2", "c2c1", "c1b2", "c1c2"});
}

TEST_CASE("terminal positions: the side to move has no drop and no capture", "[rules]") {
  // Empty hand, and neither knight attacks an occupied square (a4 attacks b2, c3; both empty).
  // Black's hand does not help White.
  const Game d16 = game_of("drop16");
  for (const char* fen : {"N3/4/4/3n[] w", "N3/4/4/3n[n] w"}) {
    INFO(fen);
    const Position p = drop::parse_fen(d16, fen);
    CHECK(d16.is_terminal(p));
    CHECK(moves_of(d16, fen).empty());
    Position copy = p;
    CHECK(solver::perft(d16, copy, 1) == 0);
    CHECK(solver::perft(d16, copy, 3) == 0);
  }
  // The same with the hand given to White is not terminal: 14 empty squares, one drop type.
  CHECK_FALSE(d16.is_terminal(drop::parse_fen(d16, "N3/4/4/3n[N] w")));
  // A full board where knights attack nothing (2x2 and 1x2 are too small for a leap): White has
  // a knight in hand but nowhere to drop it.
  for (auto [variant, fen] : {std::pair{"2x2:NNN", "nn/NN[Nn] w"}, {"1x2:NN", "n/N[N] w"}}) {
    INFO(variant << " " << fen);
    const Game g = game_of(variant);
    CHECK(g.is_terminal(drop::parse_fen(g, fen)));
    CHECK(moves_of(g, fen).empty());
  }
  // A single capture keeps a position alive even with no hand and a full board.
  const Game g = game_of("2x2:NRR");
  CHECK_FALSE(g.is_terminal(drop::parse_fen(g, "nr/Rr[] w")));
}

namespace {

void check_against_reference(const char* variant, std::mt19937& rng) {
  const Game g = game_of(variant);
  int checked = 0;
  for (int game = 0; game < 25; ++game)
    for (const Position& p : playout(g, rng, 40)) {
      INFO(variant << " " << drop::to_fen(g, p));
      engine_moves(g, p);  // its own checks: no move twice, the counter, capture_targets
      const MoveSet expected = reference_moves(g, p);
      conformance::check_moves(g, p, text_of(g), {expected.begin(), expected.end()});
      ++checked;
    }
  CHECK(checked > 25);
}

}  // namespace

TEST_CASE("move generation agrees with a naive reference on random positions", "[rules]") {
  std::mt19937 rng(20261130);
  for (const char* variant : kVariants) check_against_reference(variant, rng);
}

namespace {

void check_make_unmake(const char* variant, std::mt19937& rng) {
  const Game g = game_of(variant);
  for (int game = 0; game < 40; ++game) {
    Position p = g.start();
    std::vector<std::tuple<Position, drop::Move, drop::Undo>> stack;
    drop::MoveList list;
    for (g.generate(p, list); !list.empty(); g.generate(p, list)) {
      const drop::Move m = list[int(rng() % list.size())];
      const Position before = p;
      const drop::Undo u = g.make(p, m);
      // A drop moves one piece from a hand to the board and a capture removes one from the
      // board, so the pieces on the board go up or down by exactly one; colours never overlap.
      const int change = drop::popcount(p.occupied()) - drop::popcount(before.occupied());
      REQUIRE(change == (m.is_drop() ? 1 : -1));
      REQUIRE((p.by_color[0] & p.by_color[1]) == 0);
      stack.emplace_back(before, m, u);
    }
    // RULES.md: at most one drop per hand piece and one capture per piece but the last.
    const int pieces = g.variant().hand_size(drop::kWhite) + g.variant().hand_size(drop::kBlack);
    REQUIRE(int(stack.size()) <= 2 * pieces - 1);
    while (!stack.empty()) {
      const auto& [before, m, u] = stack.back();
      g.unmake(p, m, u);
      INFO(variant << " after unmake of " << drop::move_name(g.geometry(), m));
      REQUIRE(p == before);
      stack.pop_back();
    }
    CHECK(p == g.start());
  }
}

}  // namespace

TEST_CASE("make then unmake restores every position exactly", "[rules]") {
  std::mt19937 rng(7);
  for (const char* variant : kVariants) check_make_unmake(variant, rng);
}

TEST_CASE("the symmetry group has the expected images", "[rules][symmetry]") {
  // A position with no symmetry of its own, so every element of the group gives a different
  // board: 8 on a square board, 4 on a non-square one.
  for (auto [variant, fen, count] :
       {std::tuple{"drop16", "NB2/R3/4/4[] w", 8}, {"5x3:NBRQK", "NB3/R4/5[] w", 4}}) {
    const Game g = game_of(variant);
    const Position p = drop::parse_fen(g, fen);
    REQUIRE(int(g.geometry().symmetries().size()) == count);
    std::set<std::string> engine, by_hand;
    for (const auto& s : g.geometry().symmetries())
      engine.insert(drop::to_fen(g, g.transformed(p, s)));
    for (const Position& q : test_support::hand_images(g, p)) by_hand.insert(drop::to_fen(g, q));
    CHECK(int(engine.size()) == count);
    CHECK(engine == by_hand);
    CHECK(drop::to_fen(g, g.transformed(p, g.geometry().symmetries()[0])) == fen);
  }
}

namespace {

void check_symmetric_perft(const char* variant, std::mt19937& rng) {
  const Game g = game_of(variant);
  // Deep enough to see past the first ply's symmetric drops, cheap enough for a debug build.
  const int depth = g.variant().squares() > 20 ? 2 : 3;
  for (int game = 0; game < 6; ++game) {
    const auto line = playout(g, rng, 12);
    Position p = line[rng() % line.size()];
    INFO(variant << " " << drop::to_fen(g, p));
    const std::uint64_t expected = solver::perft(g, p, depth);
    for (const auto& s : g.geometry().symmetries()) {
      Position q = g.transformed(p, s);
      CHECK(solver::perft(g, q, depth) == expected);
    }
    Position swapped = g.color_swapped(p);
    CHECK(drop::to_fen(g, swapped) == drop::to_fen(g, hand_color_swap(g, p)));
    CHECK(solver::perft(g, swapped, depth) == expected);
  }
}

}  // namespace

TEST_CASE("perft is the same on every board image and after a colour swap", "[rules][symmetry]") {
  std::mt19937 rng(99);
  for (const char* variant : {"drop16", "3x3:NBRK", "5x3:NBRQK/nbr", "4x3:QQ/kk", "8x4:NNBBRRQK"})
    check_symmetric_perft(variant, rng);
}

TEST_CASE("keys: raw round-trips, symmetric and canonical name exactly the classes",
          "[rules][symmetry][keys]") {
  std::mt19937 rng(4242);
  for (const char* variant :
       {"drop16", "3x3:NBRK", "5x3:NBRQK/nbr", "7x4:NBRQK", "6x5:NK", "4x3:QQ/kk", "2x2:NBRQK"}) {
    const Game g = game_of(variant);
    REQUIRE(g.keys_fit());
    // Each map must be a function both ways: key -> class and class -> key.
    std::map<drop::Key, std::string> raw_to_fen, sym_to_class, canon_to_class;
    std::map<std::string, drop::Key> fen_to_raw, class_to_sym, class_to_canon;
    auto agree = [](auto& forward, auto& backward, const auto& a, const auto& b) {
      const auto it = forward.emplace(a, b).first;
      const auto jt = backward.emplace(b, a).first;
      return it->second == b && jt->second == a;
    };
    for (int game = 0; game < 15; ++game)
      for (const Position& p0 : playout(g, rng, 30)) {
        // Visit the position's images and colour swaps too, so that equal classes actually occur.
        // By construction the images share p0's classes, which are computed once here.
        const Position swapped = hand_color_swap(g, p0);
        const std::string sym_class[2] = {least_image_fen(g, p0), least_image_fen(g, swapped)};
        const std::string mover_class = mover_class_fen(g, p0);
        // A canonical key decodes to a White-to-move member of the class.
        const Position rep = g.from_key(g.canonical_key(p0));
        CHECK(rep.side_to_move == drop::kWhite);
        CHECK(mover_class_fen(g, rep) == mover_class);
        for (int swap = 0; swap < 2; ++swap)
          for (const Position& p : test_support::hand_images(g, swap ? swapped : p0)) {
            const std::string fen = drop::to_fen(g, p);
            INFO(variant << " " << fen);
            const drop::Key raw = g.raw_key(p);
            REQUIRE(g.from_key(raw) == p);
            REQUIRE(agree(raw_to_fen, fen_to_raw, raw, fen));
            REQUIRE(agree(sym_to_class, class_to_sym, g.symmetric_key(p), sym_class[swap]));
            REQUIRE(agree(canon_to_class, class_to_canon, g.canonical_key(p), mover_class));
            // symmetric_key keeps the side to move, so it tells a position from its colour swap.
            CHECK(g.symmetric_key(p) != g.symmetric_key(hand_color_swap(g, p)));
          }
      }
    CHECK(canon_to_class.size() < raw_to_fen.size());  // the classes really merge positions
  }
}

TEST_CASE("every position of random games, ends included, prints and parses back to itself",
          "[rules][notation][round-trip]") {
  std::mt19937_64 rng(42);
  for (const char* variant : {"drop16", "3x3:NBRK", "4x3:QK/rnk", "2x2:NK", "5x4:NBK", "8x8:NK"}) {
    INFO(variant);
    const Game g = game_of(variant);
    const auto seen = conformance::check_round_trips(
        g, g.start(), 40, 200, rng, [&](const Position& p) { return drop::to_fen(g, p); },
        [&](const std::string& fen) { return drop::parse_fen(g, fen); });
    CHECK(seen.positions > 40);
    CHECK(seen.ends > 0);
  }
}

// Boards of more than 32 squares have no byte tables for their symmetries (geometry.cpp); this
// once built them with shifts past 32 bits, which UBSan caught.
TEST_CASE("boards of more than 32 squares", "[rules][large-board]") {
  // 8x8: White Q d4 north d5-d7 empty then d8 (r); south d1 (k); east e4-g4 empty then h4 (own
  // B); west b4 (own R) hides a4 (n); NE e5 f6 then g7 (q), which hides h8 (b); NW c5 b6 a7
  // empty; SE e3 then f2 (n); SW c3 b2 a1 empty. B h4: NW g5 f6 e7 then d8 (r); SW g3 then f2.
  // R b4: east c4 then d4 (own Q), west a4 (n), files b5-b8 and b3-b1 empty.
  CHECK(moves_of(game_of("8x8:NNBBRRQK"), "3r3b/6q1/8/8/nR1Q3B/8/5n2/3k4[] w") ==
        MoveSet{"d4d8", "d4d1", "d4h4", "d4b4", "d4g7", "d4f2", "h4d8", "h4f2", "b4d4", "b4a4"});
  CHECK_FALSE(game_of("8x8:NNBBRRQK").keys_fit());
  std::mt19937 rng(64);
  for (const char* variant : kLargeVariants) {
    check_against_reference(variant, rng);
    check_make_unmake(variant, rng);
    check_symmetric_perft(variant, rng);
  }
}
