// Dobutsu shogi's tier space (rules/dobutsu/solve/tier_space.h) and the compact solve
// (tablebase/loopy_compact.h), checked against what shares none of their code:
// - the space, on positions of random games: every position located at one entry whatever its
//   symmetric image, and that entry's position one of the class; every entry's children the rules'
//   moves made and located; the unmoves the moves taken back, both ways;
// - the compact solve: against the loopy tier solver (reached entries only) on every entry of
//   rows of three other games (the whole of Dobutsu shogi is a result, results/dobutsu.md, not a
//   test: minutes of both cores).
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rules/dobutsu/game.h"
#include "rules/dobutsu/notation.h"
#include "rules/dobutsu/solve/tier_space.h"
#include "rules/rookrace/solve/tier_space.h"
#include "rules/spock/solve/tier_space.h"
#include "rules/teeko/solve/tier_space.h"
#include "tablebase/loopy_compact.h"
#include "tablebase/loopy_tier_files.h"
#include "tablebase/loopy_tier_solver.h"

namespace {

using dobutsu::Game;
using dobutsu::Position;
using dobutsu::TierSpace;
using tablebase::Location;

// Every position of `games` random games from the start (both sides to move).
std::vector<Position> random_positions(const Game& g, int games, std::mt19937& rng) {
  std::vector<Position> out;
  for (int i = 0; i < games; ++i) {
    Position p = g.start();
    for (int ply = 0; ply < 200; ++ply) {
      out.push_back(p);
      dobutsu::MoveList moves;
      g.generate(p, moves);
      if (moves.empty()) break;
      g.make(p, moves[int(rng() % unsigned(moves.size()))]);
    }
  }
  return out;
}

std::vector<Location> children_by_moves(const TierSpace& space, const Position& p) {
  std::vector<Location> out;
  dobutsu::MoveList moves;
  space.game().generate(p, moves);
  for (const dobutsu::Move m : moves) {
    Position q = p;
    space.game().make(q, m);
    out.push_back(space.locate(q));
  }
  return out;
}

}  // namespace

TEST_CASE("dobutsu tier space: a position and its images at one entry, holding the class",
          "[loopy][dobutsu]") {
  const Game g;
  const TierSpace space(g);
  std::mt19937 rng(5);
  int caught = 0, checked = 0;
  for (const Position& p : random_positions(g, 300, rng)) {
    INFO(dobutsu::to_fen(g, p));
    const Location at = space.locate(p);
    REQUIRE(at.tier >= 0);
    REQUIRE(at.index < space.tier_size(at.tier));
    for (const Position& image :
         {Game::mirror(p), Game::swapped(p), Game::swapped(Game::mirror(p))})
      CHECK(space.locate(image) == at);
    if (at.tier == TierSpace::kCaught) {
      ++caught;
      CHECK(p.lion(p.side_to_move) < 0);
      continue;
    }
    const Position stored = space.unrank(at.tier, at.index);
    CHECK(stored.side_to_move == dobutsu::kSente);
    CHECK(g.canonical_key(stored) == g.canonical_key(p));
    ++checked;
  }
  CHECK(caught > 50);
  CHECK(checked > 1000);
}

