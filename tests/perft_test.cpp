// Perft against the published numbers (RULES.md and ../shared/vectors), hashed and parallel perft
// against plain perft, and distinct-position counts against a brute force over FEN strings.
#include "solver/perft.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "solver/distinct_positions.h"
#include "solver/hashed_perft.h"
#include "solver/parallel_perft.h"
#include "solver/perft_table.h"
#include "tests/test_support.h"

namespace {

using drop::Game;
using drop::Position;

Game game_of(const char* variant) {
  return Game(drop::parse_variant(variant));
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

// A game whose counts outgrow 64 bits in two plies: every position has 4 moves and counts 2^62
// in bulk at the last ply, so perft(1) = 2^62, perft(2) = 2^64, perft(3) = 2^66.
struct WideTree {
  struct Position {};
  using Move = int;
  using Undo = int;
  struct MoveList {
    int size() const { return 4; }
    int operator[](int i) const { return i; }
  };
  void generate(const Position&, MoveList&) const {}
  std::uint64_t count_moves(const Position&) const { return std::uint64_t{1} << 62; }
  Undo make(Position&, Move) const { return 0; }
  void unmake(Position&, Move, Undo) const {}
  bool is_terminal(const Position&) const { return false; }
};

struct Vector {
  std::string where, fen;
  int depth;
  std::uint64_t nodes;
};

// Vector files of the other seed games: those whose game is played are checked by its own test
// file, the rest by the issue that brings their game. Any other file that is not Drop 16's fails
// the test, so new vectors cannot go unchecked silently.
const std::set<std::string> kCheckedByTheirGame = {
    "spock-start-perft.txt",   // tests/spock_rules_test.cpp
    "nevsky-start-perft.txt",  // tests/nevsky_rules_test.cpp
};
const std::set<std::string> kOtherGamesVectors = {"rookrace-start-perft.txt",
                                                  "nardy-start-plays.txt"};

// The Drop 16 vector files (their first line says so) describe their own format in a comment
// ("fen|depth|nodes", or "fen|perft1|perft2|perft3"). A file in a format this reader does not
// know fails the test rather than being skipped.
std::vector<Vector> read_vectors() {
  std::vector<Vector> out;
  const std::filesystem::path dir = DROP16_VECTORS_DIR;
  REQUIRE(std::filesystem::is_directory(dir));
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    std::string first;
    std::getline(std::ifstream(entry.path()), first);
    if (first.rfind("# Drop 16", 0) == 0)
      files.push_back(entry.path());
    else
      CHECK(kCheckedByTheirGame.count(entry.path().filename().string()) +
                kOtherGamesVectors.count(entry.path().filename().string()) ==
            1);
  }
  REQUIRE(!files.empty());
  for (const auto& path : files) {
    std::ifstream in(path);
    enum { kUnknown, kDepthNodes, kPerftColumns } format = kUnknown;
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      if (line[0] == '#') {
        if (line.find("fen|depth|nodes") != std::string::npos) format = kDepthNodes;
        if (line.find("fen|perft1") != std::string::npos) format = kPerftColumns;
        continue;
      }
      const std::string where = path.filename().string() + ":" + std::to_string(line_no);
      INFO(where << ": " << line);
      REQUIRE(format != kUnknown);
      const auto fields = split(line, '|');
      REQUIRE(fields.size() >= 2);
      if (format == kDepthNodes) {
        REQUIRE(fields.size() == 3);
        out.push_back({where, fields[0], std::stoi(fields[1]), std::stoull(fields[2])});
      } else {
        for (std::size_t d = 1; d < fields.size(); ++d)
          out.push_back({where, fields[0], int(d), std::stoull(fields[d])});
      }
    }
  }
  return out;
}

std::vector<Position> random_positions(const Game& g, std::mt19937& rng, int count, int max_plies) {
  std::vector<Position> out;
  drop::MoveList list;
  while (int(out.size()) < count) {
    Position p = g.start();
    const int plies = int(rng() % (max_plies + 1));
    for (int i = 0; i < plies; ++i) {
      g.generate(p, list);
      if (list.empty()) break;
      g.make(p, list[int(rng() % list.size())]);
    }
    out.push_back(p);
  }
  return out;
}

}  // namespace

