// Spock (shared/games/SPOCK.md): the bitboard engine against the published perft, against move
// lists and results worked out by hand from the rules, and against the plain mailbox engine
// (rules/spock/reference_rules.h) on random positions of several board sizes; FEN and keys; every
// malformed FEN and move refused.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/spock/game.h"
#include "rules/spock/material.h"
#include "rules/spock/notation.h"
#include "rules/spock/reference_rules.h"
#include "solver/game_concept.h"
#include "solver/hashed_perft.h"
#include "solver/perft.h"
#include "tests/conformance.h"
#include "tests/test_support.h"

namespace {

using spock::Game;
using spock::Position;
namespace reference = spock::reference;

static_assert(solver::PerftGame<Game> && solver::KeyedGame<Game>);

std::set<std::string> move_names(const Game& g, const Position& p) {
  spock::MoveList list;
  g.generate(p, list);
  std::set<std::string> out;
  for (spock::Move m : list) out.insert(spock::move_name(g, m));
  return out;
}

conformance::Text<Game> text_of(const Game& g) {
  return {
      [&g](const Position& p) { return spock::to_fen(g, p); },
      [](const std::string& fen) { return spock::parse_fen(fen).position; },
      [&g](const Position&, spock::Move m) { return spock::move_name(g, m); },
      [&g](const Position& p, const std::string& name) { return spock::parse_move(g, p, name); }};
}

std::uint64_t fast_perft(const std::string& fen, int depth) {
  auto s = spock::parse_fen(fen);
  return solver::perft(s.game, s.position, depth);
}

// A random placement on a WxH board: one Spock a side, then each other square empty or holding a
// random piece of either colour with probability `fill`. Built as text, so the FEN parser and the
// reference engine both read it.
std::string random_placement(int width, int height, double fill, std::mt19937& rng) {
  reference::Board b;
  b.width = width, b.height = height;
  b.cells.assign(width * height, '.');
  std::uniform_int_distribution<int> square(0, width * height - 1);
  const int blue = square(rng);
  int red = square(rng);
  while (red == blue) red = square(rng);
  b.cells[blue] = 'K';
  b.cells[red] = 'k';
  std::bernoulli_distribution occupied(fill);
  const std::string letters = "RSLPKrslpk";
  for (char& c : b.cells)
    if (c == '.' && occupied(rng)) c = letters[rng() % letters.size()];
  b.side = int(rng() % 2);
  return reference::to_fen(b);
}

// Positions reached from `start` by 0..max_plies random reference moves (fewer if the game ends).
std::vector<std::string> random_walk(const std::string& start, int max_plies, std::mt19937& rng) {
  return conformance::random_walk(reference::from_fen(start), max_plies, rng,
                                  [](const reference::Board& b) { return reference::to_fen(b); });
}

// Positions on many board sizes: the 5x5 game from its start and random placements on 3x3, 4x4,
// 3x5 and 5x5 boards, each followed by random play.
std::vector<std::string> sample_positions(std::mt19937& rng, int per_board) {
  std::vector<std::string> out;
  for (int i = 0; i < per_board; ++i) {
    const auto walk = random_walk(spock::start_fen(), 40, rng);
    out.push_back(walk[rng() % walk.size()]);
  }
  for (auto [w, h] : {std::pair{3, 3}, {4, 4}, {3, 5}, {5, 3}, {5, 5}})
    for (int i = 0; i < per_board; ++i) {
      const auto walk = random_walk(random_placement(w, h, 0.45, rng), 12, rng);
      out.push_back(walk[rng() % walk.size()]);
    }
  return out;
}

// The board's images built by hand from coordinates, and with colours swapped: positions whose
// game trees are the same as this one's.
std::vector<reference::Board> hand_images(const reference::Board& b, bool swap_colours) {
  const int w1 = b.width - 1, h1 = b.height - 1;
  std::vector<std::pair<int, int> (*)(int, int, int, int)> maps = {
      [](int f, int r, int, int) {
        return std::pair{f, r};
      },
      [](int f, int r, int w1, int) {
        return std::pair{w1 - f, r};
      },
      [](int f, int r, int, int h1) {
        return std::pair{f, h1 - r};
      },
      [](int f, int r, int w1, int h1) {
        return std::pair{w1 - f, h1 - r};
      }};
  if (b.width == b.height) {
    maps.push_back([](int f, int r, int, int) { return std::pair{r, f}; });
    maps.push_back([](int f, int r, int w1, int) { return std::pair{w1 - r, f}; });
    maps.push_back([](int f, int r, int w1, int) { return std::pair{r, w1 - f}; });
    maps.push_back([](int f, int r, int w1, int) { return std::pair{w1 - r, w1 - f}; });
  }
  std::vector<reference::Board> out;
  for (auto map : maps) {
    reference::Board image = b;
    for (int r = 0; r <= h1; ++r)
      for (int f = 0; f <= w1; ++f) {
        const auto [f2, r2] = map(f, r, w1, h1);
        char c = b.at(f, r);
        if (swap_colours && c != '.')
          c = std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c));
        image.at(f2, r2) = c;
      }
    if (swap_colours) image.side ^= 1;
    out.push_back(image);
  }
  return out;
}

}  // namespace

