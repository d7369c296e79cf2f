#include "tablebase/tablebase.h"

#include <absl/container/flat_hash_set.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/forward_solver.h"
#include "tablebase/table_file.h"
#include "tablebase/tier_solver.h"
#include "tablebase/value_tables.h"
#include "tests/drop16_process.h"
#include "tests/stopped_solves.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;
using tablebase::Location;

namespace {

// A fresh directory per test, removed afterwards.
struct TempDir : test_support::TempDir {
  TempDir() : test_support::TempDir("tablebase_test") {}
};

tablebase::TierSolveOptions in_memory() {
  tablebase::TierSolveOptions o;
  o.memory_bytes = std::uint64_t{1} << 30;
  o.threads = 2;
  return o;
}

tablebase::TierSolveOptions on_disk(const fs::path& dir) {
  tablebase::TierSolveOptions o = in_memory();
  o.dir = dir;
  o.zstd_level = 3;
  return o;
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A solve into `dir` that saves at every chance: after each chunk of 2,048 entries, fold and pass.
tablebase::TierSolveOptions saving_always(const fs::path& dir) {
  tablebase::TierSolveOptions o = on_disk(dir);
  o.checkpoint_interval = {};
  o.chunk_entries = 1 << 11;
  return o;
}

// Every file of `expected` is in `actual`, byte for byte.
void check_same_files(const fs::path& expected, const fs::path& actual) {
  for (const auto& entry : fs::directory_iterator(expected)) {
    INFO(actual / entry.path().filename());
    CHECK(file_bytes(entry.path()) == file_bytes(actual / entry.path().filename()));
  }
}

using test_support::Run;

Run drop16(const std::vector<std::string>& args) {
  return test_support::run_drop16(args);
}

}  // namespace

// Every image of every stored position, each side to move: all positions of the variant.
template <typename Visit>
void for_each_position(const drop::Game& game, const drop::TierSpace& space, Visit visit) {
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      const drop::Position p = space.unrank(t, i);
      for (const auto& symmetry : game.geometry().symmetries()) {
        const drop::Position image = game.transformed(p, symmetry);
        visit(t, i, image);
        visit(t, i, game.color_swapped(image));
      }
    }
}

TEST_CASE("every stored index unranks to a position that ranks back to it", "[tablebase]") {
  for (const char* variant : {"2x2:NK", "3x3:NK", "3x3:NBK", "3x4:NK", "2x3:NBK/nr"}) {
    INFO(variant);
    const drop::Game game(drop::parse_variant(variant));
    const drop::TierSpace space(game);
    std::uint64_t stored = 0;
    for (int t = 0; t < space.tier_count(); ++t) {
      for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
        REQUIRE(space.locate(space.unrank(t, i)) == Location{t, i});
      stored += space.tier_size(t);
    }
    CHECK(stored == space.stored_positions());
    // Any position is located at an entry of its tier that holds one of its images.
    std::uint64_t located = 0;
    for_each_position(game, space, [&](int t, std::uint64_t, const drop::Position& q) {
      const Location at = space.locate(q);
      REQUIRE(at.tier == t);
      REQUIRE(at.index < space.tier_size(t));
      REQUIRE(game.symmetric_key(space.unrank(t, at.index)) ==
              game.symmetric_key(
                  drop::Position(q.side_to_move == drop::kWhite ? q : game.color_swapped(q))));
      ++located;
    });
    CHECK(located == 2 * game.geometry().symmetries().size() * stored);
  }
}

TEST_CASE("each entry's children are where locate puts the positions its moves make",
          "[tablebase]") {
  // The space finds its children from the entry's groups and the last entry's placement; this
  // makes each move on a position and locates the result from nothing. The same entry asked for
  // again, and every entry in order, tries both ways of finding an entry.
  for (const char* variant :
       {"2x2:NBRQK", "3x3:NBK", "2x3:NBK/nr", "3x4:NK", "4x4:NK", "2x3:NNBBK"}) {
    INFO(variant);
    const drop::Game game(drop::parse_variant(variant));
    const drop::TierSpace space(game);
    const std::vector<char> every_tier(space.tier_count(), 1);
    for (int t = 0; t < space.tier_count(); ++t) {
      drop::TierSpace::Cursor cursor;
      for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
        std::vector<Location> found, found_stopping;
        space.for_each_child(cursor, t, i, every_tier, [&](Location c) { found.push_back(c); });
        // A visit that can stop gets the same children (another order), and stops when told.
        space.for_each_child(cursor, t, i, every_tier, [&](Location c) {
          found_stopping.push_back(c);
          return true;
        });
        int visits = 0;
        space.for_each_child(cursor, t, i, every_tier, [&](Location) { return ++visits < 2; });
        REQUIRE(visits == std::min<int>(2, int(found.size())));
        drop::Position p = space.unrank(t, i);
        drop::MoveList moves;
        game.generate(p, moves);
        std::vector<Location> made;
        for (const drop::Move m : moves) {
          const drop::Undo undo = game.make(p, m);
          made.push_back(space.locate(p));
          game.unmake(p, m, undo);
        }
        const auto by_place = [](Location a, Location b) {
          return std::pair(a.tier, a.index) < std::pair(b.tier, b.index);
        };
        for (auto* list : {&found, &found_stopping, &made})
          std::sort(list->begin(), list->end(), by_place);
        REQUIRE(found == made);
        REQUIRE(found_stopping == made);
      }
    }
  }
}

