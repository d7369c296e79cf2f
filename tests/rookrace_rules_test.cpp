// The rook race (shared/games/ROOK-RACE.md): the bitboard engine against the shared perft vectors,
// against moves and results worked out by hand from the rules, and against the plain mailbox
// engine (rules/rookrace/reference_rules.h) on random positions of every board size; FEN, keys
// and variants; every malformed FEN, move and variant refused.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/rookrace/game.h"
#include "rules/rookrace/notation.h"
#include "rules/rookrace/reference_rules.h"
#include "rules/rookrace/variant.h"
#include "solver/game_concept.h"
#include "solver/hashed_perft.h"
#include "solver/perft.h"
#include "tests/conformance.h"
#include "tests/test_support.h"

namespace {

using rookrace::Game;
using rookrace::Position;
namespace reference = rookrace::reference;

static_assert(solver::PerftGame<Game> && solver::KeyedGame<Game>);

Game game_of(const char* variant) {
  return Game(rookrace::parse_variant(variant));
}

conformance::Text<Game> text_of(const Game& g) {
  return {[&g](const Position& p) { return rookrace::to_fen(g, p); },
          [&g](const std::string& fen) { return rookrace::parse_fen(g, fen); },
          [&g](const Position&, rookrace::Move m) { return rookrace::move_name(g, m); },
          [&g](const Position& p, const std::string& name) {
            return rookrace::parse_move(g, p, name);
          }};
}

std::set<std::string> move_names(const Game& g, const Position& p) {
  rookrace::MoveList list;
  g.generate(p, list);
  std::set<std::string> out;
  for (rookrace::Move m : list) out.insert(rookrace::move_name(g, m));
  return out;
}

std::set<std::string> reference_moves(const std::string& fen) {
  const auto moves = reference::legal_moves(reference::from_fen(fen));
  return {moves.begin(), moves.end()};
}

// A random legal-looking position on an n x n board with up to `pawns` a side, built as text so
// that the FEN parser and the reference engine both read it: rooks anywhere (the mover's not on
// its goal), pawns with probability `fill` a square where the block and corner rules allow,
// reserves and block counters at random.
std::string random_placement(int n, int pawns, double fill, std::mt19937& rng) {
  reference::Board b;
  b.n = n;
  b.cells.assign(std::size_t(n * n), '.');
  std::uniform_int_distribution<int> square(0, n * n - 1);
  b.side = int(rng() % 2);
  const int white = square(rng);
  int black = square(rng);
  while (black == white) black = square(rng);
  b.cells[std::size_t(white)] = 'R';
  b.cells[std::size_t(black)] = 'r';
  const int mover_rook = b.side == 0 ? white : black, mover_goal = b.side == 0 ? n * n - 1 : 0;
  if (mover_rook == mover_goal) std::swap(b.cells[std::size_t(white)], b.cells[std::size_t(black)]);
  std::bernoulli_distribution occupied(fill);
  int on_board[2] = {0, 0};
  for (int sq = 0; sq < n * n; ++sq) {
    const int s = int(rng() % 2);
    const int f = sq % n, r = sq / n;
    if (b.cells[std::size_t(sq)] != '.' || on_board[s] == pawns || !occupied(rng)) continue;
    if (sq == (s == 0 ? 0 : n * n - 1)) continue;
    bool taken = false;
    for (int t = 0; t < n * n; ++t)
      taken |=
          b.cells[std::size_t(t)] == b.pawn_letter(s) && reference::same_block(t % n, t / n, f, r);
    if (taken) continue;
    b.cells[std::size_t(sq)] = b.pawn_letter(s);
    ++on_board[s];
  }
  for (int s = 0; s < 2; ++s) {
    b.reserve[s] = int(rng() % std::uint32_t(pawns - on_board[s] + 1));
    b.inside[s] = int(rng() % 3);
  }
  return reference::to_fen(b);
}

// Positions reached from `start` by 0..max_plies random reference moves (fewer if the game ends).
std::vector<std::string> random_walk(const std::string& start, int max_plies, std::mt19937& rng) {
  return conformance::random_walk(reference::from_fen(start), max_plies, rng,
                                  [](const reference::Board& b) { return reference::to_fen(b); });
}

struct Sample {
  std::string variant, fen;
};

// Positions of every board size: random play from each start, and random placements followed by
// random play.
std::vector<Sample> sample_positions(std::mt19937& rng, int per_variant) {
  std::vector<Sample> out;
  for (const char* v : {"rookrace:2x2:2", "rookrace:4x4:0", "rookrace:4x4:3", "rookrace:6x6:5",
                        "rookrace", "rookrace:8x8:20"}) {
    const Game g = game_of(v);
    for (int i = 0; i < per_variant; ++i) {
      const auto walk = random_walk(rookrace::to_fen(g, g.start()), 60, rng);
      out.push_back({v, walk[rng() % walk.size()]});
      const auto placed =
          random_walk(random_placement(g.size(), g.variant().pawns, 0.3, rng), 12, rng);
      out.push_back({v, placed[rng() % placed.size()]});
    }
  }
  return out;
}

// The images of a position under the rules' symmetries, built by hand from coordinates: the
// a1-h8 reflection keeps the colours; the half turn and the a8-h1 reflection swap them (and so
// the side to move, the reserves and the counters).
std::vector<reference::Board> hand_images(const reference::Board& b) {
  const int m = b.n - 1;
  std::vector<reference::Board> out;
  for (int kind = 0; kind < 4; ++kind) {
    reference::Board image = b;
    const bool swap = kind >= 2;
    for (int r = 0; r < b.n; ++r)
      for (int f = 0; f < b.n; ++f) {
        int f2 = f, r2 = r;
        if (kind == 1) f2 = r, r2 = f;
        if (kind == 2) f2 = m - f, r2 = m - r;
        if (kind == 3) f2 = m - r, r2 = m - f;
        char c = b.at(f, r);
        if (swap && c != '.')
          c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c))
                                                          : char(std::toupper(c));
        image.at(f2, r2) = c;
      }
    if (swap) {
      image.side ^= 1;
      std::swap(image.reserve[0], image.reserve[1]);
      std::swap(image.inside[0], image.inside[1]);
    }
    out.push_back(image);
  }
  return out;
}

}  // namespace