TEST_CASE("spock: perft of the start matches ../shared/vectors/spock-start-perft.txt",
          "[spock][vectors]") {
  int lines = 0;
  for (const std::string& line : test_support::vector_lines("spock-start-perft.txt")) {
    INFO(line);
    const auto bar = line.find('|');
    REQUIRE(bar != std::string::npos);
    const int depth = std::stoi(line.substr(0, bar));
    const std::uint64_t nodes = std::stoull(line.substr(bar + 1));
    CHECK(fast_perft(spock::start_fen(), depth) == nodes);
    CHECK(reference::perft(reference::from_fen(spock::start_fen()), depth) == nodes);
    ++lines;
  }
  CHECK(lines >= 3);
}

TEST_CASE("spock: the start's 21 moves, worked out by hand", "[spock]") {
  const auto s = spock::parse_fen(spock::start_fen());
  CHECK(s.game.width() == 5);
  CHECK(s.game.height() == 5);
  // Rocks step, or run over their row of friends to the edge (no move); Papers slide over the Rock
  // in front and take the enemy Rock; Scissors cross c2/a2 diagonally and stop before the enemy
  // Rock they cannot take; the Spock leaps only onto its own Rocks a2 and e2.
  const std::set<std::string> expected = {"a2a3", "a2b3", "b2a3", "b2b3", "b2c3", "c2b3", "c2c3",
                                          "c2d3", "d2c3", "d2d3", "d2e3", "e2d3", "e2e3", "a1a3",
                                          "a1a4", "e1e3", "e1e4", "b1d3", "d1b3", "c1a2", "c1e2"};
  CHECK(move_names(s.game, s.position) == expected);
  CHECK(s.game.count_moves(s.position) == expected.size());
}

TEST_CASE("spock: moves and their results worked out by hand", "[spock]") {
  const conformance::WorkedMove cases[] = {
      // A Spock takes an enemy Paper: a friendly Spock appears where it stood.
      {"3k/2p1/4/1K2 w", "b1c3", "3k/2K1/4/1K2 b"},
      // ... lands on its own Lizard: a Paper appears.
      {"3k/2L1/4/1K2 w", "b1c3", "3k/2K1/4/1P2 b"},
      // ... takes an enemy Spock (Red keeps another): a friendly Rock appears.
      {"3k/2k1/4/1K2 w", "b1c3", "3k/2K1/4/1R2 b"},
      // ... takes a Rock, a Scissors: Scissors, Lizard.
      {"3k/2r1/4/1K2 w", "b1c3", "3k/2K1/4/1S2 b"},
      {"3k/2S1/4/1K2 w", "b1c3", "3k/2K1/4/1L2 b"},
      // A Rock runs over two friends to the first free square; over a friend onto a Lizard.
      {"k3/4/3K/RRR1 w", "a1d1", "k3/4/3K/1RRR b"},
      {"k3/4/3K/RRl1 w", "a1c1", "k3/4/3K/1RR1 b"},
      // A Red Lizard takes Blue's only Spock through its own Paper: Blue has lost.
      {"4/1K2/1p2/1l1k b", "b1b3", "4/1l2/1p2/3k w"},
  };
  for (const auto& c : cases) {
    const Game game = spock::parse_fen(c.fen).game;
    conformance::check_worked_move(
        game, text_of(game), c,
        reference::to_fen(reference::play(reference::from_fen(c.fen), c.move)));
  }
  // Blue without a Spock has lost: no moves, terminal, though its Rook could move.
  const auto lost = spock::parse_fen("4/1l2/1p1R/3k w");
  CHECK(lost.game.is_terminal(lost.position));
  CHECK(lost.game.count_moves(lost.position) == 0);
  CHECK(move_names(lost.game, lost.position).empty());
  // A Spock with nothing to leap onto and no other piece: no move, lost too.
  const auto stuck = spock::parse_fen("k3/4/4/K3 w");
  CHECK(stuck.game.is_terminal(stuck.position));
  CHECK(move_names(stuck.game, stuck.position).empty());
  // Sliders stop on any free square over friends, take only what they may, are blocked otherwise:
  // a Blue Paper a1 with its Rock a2, a Red Scissors a4 (not Paper's prey) and a Red Rock c1.
  const auto paper = spock::parse_fen("k3/s3/4/RRK1/P1r1 w");
  const auto names = move_names(paper.game, paper.position);
  CHECK(names.count("a1a3"));
  CHECK(!names.count("a1a4"));
  CHECK(names.count("a1b1"));
  CHECK(names.count("a1c1"));
  CHECK(!names.count("a1d1"));
}