TEST_CASE("placements unrank to the placement that ranks back to them, past 2^32 too",
          "[tablebase]") {
  using tablebase::PlacementIndex;
  // Each placement must put count[g] pieces in group g, on distinct squares of the board.
  const auto check = [](const PlacementIndex& index, int squares, const auto& counts,
                        std::uint64_t i) {
    const tablebase::Groups groups = index.unrank(i);
    drop::Bitboard seen = 0;
    for (int g = 0; g < tablebase::kGroups; ++g) {
      REQUIRE(drop::popcount(groups[g]) == counts[g]);
      REQUIRE((seen & groups[g]) == 0);
      seen |= groups[g];
    }
    REQUIRE((squares == 64 || seen >> squares == 0));
    REQUIRE(index.rank(groups) == i);
  };
  SECTION("every index of a 4x4 placement with a pair") {
    const std::array<int, tablebase::kGroups> counts = {1, 2, 0, 0, 0, 0, 0, 3, 0, 0};
    const PlacementIndex index(16, counts);
    REQUIRE(index.size() == 16 * 105 * 286);  // C(16, 1) C(15, 2) C(13, 3)
    for (std::uint64_t i = 0; i < index.size(); ++i) check(index, 16, counts, i);
  }
  SECTION("indexes of big boards, at and around every power of two") {
    for (const auto& [squares, counts] :
         std::vector<std::pair<int, std::array<int, tablebase::kGroups>>>{
             {36, {2, 2, 2, 1, 1, 2, 2, 2, 1, 1}},
             {64, {2, 2, 2, 1, 1, 2, 2, 2, 1, 1}},
             {64, {8, 0, 0, 0, 0, 8, 0, 0, 0, 0}},
             {25, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}}) {
      INFO(squares << " squares");
      const PlacementIndex index(squares, counts);
      REQUIRE(index.size() > (std::uint64_t{1} << 32));
      for (int bit = 0; bit < 64 && (std::uint64_t{1} << bit) < index.size(); ++bit)
        for (std::uint64_t i = (std::uint64_t{1} << bit) - 1;
             i <= (std::uint64_t{1} << bit) + 1 && i < index.size(); ++i)
          check(index, squares, counts, i);
      check(index, squares, counts, index.size() - 1);
    }
  }
}

TEST_CASE("stepping a placement gives the next rank's, keeping the leading groups", "[tablebase]") {
  using tablebase::PlacementIndex;
  for (const auto& [squares, counts] :
       std::vector<std::pair<int, std::array<int, tablebase::kGroups>>>{
           {16, {1, 2, 0, 0, 0, 0, 0, 3, 0, 0}},
           {9, {1, 1, 0, 0, 1, 2, 0, 0, 0, 1}},
           {12, {0, 0, 0, 0, 3, 0, 0, 0, 0, 2}},
           {6, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0}}}) {
    for (int lead : {0, 1, 2}) {
      INFO(squares << " squares, " << lead << " leading groups kept");
      const PlacementIndex index(squares, counts);
      // The lead groups' own index: each of their placements is followed by `rest` ranks.
      const PlacementIndex lead_index(squares, [&] {
        std::array<int, tablebase::kGroups> c{};
        for (int g = 0, kept = 0; g < tablebase::kGroups && kept < lead; ++g)
          if (counts[g]) c[g] = counts[g], ++kept;
        return c;
      }());
      const std::uint64_t rest = index.size() / lead_index.size();
      for (std::uint64_t i = 0; i < index.size(); ++i) {
        tablebase::Groups groups = index.unrank(i);
        const tablebase::Groups before = groups;
        const bool stepped = index.step(groups, lead);
        REQUIRE(stepped == ((i + 1) % rest != 0));
        REQUIRE(groups == (stepped ? index.unrank(i + 1) : before));
      }
    }
  }
}

TEST_CASE("stored entries: all positions, with symmetric ones mostly shared", "[tablebase]") {
  for (const char* variant : {"2x2:NK", "3x3:NBK", "3x4:NK", "4x4:NK"}) {
    INFO(variant);
    const drop::Game game(drop::parse_variant(variant));
    const drop::TierSpace reduced(game), full(game, false);
    CHECK(full.stored_positions() == full.total_positions());
    CHECK(reduced.total_positions() == full.total_positions());
    // Every class has an entry, and an entry stands for at most one class.
    std::uint64_t classes = 0;
    for (int t = 0; t < full.tier_count(); ++t) {
      CHECK(reduced.tier_positions(t) == full.tier_size(t));
      absl::flat_hash_set<drop::Key> seen;
      for (std::uint64_t i = 0; i < full.tier_size(t); ++i)
        seen.insert(game.symmetric_key(full.unrank(t, i)));
      classes += seen.size();
    }
    CHECK(reduced.stored_positions() >= classes);
    const int group = int(game.geometry().symmetries().size());
    CHECK(reduced.stored_positions() * group < full.stored_positions() * 2);
  }
}

TEST_CASE("tier sizes count every placement: 2x2:NK by hand", "[tablebase]") {
  const drop::Game game(drop::parse_variant("2x2:NK"));
  const drop::TierSpace space(game);
  // Tier NKvNK, White to move (mover-relative, so one orientation): hands of 0..2 pieces a side.
  const int t = space.layout().tier_named("NKvNK");
  REQUIRE(t >= 0);
  // Board counts (us N,K, them N,K) each 0/1: placements 4!/(4-k)! for k pieces on the board.
  std::uint64_t expected = 0;
  for (int mask = 0; mask < 16; ++mask) {
    const int k = __builtin_popcount(mask);
    std::uint64_t ways = 1;
    for (int i = 0; i < k; ++i) ways *= 4 - i;
    expected += ways;
  }
  CHECK(space.tier_positions(t) == expected);
}

TEST_CASE("tier solver equals the forward solver on every position of small variants",
          "[tablebase][parallel]") {
  for (const char* variant : {"2x2:NK", "3x3:NK", "3x3:NBK", "3x4:NK", "2x3:NBK/nr"}) {
    INFO(variant);
    const drop::Game game(drop::parse_variant(variant));
    const drop::TierSpace space(game);
    tablebase::TierSolver<drop::TierSpace> tiers(space, in_memory());
    const auto report = tiers.run();
    CHECK(report.positions == space.total_positions());
    CHECK(report.stored < report.positions);
    solver::ForwardSolver<drop::Game> search(game, std::uint64_t{1} << 30);
    // Every position of the variant (every image of every entry, either side to move).
    std::uint64_t mismatches = 0;
    for_each_position(game, space, [&](int, std::uint64_t, drop::Position q) {
      mismatches += tiers.dte(space.locate(q)) != search.dte(q);
    });
    CHECK(mismatches == 0);
  }
}