TEST_CASE("rookrace: perft of the starts matches ../shared/vectors/rookrace-start-perft.txt",
          "[rookrace][vectors]") {
  int lines = 0;
  for (const std::string& line : test_support::vector_lines("rookrace-start-perft.txt")) {
    INFO(line);
    int n = 0, pawns = 0, depth = 0;
    unsigned long long nodes = 0;
    REQUIRE(std::sscanf(line.c_str(), "%d|%d|%d|%llu", &n, &pawns, &depth, &nodes) == 4);
    const Game g(rookrace::Variant{n, pawns});
    Position p = g.start();
    CHECK(solver::perft(g, p, depth) == nodes);
    CHECK(reference::perft(reference::from_fen(rookrace::to_fen(g, p)), depth) == nodes);
    ++lines;
  }
  CHECK(lines >= 5);
}

TEST_CASE("rookrace: the starts' moves, worked out by hand", "[rookrace]") {
  const Game g = game_of("rookrace:4x4:2");
  const Position p = g.start();
  CHECK(rookrace::to_fen(g, p) == "3r/4/4/R3 [2,2] [-,-] w");
  // The rook along the first rank and the a-file; a drop on each empty square (a1 holds the rook).
  std::set<std::string> expected = {"a1b1", "a1c1", "a1d1", "a1a2", "a1a3", "a1a4"};
  for (const char* sq :
       {"b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4"})
    expected.insert(std::string("P@") + sq);
  CHECK(move_names(g, p) == expected);
  CHECK(g.count_moves(p) == 20);
  const Game big = game_of("rookrace");
  CHECK(rookrace::to_fen(big, big.start()) == "7r/8/8/8/8/8/8/R7 [8,8] [-,-] w");
  CHECK(big.count_moves(big.start()) == 14 + 62);
}