TEST_CASE("spock: fast and reference engines agree on random positions of many boards",
          "[spock][reference]") {
  std::mt19937 rng(20261201);
  const auto positions = sample_positions(rng, 30);
  int moves_checked = 0;
  for (const std::string& fen : positions) {
    INFO(fen);
    auto s = spock::parse_fen(fen);
    const Game& g = s.game;
    const auto board = reference::from_fen(fen);
    REQUIRE(spock::to_fen(g, s.position) == fen);  // FEN round trip on canonical text
    const Position before = s.position;
    moves_checked += conformance::check_moves(
        g, s.position, text_of(g), reference::legal_moves(board),
        [&](const std::string& name, const Position& after) {
          CHECK(spock::to_fen(g, after) == reference::to_fen(reference::play(board, name)));
        });
    CHECK(solver::perft(g, s.position, 3) == reference::perft(board, 3));
    CHECK(s.position == before);
  }
  CHECK(moves_checked > 1000);
}

TEST_CASE("spock: perft to depth 4 agrees with the reference engine", "[spock][reference]") {
  std::mt19937 rng(4);
  std::vector<std::string> fens = {spock::start_fen()};
  for (int i = 0; i < 4; ++i) {
    const auto walk = random_walk(spock::start_fen(), 16, rng);
    fens.push_back(walk.back());
  }
  for (auto [w, h] : {std::pair{3, 3}, {4, 4}, {3, 5}})
    for (int i = 0; i < 4; ++i) fens.push_back(random_placement(w, h, 0.5, rng));
  for (const std::string& fen : fens) {
    INFO(fen);
    CHECK(fast_perft(fen, 4) == reference::perft(reference::from_fen(fen), 4));
  }
}

TEST_CASE("spock: keys are exact, and canonical keys equal exactly on isomorphic positions",
          "[spock][keys]") {
  std::mt19937 rng(7);
  auto positions = sample_positions(rng, 25);
  for (auto [w, h] : {std::pair{4, 7}, {6, 5}, {5, 6}, {3, 8}})  // up to 31 squares
    for (int i = 0; i < 10; ++i) positions.push_back(random_placement(w, h, 0.5, rng));
  for (const std::string& fen : positions) {
    INFO(fen);
    auto s = spock::parse_fen(fen);
    const Game& g = s.game;
    REQUIRE(g.keys_fit());
    CHECK(g.key_bits() == 4 * g.width() * g.height() + 1);

    // Positions with equal canonical keys have equal perft: every image and colour swap, and the
    // representative.
    const auto board = reference::from_fen(fen);
    std::vector<Position> images;
    std::set<spock::Key> same_colours, isomorphic;
    for (bool swap : {false, true})
      for (const auto& image : hand_images(board, swap)) {
        const Position q = spock::parse_fen(reference::to_fen(image)).position;
        images.push_back(q);
        if (!swap) CHECK(g.symmetric_key(q) == g.symmetric_key(s.position));
        (swap ? isomorphic : same_colours).insert(g.raw_key(q));
      }
    const Position rep = g.from_key(g.canonical_key(s.position));
    images.push_back(rep);
    conformance::check_same_class(g, s.position, images, 2);
    isomorphic.insert(same_colours.begin(), same_colours.end());
    // The least image is an image: so equal canonical keys mean isomorphic positions.
    const Position sym = g.from_key(g.symmetric_key(s.position));
    CHECK(same_colours.count(g.raw_key(sym)) == 1);
    CHECK(rep.side_to_move == spock::kBlue);
    CHECK(isomorphic.count(g.raw_key(rep)) == 1);
  }
}