TEST_CASE("symmetry reduction changes no value", "[tablebase]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace reduced(game), full(game, false);
  tablebase::TierSolver<drop::TierSpace> a(reduced, in_memory()), b(full, in_memory());
  const auto ra = a.run(), rb = b.run();
  CHECK(rb.stored == rb.positions);
  CHECK(ra.stored * 4 < rb.stored);
  for (int t = 0; t < full.tier_count(); ++t)
    for (std::uint64_t i = 0; i < full.tier_size(t); ++i)
      REQUIRE(a.dte(reduced.locate(full.unrank(t, i))) == b.dte({t, i}));
}

// Boards past 16 and past 32 squares map their placements by other paths
// (rules/drop/solve/tier_space.h).
TEST_CASE("symmetry reduction changes no value on boards of 20 and 36 squares", "[tablebase]") {
  for (const char* variant : {"5x4:NK", "6x6:NK"}) {
    INFO(variant);
    const drop::Game game(drop::parse_variant(variant));
    const drop::TierSpace reduced(game), full(game, false);
    tablebase::TierSolver<drop::TierSpace> a(reduced, in_memory()), b(full, in_memory());
    const auto ra = a.run(), rb = b.run();
    CHECK(ra.stored * 3 < rb.stored);
    std::uint64_t mismatches = 0;
    for (int t = 0; t < full.tier_count(); ++t)
      for (std::uint64_t i = 0; i < full.tier_size(t); ++i)
        mismatches += a.dte(reduced.locate(full.unrank(t, i))) != b.dte({t, i});
    CHECK(mismatches == 0);
  }
}

TEST_CASE("endgame tables: a piece limit keeps the small tiers, with the same values",
          "[tablebase]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace whole(game), endgame(game, true, 4);
  CHECK(endgame.tier_count() < whole.tier_count());
  tablebase::TierSolver<drop::TierSpace> a(whole, in_memory()), b(endgame, in_memory());
  a.run();
  b.run();
  for (int t = 0; t < endgame.tier_count(); ++t) {
    INFO(endgame.tier_name(t));
    CHECK(endgame.layout().tiers()[t].pieces <= 4);
    for (std::uint64_t i = 0; i < endgame.tier_size(t); ++i) {
      const drop::Position p = endgame.unrank(t, i);
      REQUIRE(b.dte({t, i}) == a.dte(whole.locate(p)));
    }
  }
  // Positions with more pieces in play are outside, and the start is one of them.
  CHECK(endgame.locate(game.start()).tier < 0);
  CHECK(whole.locate(game.start()).tier >= 0);
}

TEST_CASE("tables on disk answer like the solver, with every move, for any side to move",
          "[tablebase]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  tablebase::solve_tiers(space, on_disk(tmp.dir));
  tablebase::Tablebase tables(space, tmp.dir);
  solver::ForwardSolver<drop::Game> search(game, std::uint64_t{1} << 30);
  for (const char* fen :
       {"3/3/3[NBKnbk] w", "2n/1K1/3[NBbk] b", "k1N/1B1/K2[-] w", "3/1b1/3[NBK] b"}) {
    INFO(fen);
    const drop::Position p = drop::parse_fen(game, fen);
    const auto from_tables = tables.analyze(p);
    const auto from_search = search.analyze(p);
    CHECK(from_tables.dte == from_search.dte);
    REQUIRE(from_tables.moves.size() == from_search.moves.size());
    for (std::size_t m = 0; m < from_tables.moves.size(); ++m) {
      CHECK(from_tables.moves[m].move == from_search.moves[m].move);
      CHECK(from_tables.moves[m].outcome.win == from_search.moves[m].outcome.win);
      CHECK(from_tables.moves[m].outcome.dte == from_search.moves[m].outcome.dte);
    }
  }
}

TEST_CASE("a solve stopped part way and run again gives identical table files", "[tablebase]") {
  TempDir whole, resumed;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  tablebase::solve_tiers(space, on_disk(whole.dir));
  // What a run killed during tier k leaves: tiers before k finished, tier k's .dte renamed but
  // not its .value, and a half-written temporary file.
  const int k = space.tier_count() / 2;
  for (int t = 0; t < k; ++t)
    for (const auto& path : {tablebase::value_path(whole.dir, space.tier_name(t)),
                             tablebase::dte_path(whole.dir, space.tier_name(t))})
      fs::copy_file(path, resumed.dir / path.filename());
  fs::copy_file(tablebase::dte_path(whole.dir, space.tier_name(k)),
                resumed.dir / tablebase::dte_path(whole.dir, space.tier_name(k)).filename());
  std::ofstream(resumed.dir / (space.tier_name(k + 1) + ".value.tmp")) << "half";

  const auto report = tablebase::solve_tiers(space, on_disk(resumed.dir));
  CHECK(report.tiers_resumed == k);
  CHECK(report.tiers_solved == space.tier_count() - k);
  for (int t = 0; t < space.tier_count(); ++t)
    for (const auto& path : {tablebase::value_path(whole.dir, space.tier_name(t)),
                             tablebase::dte_path(whole.dir, space.tier_name(t))}) {
      INFO(path.filename());
      CHECK(file_bytes(path) == file_bytes(resumed.dir / path.filename()));
    }
}