TEST_CASE("rookrace: moves and their results worked out by hand", "[rookrace]") {
  const Game g = game_of("rookrace:4x4:2");
  const conformance::WorkedMove cases[] = {
      // A rook move inside its block counts; the second one makes 2.
      {"3r/4/4/R3 [2,2] [-,-] w", "a1b1", "3r/4/4/1R2 [2,2] [1,-] b"},
      {"3r/4/4/1R2 [2,2] [1,-] w", "b1b2", "3r/4/1R2/4 [2,2] [2,-] b"},
      // Leaving the block resets the count; a drop leaves it as it is.
      {"3r/4/1R2/4 [2,2] [2,-] w", "b2b4", "1R1r/4/4/4 [2,2] [-,-] b"},
      {"3r/4/1R2/4 [2,2] [2,-] w", "P@d1", "3r/4/1R2/3P [1,2] [2,-] b"},
      // A rook takes its own pawn (gone for good, not back to the reserve), inside the block.
      {"3r/4/PR2/4 [1,2] [1,-] w", "b2a2", "3r/4/R3/4 [1,2] [2,-] b"},
      // Black's moves count on Black's counter.
      {"3r/4/4/R3 [2,2] [-,1] b", "d4c4", "2r1/4/4/R3 [2,2] [-,2] w"},
      // The race: White's rook takes its own pawn on Black's corner d4 and wins (below).
      {"R2P/4/4/3r [1,2] [-,-] w", "a4d4", "3R/4/4/3r [1,2] [-,-] b"},
  };
  for (const auto& c : cases)
    conformance::check_worked_move(
        g, text_of(g), c, reference::to_fen(reference::play(reference::from_fen(c.fen), c.move)));
  // Black, to move after White's rook reached d4, has lost: no moves, though it has some.
  const Position won = rookrace::parse_fen(g, "3R/4/4/3r [1,2] [-,-] b");
  CHECK(g.is_terminal(won));
  CHECK(move_names(g, won).empty());
  CHECK(reference_moves("3R/4/4/3r [1,2] [-,-] b").empty());
  // After two inside moves the rook must leave its block: b2 to b1, a2 (and a1) are gone, b3 and
  // b4 stay, and so do the drops.
  const Position two = rookrace::parse_fen(g, "3r/4/1R2/4 [2,2] [2,-] w");
  auto names = move_names(g, two);
  CHECK(!names.count("b2b1"));
  CHECK(!names.count("b2a2"));
  CHECK(names.count("b2b3"));
  CHECK(names.count("b2c2"));
  CHECK(names.count("P@a1") == 0);  // White's own corner
  CHECK(names.count("P@d4") == 0);  // occupied
  // With one inside move it may make a second.
  CHECK(move_names(g, rookrace::parse_fen(g, "3r/4/1R2/4 [2,2] [1,-] w")).count("b2b1"));
  // Rooks stop before any piece: an enemy pawn or the enemy rook is never taken, nor jumped.
  names = move_names(g, rookrace::parse_fen(g, "r3/p3/4/R1p1 [2,0] [-,-] w"));
  CHECK(names.count("a1a2"));
  CHECK(!names.count("a1a3"));  // Black's pawn
  CHECK(names.count("a1b1"));
  CHECK(!names.count("a1c1"));
  CHECK(!names.count("a1d1"));  // beyond it
  // A block holds one pawn of each colour: White's pawn on b2 forbids a1..b2 to White, not Black.
  const Position block = rookrace::parse_fen(g, "3r/4/1P2/R3 [1,2] [-,-] w");
  names = move_names(g, block);
  for (const char* sq : {"b1", "a2"}) CHECK(!names.count(std::string("P@") + sq));
  CHECK(names.count("P@c1"));
  const Position black = rookrace::parse_fen(g, "3r/4/1P2/R3 [1,2] [-,-] b");
  CHECK(move_names(g, black).count("P@a2"));
  CHECK(!move_names(g, black).count("P@d4"));
  // Black may not drop on its own corner h8 (here d4) once its rook has left it.
  CHECK(!move_names(g, rookrace::parse_fen(g, "2r1/4/4/R3 [2,2] [-,-] b")).count("P@d4"));
  CHECK(move_names(g, rookrace::parse_fen(g, "2r1/4/4/1R2 [2,2] [-,-] w")).count("P@d4"));
  // No move loses: White's rook walled in by Black's pawn and rook, no reserve. (Two Black pawns
  // could not do it: a2 and b1 are in one block.)
  const Position stuck = rookrace::parse_fen(g, "4/4/p3/Rr2 [0,0] [-,-] w");
  CHECK(g.is_terminal(stuck));
  CHECK(g.count_moves(stuck) == 0);
  // The race lost: Black's rook on a1 (White's rook elsewhere), White to move has no moves.
  const Position raced = rookrace::parse_fen(g, "4/4/4/rR2 [2,2] [-,-] w");
  CHECK(g.is_terminal(raced));
  CHECK(move_names(g, raced).empty());
  // 2x2: every rook move is inside the one block; after two, the rook cannot move at all.
  const Game tiny = game_of("rookrace:2x2:0");
  CHECK(move_names(tiny, rookrace::parse_fen(tiny, "1r/R1 [0,0] [2,-] w")).empty());
  CHECK(move_names(tiny, rookrace::parse_fen(tiny, "1r/R1 [0,0] [1,-] w")) ==
        std::set<std::string>{"a1b1", "a1a2"});
}