TEST_CASE("perft of the start position to depth 4 (RULES.md)", "[perft]") {
  const Game g = game_of("drop16");
  Position p = g.start();
  CHECK(drop::to_fen(g, p) == "4/4/4/4[NNBBRRQKnnbbrrqk] w");
  CHECK(solver::perft(g, p, 0) == 1);
  CHECK(solver::perft(g, p, 1) == 80);
  CHECK(solver::perft(g, p, 2) == 6000);
  CHECK(solver::perft(g, p, 3) == 388580);
  CHECK(solver::perft(g, p, 4) == 23529828);
  CHECK(p == g.start());  // perft leaves the position as it found it
}

TEST_CASE("perft of every line of ../shared/vectors", "[perft][vectors]") {
  const Game g = game_of("drop16");
  const auto vectors = read_vectors();
  CHECK(vectors.size() >= 4);
  for (const Vector& v : vectors) {
    INFO(v.where << ": " << v.fen << " depth " << v.depth);
    Position p = drop::parse_fen(g, v.fen);
    CHECK(solver::perft(g, p, v.depth) == v.nodes);
  }
}

TEST_CASE("hashed perft equals plain perft, whatever the table size", "[perft][hash]") {
  // Table sizes: none at all and one 128-byte bucket (both mean constant replacement), a few KB,
  // and 1 MB.
  const std::size_t sizes[] = {0, 128, 4096, 1 << 20};
  SECTION("start position of Drop 16") {
    const Game g = game_of("drop16");
    for (std::size_t bytes : sizes) {
      INFO("table bytes " << bytes);
      solver::PerftTable<drop::Key> table(bytes);
      Position p = g.start();
      CHECK(solver::hashed_perft(g, p, 4, table) == 23529828);
      // The warm table must give the same answer again, and shallower depths must not be
      // confused with deeper entries for the same position.
      CHECK(solver::hashed_perft(g, p, 3, table) == 388580);
      CHECK(solver::hashed_perft(g, p, 4, table) == 23529828);
      CHECK(p == g.start());
    }
  }
  SECTION("random positions of several variants") {
    std::mt19937 rng(31337);
    for (const char* variant : {"drop16", "3x3:NBRK", "5x3:NBRQK/nbr", "7x4:NBRQK", "2x2:NBRQK"}) {
      const Game g = game_of(variant);
      const int depth = g.variant().squares() >= 16 ? 3 : 4;
      solver::PerftTable<drop::Key> tiny(128), small(1 << 16);
      for (Position p : random_positions(g, rng, 8, 10)) {
        INFO(variant << " " << drop::to_fen(g, p));
        const std::uint64_t plain = solver::perft(g, p, depth);
        CHECK(solver::hashed_perft(g, p, depth, tiny) == plain);
        CHECK(solver::hashed_perft(g, p, depth, small) == plain);
      }
    }
  }
}

TEST_CASE("perft counts past 2^64 exactly or refuses, never wraps", "[perft]") {
  const WideTree wide;
  WideTree::Position p;
  CHECK(solver::perft(wide, p, 1) == std::uint64_t{1} << 62);
  CHECK_THROWS_AS(solver::perft(wide, p, 2), solver::PerftOverflow);
  solver::Progress progress("test", 0, "nodes", false);
  // Depth 3 is cut into 16 subtrees of 2^62: the totals pass 2^64 and are exact in 128 bits.
  const auto divide = solver::parallel_divide(
      wide, p, 3, 2, progress, [&](auto& q, int d) { return solver::perft(wide, q, d); });
  CHECK(divide.total() == solver::Count{1} << 66);
  for (const auto& [move, count] : divide.per_move) CHECK(count == solver::Count{1} << 64);
  // At depth 4 each subtree is 2^64 itself: refused, not wrapped to 0.
  CHECK_THROWS_AS(
      solver::parallel_divide(wide, p, 4, 2, progress,
                              [&](auto& q, int d) { return solver::perft(wide, q, d); }),
      solver::PerftOverflow);
}