TEST_CASE("a solve stopped and resumed gives the same tables", "[tablebase]") {
  TempDir whole, stopped;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  tablebase::solve_tiers(space, on_disk(whole.dir));

  SECTION("stopped once inside a tier, it keeps that tier's finished passes") {
    auto options = on_disk(stopped.dir);
    options.checkpoint_interval = {};  // a checkpoint after every pass and chunk
    int polls = 0;
    options.stop_requested = [&] { return ++polls == 20; };
    CHECK_THROWS_AS(tablebase::solve_tiers(space, options), tablebase::SolveInterrupted);
    int partials = 0;
    for (const auto& entry : fs::directory_iterator(stopped.dir))
      partials += entry.path().extension() == ".partial";
    CHECK(partials == 1);

    options.stop_requested = nullptr;
    tablebase::solve_tiers(space, options);
  }
  SECTION("stopped after every chunk, it saves tiers after their last pass too") {
    auto options = saving_always(stopped.dir);
    options.stop_requested = [] { return true; };  // each run does one chunk of work, then stops
    int saved_after_last_pass = 0;
    const int runs = test_support::solve_until_done(space, options, [&] {
      for (int t = 0; t < space.tier_count(); ++t) {
        const std::string& name = space.tier_name(t);
        if (!fs::exists(tablebase::partial_path(stopped.dir, name))) continue;
        std::vector<std::uint64_t> words((space.tier_size(t) + 7) / 8);
        const auto state =
            tablebase::read_partial_tier(stopped.dir, space.variant_name(), name, words);
        saved_after_last_pass += state.passes == int(space.tier_passes(t).size());
      }
    });
    CHECK(runs > space.tier_count());
    CHECK(saved_after_last_pass > 0);  // the next run only wrote that tier's files
  }
  check_same_files(whole.dir, stopped.dir);
  for (const auto& entry : fs::directory_iterator(stopped.dir))
    CHECK(entry.path().extension() != ".partial");
}

TEST_CASE(
    "with memory for a tier and one child only, children are folded in by groups and the "
    "tables are the same, also when stopped and resumed",
    "[tablebase]") {
  TempDir whole, folded, stopped;
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  const drop::TierSpace space(game, true, 6);
  CHECK(tablebase::solve_tiers(space, on_disk(whole.dir)).group_folds == 0);
  auto options = on_disk(folded.dir);
  options.memory_bytes = tablebase::planned_memory(space);
  CHECK(tablebase::solve_tiers(space, options).group_folds > 0);

  options = saving_always(stopped.dir);
  options.memory_bytes = tablebase::planned_memory(space);
  int polls = 0, inside_passes = 0, inside_folds = 0;
  options.stop_requested = [&] { return ++polls % 97 == 0; };
  const int runs = test_support::solve_until_done(space, options, [&] {
    for (const auto& entry : fs::directory_iterator(stopped.dir)) {
      if (entry.path().extension() != ".partial") continue;
      const std::string state = tablebase::TableReader(entry.path()).header().encoding;
      inside_passes += state.find("entries of the next pass") != std::string::npos;
      inside_folds += state.find("children being folded") != std::string::npos;
    }
  });
  CHECK(runs > 1);
  CHECK(inside_passes > 0);  // stopped, saved and resumed in the middle of a pass ...
  CHECK(inside_folds > 0);   // ... and of a group's fold
  check_same_files(whole.dir, folded.dir);
  check_same_files(whole.dir, stopped.dir);
  for (const auto& entry : fs::directory_iterator(stopped.dir))
    CHECK(entry.path().extension() != ".partial");
}

TEST_CASE(
    "group folds that read their children in address order, in windows of a thousand reads, give "
    "the same tables",
    "[tablebase][parallel]") {
  TempDir whole, ordered;
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  const drop::TierSpace space(game, true, 6);
  tablebase::solve_tiers(space, on_disk(whole.dir));
  auto options = on_disk(ordered.dir);
  options.ordered_reads_from = 0;  // every tier that folds
  // Two threads' windows of kMostReadsAnEntry reads each: many windows a range.
  options.ordered_window_bytes = 2 * tablebase::AddressOrderedReads::kMostReadsAnEntry *
                                 tablebase::AddressOrderedReads::kBytesPerRead;
  options.memory_bytes = tablebase::planned_memory(space) + options.ordered_window_bytes;
  const auto report = tablebase::solve_tiers(space, options);
  CHECK(report.group_folds > 0);
  CHECK(report.ordered_folds == report.group_folds);
  check_same_files(whole.dir, ordered.dir);
}

TEST_CASE(
    "a solve resumed under another memory cap, folding in more or fewer groups, gives the "
    "same tables",
    "[tablebase]") {
  TempDir whole, stopped;
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  const drop::TierSpace space(game, true, 6);
  tablebase::solve_tiers(space, on_disk(whole.dir));
  auto options = saving_always(stopped.dir);
  int polls = 0, runs = 0, more_room_after_folds = 0, less_room_after_passes = 0;
  options.stop_requested = [&] { return ++polls % 89 == 0; };
  for (bool done = false; !done; ++runs) {
    // Every other run has room for a tier with all its children, so a tier stopped in one run
    // goes on under the other plan: its remaining children in one group, or folded in by groups
    // after some of its passes are done.
    const bool small = runs % 2 == 0;
    options.memory_bytes = small ? tablebase::planned_memory(space) : std::uint64_t{1} << 30;
    for (const auto& entry : fs::directory_iterator(stopped.dir)) {
      if (entry.path().extension() != ".partial") continue;
      const std::string state = tablebase::TableReader(entry.path()).header().encoding;
      const bool folds = state.find("folded") != std::string::npos;
      more_room_after_folds += !small && folds;
      less_room_after_passes += small && !folds;
    }
    try {
      tablebase::solve_tiers(space, options);
      done = true;
    } catch (const tablebase::SolveInterrupted&) {
    }
  }
  CHECK(more_room_after_folds > 0);
  CHECK(less_room_after_passes > 0);
  check_same_files(whole.dir, stopped.dir);
}

TEST_CASE("a second solve into a directory in use is refused until the first lets go",
          "[tablebase]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("2x2:NK"));
  const drop::TierSpace space(game);
  {
    const tablebase::DirectoryLock first(tmp.dir);
    CHECK_THROWS_AS(tablebase::solve_tiers(space, on_disk(tmp.dir)), tablebase::DirectoryBusy);
  }
  CHECK(tablebase::solve_tiers(space, on_disk(tmp.dir)).tiers_solved == space.tier_count());
}