TEST_CASE("rookrace: fast and reference engines agree on random positions of every board",
          "[rookrace][reference]") {
  std::mt19937 rng(20261201);
  const auto samples = sample_positions(rng, 25);
  int moves_checked = 0;
  for (const Sample& s : samples) {
    INFO(s.variant << " " << s.fen);
    const Game g = game_of(s.variant.c_str());
    Position p = rookrace::parse_fen(g, s.fen);
    REQUIRE(rookrace::to_fen(g, p) == s.fen);  // FEN round trip on canonical text
    const auto board = reference::from_fen(s.fen);
    moves_checked += conformance::check_moves(
        g, p, text_of(g), reference::legal_moves(board),
        [&](const std::string& name, const Position& after) {
          CHECK(rookrace::to_fen(g, after) == reference::to_fen(reference::play(board, name)));
        });
    CHECK(solver::perft(g, p, 3) == reference::perft(board, 3));
  }
  CHECK(moves_checked > 2500);
}

TEST_CASE("rookrace: perft of several starts agrees with the reference engine",
          "[rookrace][reference]") {
  struct Start {
    const char* variant;
    int depth;
  };
  for (const Start s :
       {Start{"rookrace:2x2:0", 8}, Start{"rookrace:2x2:2", 7}, Start{"rookrace:4x4:0", 7},
        Start{"rookrace:4x4:1", 5}, Start{"rookrace:4x4:4", 4}, Start{"rookrace:6x6:2", 4},
        Start{"rookrace:6x6:6", 3}, Start{"rookrace", 3}}) {
    INFO(s.variant << " depth " << s.depth);
    const Game g = game_of(s.variant);
    Position p = g.start();
    CHECK(solver::perft(g, p, s.depth) ==
          reference::perft(reference::from_fen(rookrace::to_fen(g, p)), s.depth));
  }
}