TEST_CASE("spock: hashed perft on canonical keys equals plain perft", "[spock][keys]") {
  std::mt19937 rng(11);
  std::vector<std::string> fens = {spock::start_fen(), random_placement(4, 4, 0.5, rng),
                                   random_placement(3, 5, 0.5, rng)};
  for (const std::string& fen : fens) {
    INFO(fen);
    auto s = spock::parse_fen(fen);
    Position p = s.position;
    solver::PerftTable<spock::Key> table(1 << 16);
    CHECK(solver::hashed_perft(s.game, p, 5, table) == solver::perft(s.game, s.position, 5));
  }
}

TEST_CASE("spock: board sizes outside 3..8 are refused", "[spock][notation]") {
  CHECK_THROWS_AS(Game(2, 5), spock::ParseError);
  CHECK_THROWS_AS(Game(5, 9), spock::ParseError);
  CHECK_THROWS_AS(Game(0, 0), std::invalid_argument);
  CHECK(Game(8, 8).keys_fit() == false);
  CHECK(Game(3, 8).keys_fit());
}

TEST_CASE("spock: FEN forms print and read back", "[spock][notation]") {
  for (const char* fen : {"psksp/rrrrr/5/RRRRR/PSKSP w", "3/1k1/K2 b", "k7/8/8/8/8/8/8/7K w",
                          "kL1/3/3/3/3/3/3/2K b", "4/1l2/1p1R/3k w"}) {
    const auto s = spock::parse_fen(fen);
    CHECK(spock::to_fen(s.game, s.position) == fen);
  }
  // Any whitespace between the fields.
  const auto s = spock::parse_fen("  3/1k1/K2 \t b ");
  CHECK(spock::to_fen(s.game, s.position) == "3/1k1/K2 b");
  CHECK(spock::board_diagram(s.game, s.position) ==
        "3  . . .\n"
        "2  . k .\n"
        "1  K . .\n"
        "   a b c\n"
        "Red to move\n");
}

TEST_CASE("spock: every position of random games, ends included, prints and parses back",
          "[spock][notation][round-trip]") {
  std::mt19937_64 rng(42);
  const auto round_trips = [&](const Game& g, const Position& start, int games) {
    const auto seen = conformance::check_round_trips(
        g, start, games, 200, rng, [&](const Position& p) { return spock::to_fen(g, p); },
        [&](const std::string& fen) {
          const auto s = spock::parse_fen(fen);
          CHECK((s.game.width() == g.width() && s.game.height() == g.height()));
          return s.position;
        });
    CHECK(seen.ends > 0);
  };
  const auto start = spock::parse_fen(spock::start_fen());
  round_trips(start.game, start.position, 20);
  // Ladder rows: games from random placements of their pieces, on boards of several shapes.
  for (const char* row : {"spock:3x3:RSK/rsk", "spock:4x4:LPK/lk", "spock:5x3:SK/pk"}) {
    INFO(row);
    const spock::Material m = spock::parse_material(row);
    const Game g(m.width, m.height);
    const auto placements = spock::placements(m);
    for (int k = 0; k < 10; ++k) round_trips(g, placements[rng() % placements.size()], 4);
  }
}