TEST_CASE("drop16 solve refuses a damaged checkpoint and a busy directory with status 2",
          "[tablebase]") {
  TempDir tmp;
  const fs::path tables = tmp.dir / "tables";
  fs::create_directories(tables);
  std::ofstream(tables / "NKvNK.partial") << "not a checkpoint";
  const std::vector<std::string> solve = {"solve",    "--variant",     "3x3:NK",
                                          "--tables", tables.string(), "--quiet"};
  const Run damaged = drop16(solve);
  CHECK(damaged.status == 2);
  CHECK(damaged.err.find("NKvNK.partial") != std::string::npos);

  fs::remove(tables / "NKvNK.partial");
  {
    const tablebase::DirectoryLock other(tables);
    const Run busy = drop16(solve);
    CHECK(busy.status == 2);
    CHECK(busy.err.find(".lock") != std::string::npos);
  }
  CHECK(drop16(solve).status == 0);
}

TEST_CASE("drop16 solve stops on a full disk with status 1, keeps its finished tiers, resumes",
          "[tablebase]") {
  TempDir tmp;
  const fs::path tables = tmp.dir / "tables";
  fs::create_directories(tables);
  // The last tier's first file goes to a device where every write fails with ENOSPC.
  fs::create_symlink("/dev/full", tables / "NKvNK.dte.tmp");
  const std::vector<std::string> solve = {"solve",         "--variant", "3x3:NK", "--tables",
                                          tables.string(), "--quiet",   "--json"};
  const Run full = drop16(solve);
  CHECK(full.status == 1);
  CHECK(full.err.find("NKvNK.dte.tmp") != std::string::npos);
  CHECK(full.err.find("No space left") != std::string::npos);
  CHECK(fs::exists(tables / "NKvN.value"));
  CHECK_FALSE(fs::exists(tables / "NKvNK.value"));
  CHECK_FALSE(fs::exists(tables / "NKvNK.dte.tmp"));  // the failed temporary is removed

  const Run again = drop16(solve);
  REQUIRE(again.status == 0);
  CHECK(nlohmann::json::parse(again.out)["tables"]["tiers_solved"] == 1);
}

TEST_CASE("a checkpoint keeps every field of a stopped tier, and one that does not fit is refused",
          "[tablebase]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  const int t = space.layout().tier_named("NBKvNBK");
  const std::string name = space.tier_name(t);
  std::vector<std::uint64_t> words((space.tier_size(t) + 7) / 8);
  // The last word stays 0: its bytes past the tier's end are not saved.
  for (std::size_t w = 0; w + 1 < words.size(); ++w) words[w] = 0x0101010101010101 * (w % 200);
  tablebase::PartialTier state;
  state.passes = 2;
  state.next_pass_done = 5;
  state.folded = {"NBKvBK", "NBKvNK"};
  state.folding = {"NBKvNB"};
  state.folding_through = 77;
  tablebase::write_partial_tier(tmp.dir, "3x3:NBK", name, words, space.tier_size(t), state);
  std::vector<std::uint64_t> read(words.size());
  const auto back = tablebase::read_partial_tier(tmp.dir, "3x3:NBK", name, read);
  CHECK(back.passes == 2);
  CHECK(back.next_pass_done == 5);
  CHECK(back.folded == state.folded);
  CHECK(back.folding == state.folding);
  CHECK(back.folding_through == 77);
  CHECK(read == words);
  CHECK_THROWS_AS(tablebase::read_partial_tier(tmp.dir, "3x3:NK", name, read),
                  tablebase::TableError);

  // Past the end of its pass: a checkpoint of some other numbering, not to be trusted.
  state = {};
  state.next_pass_done = space.tier_passes(t)[0].end + 1;
  tablebase::write_partial_tier(tmp.dir, "3x3:NBK", name, words, space.tier_size(t), state);
  CHECK_THROWS_AS(tablebase::solve_tiers(space, on_disk(tmp.dir)), tablebase::TableError);

  // Fewer bytes than its state counts as done: the missing ones would read as DTE 0.
  state.next_pass_done = 10;
  tablebase::write_partial_tier(tmp.dir, "3x3:NBK", name, words, 9, state);
  CHECK_THROWS_AS(tablebase::solve_tiers(space, on_disk(tmp.dir)), tablebase::TableError);
  // The same but with a fold begun: every entry's byte counts.
  state.folded = {"NBKvBK"};
  tablebase::write_partial_tier(tmp.dir, "3x3:NBK", name, words, space.tier_size(t) - 1, state);
  CHECK_THROWS_AS(tablebase::solve_tiers(space, on_disk(tmp.dir)), tablebase::TableError);
  // Enough bytes: accepted (the solve goes on to finish the variant).
  state = {};
  state.next_pass_done = 10;
  tablebase::write_partial_tier(tmp.dir, "3x3:NBK", name, words, 10, state);
  CHECK_NOTHROW(tablebase::solve_tiers(space, on_disk(tmp.dir)));
}

TEST_CASE("damaged or foreign tables are refused, not read as values", "[tablebase]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("3x3:NK"));
  const drop::TierSpace space(game);
  tablebase::solve_tiers(space, on_disk(tmp.dir));
  const int t = space.layout().tier_named("NKvNK");
  const fs::path value = tablebase::value_path(tmp.dir, space.tier_name(t));
  const drop::Position p = drop::parse_fen(game, "3/3/3[NKnk] w");

  SECTION("a flipped byte in a block") {
    std::string bytes = file_bytes(value);
    bytes[bytes.size() - 3] ^= 0x40;
    std::ofstream(value, std::ios::binary | std::ios::trunc) << bytes;
    tablebase::Tablebase tables(space, tmp.dir);
    CHECK_THROWS_AS(tables.dte(p), tablebase::TableError);
  }
  SECTION("a truncated file, also when a solve resumes") {
    fs::resize_file(value, fs::file_size(value) / 2);
    const auto probe = [&] { return tablebase::Tablebase(space, tmp.dir).dte(p); };
    CHECK_THROWS_AS(probe(), tablebase::TableError);
    CHECK_THROWS_AS(tablebase::solve_tiers(space, on_disk(tmp.dir)), tablebase::TableError);
  }
  SECTION("tables of another variant") {
    const drop::Game other(drop::parse_variant("3x3:NBK"));
    const drop::TierSpace other_space(other);
    CHECK_THROWS_AS(tablebase::Tablebase<drop::TierSpace>(other_space, tmp.dir),
                    tablebase::TableError);
    CHECK_THROWS_AS(tablebase::solve_tiers(other_space, on_disk(tmp.dir)), tablebase::TableError);
  }
}