TEST_CASE("rookrace: keys are exact, and canonical keys equal exactly on isomorphic positions",
          "[rookrace][keys]") {
  std::mt19937 rng(7);
  const auto samples = sample_positions(rng, 12);
  for (const Sample& s : samples) {
    INFO(s.variant << " " << s.fen);
    const Game g = game_of(s.variant.c_str());
    Position p = rookrace::parse_fen(g, s.fen);
    std::vector<Position> images;
    for (const auto& image : hand_images(reference::from_fen(s.fen)))
      images.push_back(rookrace::parse_fen(g, reference::to_fen(image)));
    conformance::check_same_class(g, p, images, 2);
    const std::uint64_t nodes = solver::perft(g, p, 2);
    std::set<rookrace::Key> same_colours, isomorphic;
    for (std::size_t k = 0; k < images.size(); ++k) {
      INFO("image " << k << ": " << rookrace::to_fen(g, images[k]));
      if (k < 2) CHECK(g.symmetric_key(images[k]) == g.symmetric_key(p));
      (k < 2 ? same_colours : isomorphic).insert(g.raw_key(images[k]));
    }
    isomorphic.insert(same_colours.begin(), same_colours.end());
    // The least image is an image: equal canonical keys mean isomorphic positions.
    CHECK(same_colours.count(g.raw_key(g.from_key(g.symmetric_key(p)))) == 1);
    Position rep = g.from_key(g.canonical_key(p));
    CHECK(rep.side_to_move == rookrace::kWhite);
    CHECK(isomorphic.count(g.raw_key(rep)) == 1);
    CHECK(solver::perft(g, rep, 2) == nodes);
  }
  // Positions that differ only in a counter, a reserve or the side to move have different keys.
  const Game g = game_of("rookrace:4x4:3");
  std::set<rookrace::Key> keys;
  for (const char* fen :
       {"3r/4/4/R3 [3,3] [-,-] w", "3r/4/4/R3 [3,3] [1,-] w", "3r/4/4/R3 [3,3] [-,1] w",
        "3r/4/4/R3 [2,3] [-,-] w", "3r/4/4/R3 [3,2] [-,-] w", "3r/4/4/R3 [3,3] [-,-] b"})
    keys.insert(g.raw_key(rookrace::parse_fen(g, fen)));
  CHECK(keys.size() == 6);
}

TEST_CASE("rookrace: hashed perft on canonical keys equals plain perft", "[rookrace][keys]") {
  for (const char* v : {"rookrace:4x4:2", "rookrace:6x6:3", "rookrace"}) {
    INFO(v);
    const Game g = game_of(v);
    Position p = g.start(), q = g.start();
    solver::PerftTable<rookrace::Key> table(1 << 16);
    CHECK(solver::hashed_perft(g, p, 4, table) == solver::perft(g, q, 4));
  }
}

TEST_CASE("rookrace: variant names", "[rookrace][notation]") {
  CHECK(rookrace::parse_variant("rookrace") == rookrace::Variant{8, 8});
  CHECK(rookrace::parse_variant("rookrace:4x4:2") == rookrace::Variant{4, 2});
  CHECK(rookrace::parse_variant("rookrace:8x8:8").name() == "rookrace");
  for (const char* name : {"rookrace:2x2:0", "rookrace:6x6:127", "rookrace:8x8:0"})
    CHECK(rookrace::parse_variant(name).name() == name);
  conformance::check_refused<rookrace::ParseError>(
      {"", "rook", "rookrace:", "rookrace:4x4", "rookrace:4x4:", "rookrace:5x5:2", "rookrace:4x6:2",
       "rookrace:10x10:2", "rookrace:0x0:1", "rookrace:4x4:128", "rookrace:4x4:-1",
       "rookrace:4x4:2:1", "rookrace:4X4:2", "rookrace:x4:2", "rookrace:4x4:a", "rookracex"},
      [](const std::string& name) { return rookrace::parse_variant(name); });
}

TEST_CASE("rookrace: FEN forms print and read back", "[rookrace][notation]") {
  const Game g = game_of("rookrace:4x4:3");
  for (const char* fen :
       {"3r/4/4/R3 [3,3] [-,-] w", "R2P/1p2/4/3r [1,2] [2,1] b", "4/pP2/r3/1R2 [0,0] [-,2] w"}) {
    CHECK(rookrace::to_fen(g, rookrace::parse_fen(g, fen)) == fen);
  }
  const Position p = rookrace::parse_fen(g, "  3r/4/4/R3\t[3,3]  [-,-] b ");
  CHECK(rookrace::to_fen(g, p) == "3r/4/4/R3 [3,3] [-,-] b");
  CHECK(rookrace::board_diagram(g, p) ==
        "4  . . . r\n"
        "3  . . . .\n"
        "2  . . . .\n"
        "1  R . . .\n"
        "   a b c d\n"
        "reserves: White 3, Black 3; rook moves in a row inside the block: White 0, Black 0\n"
        "Black to move\n");
}