TEST_CASE("spock: every malformed FEN is a ParseError", "[spock][notation]") {
  const std::vector<std::string> bad = {
      "",                                 // nothing
      "   ",                              // nothing but spaces
      "psksp/rrrrr/5/RRRRR/PSKSP",        // no side to move
      "psksp/rrrrr/5/RRRRR/PSKSP x",      // unknown side
      "psksp/rrrrr/5/RRRRR/PSKSP W",      // sides are lower case
      "psksp/rrrrr/5/RRRRR/PSKSP wb",     // one letter
      "psksp/rrrrr/5/RRRRR/PSKSP w 0 1",  // no move counters in Spock
      "psksp/rrrrr/5/RRRRR/PSKSX w",      // unknown piece letter
      "psksp/rrrrr/5/RRRRR/PSKSN w",      // a chess letter
      "psksp/rrrrr/5/RRRRR/PSKS. w",      // '.' is not an empty square
      "psksp/rrrrr/5/RRRRR/PSKS\xff w",   // a non-ASCII byte
      "psksp/rrrr/5/RRRRR/PSKSP w",       // rank widths differ
      "psksp/rrrrr/5/RRRRR/PSKSPP w",     // rank widths differ (last)
      "psksp/rrrrr/23/RRRRR/PSKSP w",     // two digits in a row
      "psksp/rrrrr/05/RRRRR/PSKSP w",     // zero
      "psksp/rrrrr/9/RRRRR/PSKSP w",      // a digit past 8
      "psksp//5/RRRRR/PSKSP w",           // an empty rank
      "/psksp/rrrrr/5/RRRRR/PSKSP w",     // a leading slash
      "psksp/rrrrr/5/RRRRR/PSKSP/ w",     // a trailing slash
      "kK/KK w",                          // too narrow and too few ranks
      "k2/K2 w",                          // 2 ranks
      "k1/K1/2 w",                        // 2 files
      "k2/3/3/3/3/3/3/3/K2 w",            // 9 ranks
      "k7R/8/8/K7 w",                     // 9 files
      "k8/8/8/K8 w",                      // 9 files by a digit
      "3/3/K2 w",                         // Red, not to move, has no Spock: the game had ended
      "3/1k1/3 b",                        // Blue, not to move, has no Spock
      "3/3/3 w",                          // nobody has a Spock
      "w",                                // a side alone
  };
  conformance::check_refused<spock::ParseError>(
      bad, [](const std::string& fen) { return spock::parse_fen(fen); });
  // The side to move without a Spock has lost, but the position is real: accepted.
  CHECK_NOTHROW(spock::parse_fen("3/1k1/3 w"));
}

TEST_CASE("spock: every malformed or illegal move is a ParseError", "[spock][notation]") {
  const auto s = spock::parse_fen(spock::start_fen());
  const std::vector<std::string> bad = {
      "",      "c1",   "c1b",  "c1b3x", "c1b3 ", " c1b3", "C1A2",
      "c1-a2", "z1b3", "c0b3", "c6a5",  "f1a1",  "c1c1",
      "c1b3",   // a Spock leaps only onto a piece
      "c1a2 ",  // trailing space
      "a1a5",   // a Paper takes the first enemy only
      "b1e4",   // Scissors cannot take a Rock
      "a2a1",   // nor may anything land on a friend
      "a3a4",   // no piece there
      "a4a3",   // Red's piece, Blue to move
      "a2a4",   // Rocks step one square
  };
  conformance::check_refused<spock::ParseError>(
      bad, [&](const std::string& move) { return spock::parse_move(s.game, s.position, move); });
  CHECK(spock::move_name(s.game, spock::parse_move(s.game, s.position, "c1a2")) == "c1a2");
  // Blue has no Spock: its Rock may not move, the game is over.
  const auto over = spock::parse_fen("3/1kR/3 w");
  CHECK_THROWS_AS(spock::parse_move(over.game, over.position, "c2c1"), spock::ParseError);
}

// Not run by default: `unit_tests "[.spock-perft]"` prints perft of the 5x5 start with the time of
// each depth, going deeper while the next depth is predicted to take under 3 minutes.
TEST_CASE("spock: timed perft of the start", "[.spock-perft]") {
  auto s = spock::parse_fen(spock::start_fen());
  std::uint64_t previous = 1;
  std::printf("depth | nodes | seconds\n");
  for (int depth = 1, predicted = 0; predicted <= 180; ++depth) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t nodes = solver::perft(s.game, s.position, depth);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%d | %llu | %.3f\n", depth, static_cast<unsigned long long>(nodes), took);
    std::fflush(stdout);
    predicted = int(took * double(nodes) / double(previous));  // the next depth, at this branching
    previous = nodes;
  }
}

TEST_CASE("spock: a ladder row's placements, listed and counted, each once", "[spock]") {
  for (const char* row :
       {"spock:3x3:RK/rk", "spock:3x3:RRK/k", "spock:4x3:RSK/rrk", "spock:4x4:RLK/rk"}) {
    INFO(row);
    const spock::Material m = spock::parse_material(row);
    const std::vector<spock::Position> all = spock::placements(m);
    CHECK(spock::placement_count(m) == all.size());
    const spock::Game game(m.width, m.height);
    std::set<std::string> distinct;
    for (const spock::Position& p : all) distinct.insert(spock::to_fen(game, p));
    CHECK(distinct.size() == all.size());
  }
}