TEST_CASE("the solver refuses a memory cap it cannot fit, before doing any work", "[tablebase]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  auto options = on_disk(tmp.dir / "tables");
  options.memory_bytes = 1000;
  CHECK_THROWS_AS(tablebase::solve_tiers(space, options), tablebase::MemoryCapError);
  CHECK_THROWS_WITH(tablebase::solve_tiers(space, options),
                    Catch::Contains("MB of memory, more than the cap of 0.000954 MB (--memory)"));
  CHECK_FALSE(fs::exists(tmp.dir / "tables"));
}

TEST_CASE("drop16 solve, query and verify keep the JSON contract and refuse mismatches",
          "[tablebase]") {
  TempDir tmp;
  const std::string tables = (tmp.dir / "tables").string();
  const Run forward = drop16({"solve", "--variant", "3x3:NK", "--json"});
  REQUIRE(forward.status == 0);
  const Run solved =
      drop16({"solve", "--variant", "3x3:NK", "--tables", tables, "--json", "--quiet"});
  REQUIRE(solved.status == 0);
  const auto a = nlohmann::ordered_json::parse(forward.out);
  const auto b = nlohmann::ordered_json::parse(solved.out);
  std::vector<std::string> keys;
  for (const auto& item : a.items()) keys.push_back(item.key());
  CHECK(std::vector<std::string>(keys.begin(), keys.begin() + 6) ==
        std::vector<std::string>{"variant", "fen", "value", "dte", "moves", "seconds"});
  CHECK(a["value"] == b["value"]);
  CHECK(a["dte"] == b["dte"]);
  CHECK(a["moves"] == b["moves"]);
  CHECK(a["moves"][0].size() == 3);

  const Run query = drop16({"query", "--tables", tables, "--fen", "3/1n1/K2[Nk] b", "--json"});
  REQUIRE(query.status == 0);
  const auto q = nlohmann::ordered_json::parse(query.out);
  CHECK(q["variant"] == "3x3:NK");
  CHECK(q["fen"] == "3/1n1/K2[Nk] b");
  CHECK(q.contains("warm_microseconds_per_probe"));

  const Run mismatch = drop16({"query", "--tables", tables, "--variant", "3x3:NBK", "--json"});
  CHECK(mismatch.status == 2);
  CHECK(mismatch.err.find("3x3:NK") != std::string::npos);

  const Run verify =
      drop16({"verify", "--tables", tables, "--samples", "300", "--json", "--quiet"});
  CHECK(verify.status == 0);
  CHECK(nlohmann::json::parse(verify.out)["mismatches"] == 0);

  // A wrong table (here: one tier's file swapped for another's) is refused as bad input, named;
  // a table that reads well but disagrees is a mismatch, status 1 (the --children test below).
  const fs::path d = tables;
  fs::rename(d / "NKvNK.value", d / "saved");
  fs::copy_file(d / "NKvK.value", d / "NKvNK.value");
  const Run broken =
      drop16({"verify", "--tables", tables, "--samples", "300", "--json", "--quiet"});
  CHECK(broken.status == 2);
  CHECK(broken.err.find("NKvNK.value") != std::string::npos);
  const Run refused = drop16({"query", "--tables", tables, "--fen", "3/1n1/K2[Nk] b", "--json"});
  CHECK(refused.status == 2);
  CHECK(refused.err.find("NKvNK.value") != std::string::npos);
  // A directory without tables is bad input too, named.
  fs::create_directories(tmp.dir / "empty");
  const Run empty = drop16({"query", "--tables", (tmp.dir / "empty").string(), "--json"});
  CHECK(empty.status == 2);
  CHECK(empty.err.find("holds no solved tables") != std::string::npos);
}

TEST_CASE(
    "verify empties the search's table when it fills --memory and goes on, and names a position "
    "that alone needs more",
    "[tablebase]") {
  TempDir tmp;
  const std::string tables = (tmp.dir / "tables").string();
  REQUIRE(drop16({"solve", "--variant", "3x3:NBK", "--tables", tables, "--quiet"}).status == 0);
  const auto verify = [&](const std::string& seed, const std::string& memory_gb) {
    return drop16({"verify", "--tables", tables, "--samples", "3000", "--seed", seed, "--memory",
                   memory_gb, "--json", "--quiet"});
  };
  const Run roomy = verify("2", "1");
  const Run tight = verify("2", "0.001");  // a table of 14,336 positions at most
  REQUIRE(roomy.status == 0);
  REQUIRE(tight.status == 0);
  const auto a = nlohmann::json::parse(roomy.out);
  const auto b = nlohmann::json::parse(tight.out);
  CHECK(a["memo_clears"] == 0);
  CHECK(b["memo_clears"] > 0);
  CHECK(b["mismatches"] == 0);
  CHECK(b["positions_searched"] > a["positions_searched"]);  // searched again after each clear

  // Seed 1 draws a position whose search alone outgrows that table.
  const Run too_big = verify("1", "0.001");
  CHECK(too_big.status == 1);
  CHECK(too_big.err.find("(for this position alone); raise --memory") != std::string::npos);
}