TEST_CASE("rookrace: every position of random games, ends included, prints and parses back",
          "[rookrace][notation][round-trip]") {
  std::mt19937_64 rng(42);
  for (const char* variant : {"rookrace:2x2:0", "rookrace:2x2:3", "rookrace:4x4:2",
                              "rookrace:6x6:1", "rookrace", "rookrace:8x8:127"}) {
    INFO(variant);
    const Game g = game_of(variant);
    const auto seen = conformance::check_round_trips(
        g, g.start(), 40, 300, rng, [&](const Position& p) { return rookrace::to_fen(g, p); },
        [&](const std::string& fen) { return rookrace::parse_fen(g, fen); });
    CHECK(seen.ends > 0);
  }
}

TEST_CASE("rookrace: every malformed or unreachable FEN is a ParseError", "[rookrace][notation]") {
  const Game g = game_of("rookrace:4x4:3");
  const std::vector<std::string> bad = {
      "",                             // nothing
      "3r/4/4/R3",                    // no other field
      "3r/4/4/R3 [3,3] [-,-]",        // no side to move
      "3r/4/4/R3 [3,3] w",            // no counters
      "3r/4/4/R3 [3,3] [-,-] w 0",    // something after the side
      "3r/4/4/R3 [3,3] [-,-] x",      // unknown side
      "3r/4/4/R3 [3,3] [-,-] W",      // sides are lower case
      "3r/4/4/R3 [3,3] [-,0] w",      // a counter is '-', 1 or 2
      "3r/4/4/R3 [3,3] [-,3] w",      // at most 2
      "3r/4/4/R3 [3,3] [--] w",       // no comma
      "3r/4/4/R3 [4,3] [-,-] w",      // more than P in reserve
      "3r/4/4/R3 [3,x] [-,-] w",      // not a number
      "3r/4/4/R3 (3,3) [-,-] w",      // brackets
      "3r/4/4/R3 [,3] [-,-] w",       // empty reserve
      "3r/P3/4/R3 [3,3] [-,-] w",     // four White pawns: one on the board, three in reserve
      "3r/4/4/R3 [3,3] [-,-] w w",    // two sides
      "3r/4/4 [3,3] [-,-] w",         // 3 ranks on a 4x4 board
      "3r/4/4/4/R3 [3,3] [-,-] w",    // 5 ranks
      "3r/4/5/R3 [3,3] [-,-] w",      // a rank too long
      "3r/4/3/R3 [3,3] [-,-] w",      // a rank too short
      "3r/4/4/R3P [3,3] [-,-] w",     // a piece past the edge
      "3r/4/22/R3 [3,3] [-,-] w",     // two digits in a row
      "3r/4/04/R3 [3,3] [-,-] w",     // zero
      "3r/4/4/R2x [3,3] [-,-] w",     // unknown letter
      "3r/4/4/R2K [3,3] [-,-] w",     // a chess king
      "3r/4/4/R2. [3,3] [-,-] w",     // '.' is not an empty square
      "3r/4/4/R2\xff [3,3] [-,-] w",  // a non-ASCII byte
      "3r/4/4/4 [3,3] [-,-] w",       // no White rook
      "3r/4/4/RR2 [3,3] [-,-] w",     // two White rooks
      "3r/4/4/Rr2 [3,3] [-,-] w",     // two Black rooks
      "3r/4/PP2/R3 [1,3] [-,-] w",    // two White pawns in one block
      "3r/2pp/4/R3 [3,1] [-,-] w",    // two Black pawns in one block
      "2rp/4/4/R3 [3,2] [-,-] w",     // a Black pawn on Black's corner
      "3r/4/4/PR2 [2,3] [-,-] w",     // a White pawn on a1, its own corner
      "3R/4/4/r3 [3,3] [-,-] w",      // White, to move, has already won on d4
      "3R/4/4/r3 [3,3] [-,-] b",      // both rooks home: Black, to move, won already
      "3r//4/R3 [3,3] [-,-] w",       // an empty rank
      "/3r/4/4/R3 [3,3] [-,-] w",     // a leading slash
  };
  conformance::check_refused<rookrace::ParseError>(
      bad, [&](const std::string& fen) { return rookrace::parse_fen(g, fen); });
  CHECK_NOTHROW(rookrace::parse_fen(g, "3r/4/P3/1R2 [2,3] [-,-] w"));
  // Black's rook on White's corner with White to move: White has lost, a real position.
  CHECK_NOTHROW(rookrace::parse_fen(g, "4/4/1R2/r3 [3,3] [-,-] w"));
}