TEST_CASE("dobutsu tier space: children are the moves made, unmoves the moves taken back",
          "[loopy][dobutsu]") {
  const Game g;
  const TierSpace space(g);
  TierSpace::Cursor cursor;
  std::mt19937 rng(9);
  std::uint64_t edges = 0, parents = 0;
  for (const Position& p : random_positions(g, 150, rng)) {
    const Location at = space.locate(p);
    if (at.tier != TierSpace::kPlay) continue;
    INFO(dobutsu::to_fen(g, p));
    const Position stored = space.unrank(at.tier, at.index);
    std::vector<Location> given;
    space.for_each_child(cursor, at.tier, at.index, [&](Location c) { given.push_back(c); });
    CHECK(given == children_by_moves(space, stored));
    // What is known of each child is what is known of its entry: a catch won in 1, a try lost in
    // 0, as the rules play them.
    std::size_t j = 0;
    space.for_each_child_known(cursor, at.tier, at.index, [&](Location c, tablebase::LoopyCode k) {
      REQUIRE(j < given.size());
      const Location real = given[j++];
      CHECK(c.tier == real.tier);
      CHECK((c.index == real.index || c.index == tablebase::kLoopyNotLocated));
      if (real.tier == TierSpace::kPlay)
        CHECK(k == space.known_code(cursor, real.tier, real.index));
    });
    CHECK(j == given.size());
    // A position that is not its own mirror image has its children at distinct entries (what
    // lets the first pass count them without locating them).
    if (Game::mirror(stored) != stored) {
      std::vector<std::uint64_t> in_play;
      for (const Location& c : given)
        if (c.tier == TierSpace::kPlay) in_play.push_back(c.index);
      std::sort(in_play.begin(), in_play.end());
      CHECK(std::adjacent_find(in_play.begin(), in_play.end()) == in_play.end());
    }
    const tablebase::LoopyCode known = space.known_code(cursor, at.tier, at.index);
    if (known == 0) CHECK(given.empty());
    if (known == 1)
      CHECK(std::all_of(given.begin(), given.end(),
                        [](Location c) { return c.tier == TierSpace::kCaught; }));
    if (known == tablebase::kLoopyUnresolved)
      CHECK(std::none_of(given.begin(), given.end(),
                         [](Location c) { return c.tier == TierSpace::kCaught; }));
    // Each child in play has this entry among its parents.
    for (const Location& c : given) {
      if (c.tier != TierSpace::kPlay) continue;
      std::set<std::uint64_t> found;
      space.for_each_parent(cursor, c.tier, c.index, [&](std::uint64_t q) { found.insert(q); });
      CHECK(found.count(at.index) == 1);
      ++edges;
    }
    // Each parent has a move to this entry.
    space.for_each_parent(cursor, at.tier, at.index, [&](std::uint64_t q) {
      const auto moves = children_by_moves(space, space.unrank(TierSpace::kPlay, q));
      CHECK(std::count(moves.begin(), moves.end(), at) >= 1);
      ++parents;
    });
  }
  CHECK(edges > 3000);
  CHECK(parents > 5000);
}

namespace {

// A space as it is, but knowing the entries without moves (lost in 0) without solving them
// (tablebase::LoopyKnownSpace): what lets the compact solve's path for known codes be checked on
// rows the tier solver solves.
template <typename Space>
struct KnownEnds {
  using Cursor = typename Space::Cursor;
  const Space& space;

  std::string variant_name() const { return space.variant_name(); }
  std::string index_scheme() const { return space.index_scheme(); }
  int tier_count() const { return space.tier_count(); }
  std::string tier_name(int t) const { return space.tier_name(t); }
  std::uint64_t tier_size(int t) const { return space.tier_size(t); }
  const std::vector<int>& tier_children(int t) const { return space.tier_children(t); }
  std::uint64_t block_count(int t) const { return space.block_count(t); }
  tablebase::IndexRange block_range(int t, std::uint64_t b) const {
    return space.block_range(t, b);
  }
  std::vector<tablebase::LocationRange> roots() const { return space.roots(); }
  std::uint64_t memory_bytes() const { return space.memory_bytes(); }
  template <typename Visit>
  void for_each_child(Cursor& c, int t, std::uint64_t i, Visit visit) const {
    space.for_each_child(c, t, i, visit);
  }
  template <typename Visit>
  void for_each_parent(Cursor& c, int t, std::uint64_t i, Visit visit) const {
    space.for_each_parent(c, t, i, visit);
  }
  template <typename Visit>
  void for_each_twin(Cursor& c, int t, std::uint64_t i, Visit visit) const {
    space.for_each_twin(c, t, i, visit);
  }
  tablebase::LoopyCode known_code(Cursor&, int t, std::uint64_t i) const {
    Cursor own;
    bool any = false;
    space.for_each_child(own, t, i, [&](Location) { any = true; });
    return any ? tablebase::kLoopyUnresolved : 0;
  }
  template <typename Visit>
  void for_each_child_known(Cursor& c, int t, std::uint64_t i, Visit visit) const {
    space.for_each_child(c, t, i, [&](Location child) {
      Cursor own;
      visit(child, known_code(own, child.tier, child.index));
    });
  }
};

}  // namespace