TEST_CASE(
    "verify --children finds DTEs that disagree with the children, in every tier with --per-tier, "
    "also in part-finished tables",
    "[tablebase]") {
  TempDir tmp;
  const fs::path tables = tmp.dir / "tables";
  const drop::Game game(drop::parse_variant("3x3:NK"));
  const drop::TierSpace space(game);
  tablebase::solve_tiers(space, on_disk(tables));
  const std::vector<std::string> verify = {"verify",    "--tables", tables.string(), "--children",
                                           "--samples", "300",      "--json",        "--quiet"};
  const Run intact = drop16(verify);
  REQUIRE(intact.status == 0);
  CHECK(nlohmann::json::parse(intact.out)["mismatches"] == 0);
  CHECK(nlohmann::json::parse(intact.out)["method"] == "children");

  // Every DTE of the biggest tier two plies longer: the same values, well-formed files.
  const int t = space.layout().tier_named("NKvNK");
  std::vector<std::uint8_t> bytes(space.tier_size(t));
  tablebase::read_tier_files(tables, "3x3:NK", "NKvNK", bytes);
  const std::vector<std::uint8_t> intact_bytes = bytes;
  for (std::uint8_t& dte : bytes) dte += 2;
  tablebase::write_tier_files(tables, "3x3:NK", "NKvNK", bytes, 3);
  const Run damaged = drop16(verify);
  CHECK(damaged.status == 1);
  CHECK(nlohmann::json::parse(damaged.out)["mismatches"] > 0);
  tablebase::write_tier_files(tables, "3x3:NK", "NKvNK", intact_bytes, 3);

  // --per-tier checks every tier: all entries of the small ones. A damaged tier of a few
  // entries is found, where uniform samples over the whole variant would seldom reach it.
  const int small = space.layout().tier_named("KvK");
  std::vector<std::uint8_t> few(space.tier_size(small));
  tablebase::read_tier_files(tables, "3x3:NK", "KvK", few);
  const std::vector<std::string> per_tier = {
      "verify", "--tables", tables.string(), "--children", "--per-tier", "20", "--json", "--quiet"};
  const Run every = drop16(per_tier);
  REQUIRE(every.status == 0);
  const auto e = nlohmann::json::parse(every.out);
  std::uint64_t expected = 0;
  for (int u = 0; u < space.tier_count(); ++u)
    expected += std::min<std::uint64_t>(20, space.tier_size(u));
  CHECK(e["samples"] == expected);
  CHECK(e["tiers_sampled"] == space.tier_count());
  CHECK(e["mismatches"] == 0);
  REQUIRE(few.size() <= 20);
  for (std::uint8_t& dte : few) dte += 2;
  tablebase::write_tier_files(tables, "3x3:NK", "KvK", few, 3);
  const Run small_damaged = drop16(per_tier);
  CHECK(small_damaged.status == 1);
  CHECK(nlohmann::json::parse(small_damaged.out)["mismatches"] > 0);
  for (std::uint8_t& dte : few) dte -= 2;
  tablebase::write_tier_files(tables, "3x3:NK", "KvK", few, 3);
  CHECK(
      drop16({"verify", "--tables", tables.string(), "--per-tier", "5", "--samples", "9"}).status ==
      2);  // one way of drawing at a time

  // Without that tier's files (a solve stopped before it), the finished tiers are still checked.
  fs::remove(tablebase::value_path(tables, "NKvNK"));
  const Run part = drop16(verify);
  CHECK(part.status == 0);
  CHECK(nlohmann::json::parse(part.out)["tiers_checked"] == space.tier_count() - 1);
  CHECK(nlohmann::json::parse(part.out)["tiers"] == space.tier_count() - 1);  // NKvNK unknown
  // A checkpoint says the tier is being solved: it counts in the space, not in the checked.
  std::ofstream(tables / "NKvNK.partial") << "a tier being solved";
  const Run solving = drop16(verify);
  CHECK(solving.status == 0);
  CHECK(nlohmann::json::parse(solving.out)["tiers_checked"] == space.tier_count() - 1);
  CHECK(nlohmann::json::parse(solving.out)["tiers"] == space.tier_count());
}

TEST_CASE("tables cover the positions of finished tiers only", "[tablebase]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game, true, 4);
  tablebase::solve_tiers(space, on_disk(tmp.dir));
  const drop::Position four = drop::parse_fen(game, "3/1n1/K2[Nk] b");
  const drop::Position two = drop::parse_fen(game, "3/1k1/K2[-] w");
  const drop::Position six = game.start();
  {
    tablebase::Tablebase tables(space, tmp.dir);
    CHECK(tables.covers(four));
    CHECK(tables.covers(two));
    CHECK_FALSE(tables.covers(six));  // beyond the piece limit
    // The value bits held in memory say what the DTEs read block by block say, everywhere.
    tablebase::ValueTables<drop::TierSpace> values(space, tmp.dir);
    CHECK_FALSE(values.win(six).has_value());
    for_each_position(game, space, [&](int, std::uint64_t, const drop::Position& q) {
      REQUIRE(values.win(q) == std::optional<bool>(solver::is_win(tables.dte(q))));
    });
    CHECK(values.bytes_loaded() > 0);
  }
  // A tier whose .value file is missing (its solve did not finish) is not covered.
  fs::remove(tablebase::value_path(tmp.dir, space.tier_name(space.locate(four).tier)));
  tablebase::Tablebase tables(space, tmp.dir);
  CHECK_FALSE(tables.covers(four));
  CHECK(tables.covers(two));
  tablebase::ValueTables<drop::TierSpace> values(space, tmp.dir);
  CHECK_FALSE(values.win(four).has_value());
  CHECK(values.win(two).has_value());
}