TEST_CASE("rookrace: every malformed or illegal move is a ParseError", "[rookrace][notation]") {
  const Game g = game_of("rookrace:4x4:2");
  const Position p = g.start();
  conformance::check_refused<rookrace::ParseError>(
      {"",     "a1",  "a1a",  "a1a2x", " a1a2", "a1a2 ", "A1A2", "p@b2", "N@b2", "P@a1", "P@d4",
       "P@e1", "P@b", "a1b2", "a1e1",  "d4d3",  "b1b2",  "a1a1", "P-b2", "Pb2",  "@b2"},
      [&](const std::string& move) { return rookrace::parse_move(g, p, move); });
  CHECK(rookrace::move_name(g, rookrace::parse_move(g, p, "P@b2")) == "P@b2");
  CHECK(rookrace::move_name(g, rookrace::parse_move(g, p, "a1a4")) == "a1a4");
  // The game is over: Black's rook is on a1.
  const Position over = rookrace::parse_fen(g, "4/4/1R2/r3 [2,2] [-,-] w");
  CHECK_THROWS_AS(rookrace::parse_move(g, over, "P@c3"), rookrace::ParseError);
}

// Not run by default: `unit_tests "[.rookrace-reference-perft]"` compares perft(4) of the 8x8 start
// with the reference engine's (27.6 million leaves, about 8 s for the reference).
TEST_CASE("rookrace: perft(4) of the 8x8 start agrees with the reference engine",
          "[.rookrace-reference-perft]") {
  const Game g = game_of("rookrace");
  Position p = g.start();
  const std::uint64_t fast = solver::perft(g, p, 4);
  const std::uint64_t plain = reference::perft(reference::from_fen(rookrace::to_fen(g, p)), 4);
  std::printf("perft(4) of the 8x8 start: fast %llu, reference %llu\n",
              static_cast<unsigned long long>(fast), static_cast<unsigned long long>(plain));
  CHECK(fast == plain);
}

TEST_CASE("rookrace: mangled FENs, moves and variants are refused or read back, never a crash",
          "[rookrace][notation]") {
  std::mt19937 rng(99);
  const std::string alphabet = "rRpP12345678/[],- wbx0@9\t";
  const Game g = game_of("rookrace:6x6:4");
  const auto fens = conformance::check_mangled<rookrace::ParseError>(
      3000, [&] { return test_support::mangled(random_placement(6, 4, 0.3, rng), alphabet, rng); },
      [&](const std::string& fen) { return rookrace::parse_fen(g, fen); },
      [&](const Position& p) { return rookrace::to_fen(g, p); },
      [&](const Position& p) {
        // Mangled moves on it are refused the same way.
        std::string move = "a1a2";
        move[rng() % 4] = alphabet[rng() % alphabet.size()];
        try {
          rookrace::parse_move(g, p, move);
        } catch (const rookrace::ParseError&) {
        }
      });
  CHECK(fens.accepted > 20);
  CHECK(fens.refused > 1000);
  conformance::check_mangled<rookrace::ParseError>(
      2000,
      [&] {
        std::string name = "rookrace:4x4:2";
        name[rng() % name.size()] = "x:0123456789r"[rng() % 13];
        return name;
      },
      [](const std::string& name) { return rookrace::parse_variant(name); },
      [](const rookrace::Variant& v) { return v.name(); });
}