namespace {

// Solves `space` in memory with the loopy tier solver (reached entries only) and with the compact
// solve, as it is and knowing its ends (KnownEnds), and compares every entry and the counts.
template <typename Space>
void check_compact(const Space& space, int threads) {
  static_assert(tablebase::LoopyKnownSpace<KnownEnds<Space>>);
  tablebase::LoopySolveOptions options;
  options.memory_bytes = std::uint64_t{4} << 30;
  options.threads = threads;
  options.solve_reached_only = true;
  tablebase::LoopyTierSolver<Space> tiers(space, options);
  const auto a = tiers.run();
  tablebase::CompactLoopySolver<Space> compact(space, options);
  const auto b = compact.run();
  CHECK(a.reached == b.reached);
  CHECK(a.entries == b.entries);
  const KnownEnds<Space> knowing{space};
  tablebase::CompactLoopySolver<KnownEnds<Space>> known(knowing, options);
  CHECK(known.run().reached == a.reached);
  std::uint64_t differ = 0, differ_known = 0, reached = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      const Location at{t, i};
      differ += tiers.code(at) != compact.code(at) || tiers.reached(at) != compact.reached(at);
      differ_known += tiers.code(at) != known.code(at);
      reached += compact.reached(at);
    }
  CHECK(differ == 0);
  CHECK(differ_known == 0);
  CHECK(reached >= b.reached.positions);
  CHECK(b.reached.positions > 1000);
}

}  // namespace

TEST_CASE("compact loopy solve: every entry as the loopy tier solver has it",
          "[loopy][compact][parallel]") {
  for (const int threads : {1, 2}) {
    INFO(threads << " threads");
    check_compact(*tablebase::LoopySpaceOf<teeko::Game>::of("teeko:4x4"), threads);
    check_compact(*tablebase::LoopySpaceOf<rookrace::Game>::of("rookrace:4x4:1"), threads);
    check_compact(*tablebase::LoopySpaceOf<spock::Game>::of("spock:3x3:RK/rk"), threads);
  }
}

// For results/dobutsu.md: the positions play reaches from the start, as a solve into
// $DROP16_DOBUTSU_TABLES marked them, sorted as the published analysis sorts them: catches (the
// side to move takes the Lion), tries (the other Lion made its try) and neither, each with its
// values from the tables. Hidden: it reads the tables of a run of minutes.
TEST_CASE("dobutsu census: catches, tries and neither among the reached positions",
          "[.][dobutsu_census]") {
  const char* dir = std::getenv("DROP16_DOBUTSU_TABLES");
  REQUIRE(dir);
  const Game g;
  const TierSpace space(g);
  const tablebase::LoopyTableName name{dir, space.variant_name(), space.index_scheme(),
                                       space.tier_name(TierSpace::kPlay)};
  const std::uint64_t n = space.tier_size(TierSpace::kPlay);
  std::vector<std::uint64_t> bits((n + 63) / 64);
  tablebase::read_loopy_reached(name, bits, n);
  tablebase::LoopyTierReader codes(name, n);
  tablebase::LoopyTally catches, tries, neither;
  std::uint64_t symmetric = 0, repeated = 0;
  std::vector<std::uint64_t> children;
  TierSpace::Cursor cursor;
  for (std::uint64_t w = 0; w < bits.size(); ++w)
    for (std::uint64_t b = bits[w]; b; b &= b - 1) {
      const std::uint64_t i = w * 64 + std::uint64_t(std::countr_zero(b));
      const Position p = space.unrank(TierSpace::kPlay, i);
      (g.is_catch(p) ? catches : g.is_try(p) ? tries : neither).add(codes.code(i));
      // Children at distinct entries unless the position is its own mirror image (what the
      // first pass takes on trust: tier_space.h, for_each_child_known).
      if (Game::mirror(p) == p) {
        ++symmetric;
        continue;
      }
      children.clear();
      space.for_each_child(cursor, TierSpace::kPlay, i, [&](Location c) {
        if (c.tier == TierSpace::kPlay) children.push_back(c.index);
      });
      std::sort(children.begin(), children.end());
      repeated += std::adjacent_find(children.begin(), children.end()) != children.end();
    }
  const auto line = [](const char* what, const tablebase::LoopyTally& t) {
    std::printf(
        "%s: %llu positions, %llu wins, %llu draws, %llu losses, longest win %d, longest "
        "loss %d\n",
        what, (unsigned long long)t.positions, (unsigned long long)t.wins,
        (unsigned long long)t.draws, (unsigned long long)t.losses, t.longest_win, t.longest_loss);
  };
  line("catches", catches);
  line("tries", tries);
  line("neither", neither);
  std::printf("own mirror images: %llu; others with two moves to one entry: %llu\n",
              (unsigned long long)symmetric, (unsigned long long)repeated);
  CHECK(repeated == 0);
  CHECK(catches.wins == catches.positions);
  CHECK(tries.losses == tries.positions);
}