TEST_CASE("parallel divide totals the plain perft, move by move", "[perft][parallel]") {
  std::mt19937 rng(5);
  for (const char* variant : {"drop16", "3x2:NK", "5x3:NBRQK/nbr"}) {
    const Game g = game_of(variant);
    auto roots = random_positions(g, rng, 3, 6);
    roots.push_back(g.start());
    for (const Position& root : roots)
      // Depth 4 only from the start, the one root whose 4-ply tree is known to be small.
      for (int depth = 1; depth <= (root == g.start() ? 4 : 3); ++depth) {
        INFO(variant << " " << drop::to_fen(g, root) << " depth " << depth);
        solver::Progress progress("test", 0, "nodes", false);
        solver::PerftTable<drop::Key> table(1 << 16);
        const auto divide = solver::parallel_divide(
            g, root, depth, 2, progress,
            [&](Position& p, int d) { return solver::hashed_perft(g, p, d, table); });
        Position p = root;
        CHECK(divide.total() == solver::perft(g, p, depth));
        // Every root move once, in generation order, each with its own subtree's count.
        drop::MoveList list;
        g.generate(root, list);
        REQUIRE(int(divide.per_move.size()) == list.size());
        for (int i = 0; i < list.size(); ++i) {
          CHECK(divide.per_move[i].first == list[i]);
          const drop::Undo u = g.make(p, list[i]);
          CHECK(divide.per_move[i].second == solver::perft(g, p, depth - 1));
          g.unmake(p, list[i], u);
        }
      }
  }
}

TEST_CASE("two threads storing and probing in one bucket always read their own counts",
          "[perft][parallel]") {
  // Each thread stores its key and probes it back, again and again, while the other thread's
  // stores push entries through the same bucket: any overlap of a probe with a store would show
  // as a count that is not the probed key's.
  solver::PerftTable<drop::Key> table(0);
  std::atomic<long> wrong{0}, hits{0};
  test_support::run_together(2, [&](int thread) {
    const std::uint64_t k = thread + 1;
    const drop::Key key{k, ~k};
    long my_wrong = 0, my_hits = 0;
    for (int i = 0; i < 200'000 * test_support::kRaceRounds; ++i) {
      table.store(key, 3, k * 31);
      if (const auto hit = table.probe(key, 3)) {
        ++my_hits;
        my_wrong += *hit != k * 31;
      }
    }
    wrong += my_wrong;
    hits += my_hits;
  });
  CHECK(hits > 0);
  CHECK(wrong == 0);
}

TEST_CASE("parallel hashed perft on a one-bucket table is exact every time", "[perft][parallel]") {
  // Two threads replacing and reading the one bucket nonstop: if they could ever be inside it at
  // once, a probe could return a count torn between two entries (`perft --hash` did, rarely).
  // Small subtrees, so the threads spend much of their time in the table.
  const Game g = game_of("3x3:NBRK");
  Position p = g.start();
  const std::uint64_t plain = solver::perft(g, p, 5);
  int wrong = 0;
  for (int run = 0; run < 20 * test_support::kRaceRounds; ++run) {
    solver::PerftTable<drop::Key> table(0);
    solver::Progress progress("test", 0, "nodes", false);
    const auto divide = solver::parallel_divide(
        g, g.start(), 5, 2, progress,
        [&](Position& q, int d) { return solver::hashed_perft(g, q, d, table); });
    wrong += divide.total() != plain;
  }
  CHECK(wrong == 0);
}

namespace {

// Positions after each ply, by brute force over FEN strings (no keys involved). Each ply either
// drops a piece or removes one, so a position's ply is fixed by its material and plies never
// share a position: a set per ply is the whole truth.
std::vector<std::set<std::string>> brute_force_levels(const Game& g, int max_ply) {
  std::vector<std::set<std::string>> levels{{drop::to_fen(g, g.start())}};
  std::vector<Position> frontier{g.start()};
  drop::MoveList list;
  for (int ply = 1; ply <= max_ply; ++ply) {
    std::set<std::string> next_fens;
    std::vector<Position> next;
    for (Position p : frontier) {
      g.generate(p, list);
      for (drop::Move m : list) {
        const drop::Undo u = g.make(p, m);
        if (next_fens.insert(drop::to_fen(g, p)).second) next.push_back(p);
        g.unmake(p, m, u);
      }
    }
    levels.push_back(std::move(next_fens));
    frontier = std::move(next);
  }
  return levels;
}

// Mirror-image classes of a set of FENs: the least FEN over the board images made by hand.
std::size_t image_classes(const Game& g, const std::set<std::string>& fens) {
  std::set<std::string> classes;
  for (const std::string& fen : fens) {
    std::string best = fen;
    for (const Position& q : test_support::hand_images(g, drop::parse_fen(g, fen)))
      best = std::min(best, drop::to_fen(g, q));
    classes.insert(best);
  }
  return classes.size();
}

}  // namespace