TEST_CASE("drop16 solve --max-pieces writes endgame tables: query answers inside, refuses outside",
          "[tablebase]") {
  TempDir tmp;
  const std::string tables = (tmp.dir / "tables").string();
  const Run solved = drop16({"solve", "--variant", "3x3:NBK", "--max-pieces", "4", "--tables",
                             tables, "--json", "--quiet"});
  REQUIRE(solved.status == 0);
  const auto j = nlohmann::json::parse(solved.out);
  CHECK(j["value"] == "unknown");  // the start has 6 pieces in play
  CHECK(j["tables"]["max_pieces"] == 4);
  // Inside: the same answer as the forward solver.
  const char* fen = "3/1n1/K2[Nk] b";
  const Run query = drop16({"query", "--tables", tables, "--fen", fen, "--json"});
  const Run search = drop16({"solve", "--variant", "3x3:NBK", "--fen", fen, "--json"});
  REQUIRE(query.status == 0);
  REQUIRE(search.status == 0);
  CHECK(nlohmann::json::parse(query.out)["moves"] == nlohmann::json::parse(search.out)["moves"]);
  // Outside: a clear error, exit status 2.
  const Run outside = drop16({"query", "--tables", tables, "--json"});
  CHECK(outside.status == 2);
  CHECK(outside.err.find("no tier") != std::string::npos);
}

TEST_CASE(
    "drop16 prove --tables: the same value with endgame table hits, and other variants' tables "
    "refused",
    "[tablebase]") {
  TempDir tmp;
  const std::string tables = (tmp.dir / "tables").string();
  REQUIRE(
      drop16({"solve", "--variant", "4x4:NBK", "--max-pieces", "4", "--tables", tables, "--quiet"})
          .status == 0);
  const Run plain = drop16({"prove", "--variant", "4x4:NBK", "--json", "--quiet"});
  const Run with_tables =
      drop16({"prove", "--variant", "4x4:NBK", "--tables", tables, "--json", "--quiet"});
  REQUIRE(plain.status == 0);
  REQUIRE(with_tables.status == 0);
  const auto a = nlohmann::json::parse(plain.out), b = nlohmann::json::parse(with_tables.out);
  CHECK(a["value"] == b["value"]);
  CHECK(b["endgame_max_pieces"] == 4);
  CHECK(b["endgame_table_hits"].get<std::uint64_t>() > 0);
  CHECK(b["nodes"].get<std::uint64_t>() < a["nodes"].get<std::uint64_t>());
  const Run other = drop16({"prove", "--variant", "3x3:NBK", "--tables", tables});
  CHECK(other.status == 2);
  CHECK(other.err.find("4x4:NBK") != std::string::npos);

  // Its certificate stops where the tables decide; the checker accepts it with the tables (reading
  // those leaves) and without them (solving every leaf itself), with the same value.
  const std::string proof = (tmp.dir / "nbk.proof").string();
  REQUIRE(drop16({"prove", "--variant", "4x4:NBK", "--tables", tables, "--certificate", proof,
                  "--leaf-hand", "0", "--quiet"})
              .status == 0);
  const Run checked = drop16({"check-proof", proof, "--tables", tables, "--json"});
  const Run alone = drop16({"check-proof", proof, "--json"});
  REQUIRE(checked.status == 0);
  REQUIRE(alone.status == 0);
  const auto c = nlohmann::json::parse(checked.out), d = nlohmann::json::parse(alone.out);
  CHECK(c["value"] == a["value"]);
  CHECK(d["value"] == a["value"]);
  CHECK(c["leaf_pieces_in_play"] == 4);
  CHECK(c["table_leaves"].get<std::uint64_t>() > 0);
  CHECK(d["table_leaves"] == 0);
  CHECK(c["leaves"] == d["leaves"]);
}

TEST_CASE("the forward solver with table probes answers like the search alone, without searching",
          "[tablebase]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  tablebase::TierSolver<drop::TierSpace> tiers(space, in_memory());
  tiers.run();
  const auto probe = [&](const drop::Position& p) -> std::optional<int> {
    return tiers.dte(space.locate(p));
  };
  solver::ForwardSolver<drop::Game, decltype(probe)> probed(game, 1 << 20, probe);
  solver::ForwardSolver<drop::Game> plain(game, std::uint64_t{1} << 30);
  const drop::Position start = game.start();
  const auto a = probed.analyze(start);
  const auto b = plain.analyze(start);
  CHECK(a.dte == b.dte);
  for (std::size_t m = 0; m < a.moves.size(); ++m)
    CHECK(a.moves[m].outcome.dte == b.moves[m].outcome.dte);
  CHECK(probed.positions_stored() == 0);
  CHECK(plain.positions_stored() > 1000);
}

TEST_CASE("a finished tier read in part fills those entries alone", "[tablebase]") {
  TempDir with_dtes, values_alone;
  constexpr std::uint64_t n = 1'000'003;  // many blocks of either file
  std::vector<std::uint8_t> bytes(n);
  std::vector<std::uint64_t> bits((n + 63) / 64, 0);
  for (std::uint64_t i = 0; i < n; ++i) {
    bytes[i] = std::uint8_t(i * 7919 % 61);
    bits[i / 64] |= std::uint64_t(bytes[i] & 1) << (i % 64);
  }
  tablebase::write_tier_files(with_dtes.dir, "4x4:NK", "NKvNK", bytes, 1);
  tablebase::write_value_file(values_alone.dir, "4x4:NK", "NKvNK", bits, n, 1);
  const std::vector<tablebase::IndexRange> only = {{5, 70}, {200'000, 200'001}, {640'000, 900'000}};
  const auto wanted = [&](std::uint64_t i) {
    for (const auto& r : only)
      if (r.begin <= i && i < r.end) return true;
    return false;
  };
  std::vector<std::uint8_t> part(n, 0xEE);
  tablebase::read_tier_files(with_dtes.dir, "4x4:NK", "NKvNK", part, only);
  std::vector<std::uint64_t> part_bits(bits.size(), ~std::uint64_t{0});
  tablebase::read_value_file(values_alone.dir, "4x4:NK", "NKvNK", n, part_bits, only);
  std::uint64_t filled = 0, wrong = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const bool bit = (part_bits[i / 64] >> (i % 64) & 1) != 0;
    if (wanted(i)) {
      ++filled;
      wrong += part[i] != bytes[i] || bit != ((bytes[i] & 1) != 0);
    } else {
      wrong += part[i] != 0xEE || !bit;
    }
  }
  CHECK(filled == 65 + 1 + 260'000);
  CHECK(wrong == 0);
}