TEST_CASE("distinct positions per ply match a brute force over FEN strings", "[perft][distinct]") {
  for (auto [variant, plies] :
       {std::pair{"2x2:NK", 8}, {"3x3:NK", 8}, {"3x2:NBK/nk", 10}, {"2x2:NBRQK", 5}}) {
    const Game g = game_of(variant);
    const auto levels = brute_force_levels(g, plies);
    for (const bool symmetric : {false, true}) {
      INFO(variant << (symmetric ? " up to symmetry" : " raw"));
      const auto counts = solver::count_distinct_positions(
          g, g.start(), plies, std::uint64_t{1} << 30, 2, false,
          [&](const Position& p) { return symmetric ? g.symmetric_key(p) : g.raw_key(p); });
      REQUIRE(counts.complete);
      REQUIRE(counts.per_ply.size() == levels.size());
      for (int ply = 0; ply <= plies; ++ply) {
        INFO("ply " << ply);
        const std::size_t expected = symmetric ? image_classes(g, levels[ply]) : levels[ply].size();
        CHECK(counts.per_ply[ply] == expected);
      }
    }
  }
}

TEST_CASE("distinct positions stop cleanly at the memory cap", "[perft][distinct]") {
  const Game g = game_of("drop16");
  // 4 KB cannot hold ply 2 (6000 move sequences reach thousands of positions) but the search
  // must report what it finished instead of overrunning or throwing.
  const auto counts = solver::count_distinct_positions(
      g, g.start(), 4, 4096, 1, false, [&](const Position& p) { return g.raw_key(p); });
  CHECK_FALSE(counts.complete);
  CHECK(counts.per_ply.size() < 5);
  CHECK(counts.per_ply[0] == 1);
  CHECK(counts.memory_needed_lower_bound > 0);
}

TEST_CASE("durations read as seconds, minutes, or hours and minutes, rounded", "[progress]") {
  CHECK(solver::duration_text(0) == "0 s");
  CHECK(solver::duration_text(59.4) == "59 s");
  CHECK(solver::duration_text(59.6) == "1 min");
  CHECK(solver::duration_text(89) == "1 min");
  CHECK(solver::duration_text(91) == "2 min");
  CHECK(solver::duration_text(3569) == "59 min");
  CHECK(solver::duration_text(3571) == "1 h 00 min");
  CHECK(solver::duration_text(4.5 * 3600 + 200) == "4 h 33 min");
  CHECK(solver::duration_text(-5) == "0 s");
}

TEST_CASE("a progress line shows done of total, the stage, and whether the work ended or stopped",
          "[progress]") {
  solver::Progress progress("solve 3x3:NK", 40, "positions", false);
  progress.advance(10);
  CHECK(progress.line().rfind("solve 3x3:NK: 10/40 (25.0%), ", 0) == 0);
  CHECK(progress.line().find(';') == std::string::npos);
  progress.set_stage("NKvNK folding in NKvK, at 50% of the tier");
  CHECK(progress.line().ends_with("; NKvNK folding in NKvK, at 50% of the tier"));
  CHECK(progress.line(true).ends_with(", stopped; NKvNK folding in NKvK, at 50% of the tier"));
  progress.advance(30);
  CHECK(progress.line(true).ends_with("s elapsed, done"));
  // Without a known total: what is done, no share of it.
  solver::Progress open_ended("explore", 0, "positions", false);
  open_ended.advance(7);
  CHECK(open_ended.line().rfind("explore: 7, ", 0) == 0);
}
