// The loopy tier solver (tablebase/loopy_tier_solver.h) on the rook race's tier space
// (rules/rookrace/solve/tier_space.h), checked against what shares none of their code:
// - the space: every entry's position located back to it (or to a twin), and the unmoves against
//   the rules' moves, edge for edge;
// - the values: the hash-map retrograde (solver/cyclic_retrograde.h) on every position it reaches,
//   with the same count of reached positions, values and longest distances, solving every entry
//   or the reached ones only; the plain fixed point of tests/fixed_point.h; unmoves and sweeps
//   against each other; the reached entries only against every entry;
// - the tables: written, read back, resumed, refused when damaged or of another variant;
// - the memory plan: refused before starting when over the cap.
#include <sys/resource.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "rules/rookrace/game.h"
#include "rules/rookrace/notation.h"
#include "rules/rookrace/solve/tier_space.h"
#include "solver/cyclic_retrograde.h"
#include "tablebase/loopy_tables.h"
#include "tablebase/loopy_tier_files.h"
#include "tablebase/loopy_tier_solver.h"
#include "tablebase/loopy_verify.h"
#include "tablebase/tier_files.h"
#include "tests/file_damage.h"
#include "tests/fixed_point.h"
#include "tests/loopy_checks.h"
#include "tests/test_support.h"

namespace {

using rookrace::Game;
using rookrace::TierSpace;
using tablebase::IndexRange;
using tablebase::Location;
using tablebase::LoopyCode;
using tablebase::LoopyPredecessors;
using tablebase::LoopySlice;
using tablebase::LoopySolveOptions;
using tablebase::LoopyTierPlan;
using tablebase::LoopyTierSolver;

constexpr std::uint64_t kPlenty = std::uint64_t{1} << 30;

Game game_of(const char* variant) {
  return Game(rookrace::parse_variant(variant));
}

LoopySolveOptions in_memory(LoopyPredecessors predecessors = LoopyPredecessors::unmoves) {
  LoopySolveOptions o;
  o.memory_bytes = kPlenty;
  o.predecessors = predecessors;
  return o;
}

}  // namespace

TEST_CASE("loopy reach: bits read 64 at a time are the bits read one at a time", "[loopy]") {
  std::vector<std::uint64_t> words(5);
  std::uint64_t x = 0x9E3779B97F4A7C15u;
  for (std::uint64_t& w : words) w = x = x * 6364136223846793005u + 1442695040888963407u;
  const std::uint64_t bits = words.size() * 64;
  std::uint64_t wrong = 0, checked = 0;
  for (std::uint64_t i = 0; i < bits; ++i)
    for (std::uint64_t count = 1; count <= 64 && i + count <= bits; ++count) {
      std::uint64_t one_at_a_time = 0;
      for (std::uint64_t k = 0; k < count; ++k)
        one_at_a_time |= std::uint64_t(tablebase::reached_bit(words.data(), i + k)) << k;
      wrong += tablebase::reached_bits_at(words.data(), i, count) != one_at_a_time;
      ++checked;
    }
  CHECK(wrong == 0);
  CHECK(checked > bits);
}

TEST_CASE("rookrace tier space: every entry's position is located at the entry or a twin",
          "[loopy][rookrace]") {
  for (const char* v :
       {"rookrace:2x2:0", "rookrace:2x2:2", "rookrace:4x4:0", "rookrace:4x4:1", "rookrace:4x4:2"}) {
    INFO(v);
    const Game g = game_of(v);
    // 4x4:2 has millions of entries: every 7th is plenty.
    const std::uint64_t step = g.size() == 4 && g.variant().pawns == 2 ? 7 : 1;
    const auto c = test_support::check_locate(TierSpace(g), step);
    CHECK(c.misplaced == 0);
    CHECK(c.checked > 0);
    if (g.variant().pawns == 0) CHECK(c.with_twins > 0);  // the empty board is its own image
  }
}

TEST_CASE("rookrace tier space: an entry's children are its moves' positions, located",
          "[loopy][rookrace]") {
  for (const char* v : {"rookrace:2x2:0", "rookrace:2x2:2", "rookrace:4x4:0", "rookrace:4x4:1"}) {
    INFO(v);
    const TierSpace space(game_of(v));
    CHECK(test_support::children_mislocated(space, true) == 0);
    CHECK(test_support::outside_children_wrong(space) == 0);
  }
}

TEST_CASE("rookrace tier space: the unmoves are the moves inside a block taken back",
          "[loopy][rookrace]") {
  for (const char* v : {"rookrace:2x2:1", "rookrace:4x4:0", "rookrace:4x4:1"}) {
    INFO(v);
    test_support::check_unmoves_against_moves(TierSpace(game_of(v)), true);
  }
}

namespace {

// Solves the row both ways and compares every position the hash-map retrograde reaches, and the
// counts of the two reports; prints both when asked (the hidden rows below, whose figures go to
// results/).
void compare_with_hashed(const char* variant, bool reached_only, bool print = false) {
  const Game g = game_of(variant);
  const rookrace::Position start = g.start();
  LoopySolveOptions options = in_memory();
  options.memory_bytes = std::uint64_t{22} << 30;
  options.threads = 2;
  options.solve_reached_only = reached_only;
  test_support::compare_loopy_with_hashed(
      variant, g, std::span(&start, 1), TierSpace(g), options,
      [&](const rookrace::Position& p) { return rookrace::to_fen(g, p); }, print);
}

}  // namespace

TEST_CASE("rookrace loopy solve: every reached position as the hash-map retrograde has it",
          "[loopy][rookrace]") {
  for (const char* v : {"rookrace:2x2:0", "rookrace:2x2:1", "rookrace:2x2:2", "rookrace:2x2:5",
                        "rookrace:4x4:0", "rookrace:4x4:1", "rookrace:6x6:0", "rookrace:8x8:0"})
    for (const bool reached_only : {false, true}) {
      INFO("reached only " << reached_only);
      compare_with_hashed(v, reached_only);
    }
}

TEST_CASE("rookrace loopy solve: the reached entries only, as a solve of every entry has them",
          "[loopy][rookrace]") {
  for (const char* v : {"rookrace:2x2:2", "rookrace:4x4:1"})
    for (const auto predecessors : {LoopyPredecessors::unmoves, LoopyPredecessors::sweeps}) {
      INFO(v << (predecessors == LoopyPredecessors::sweeps ? " sweeps" : " unmoves"));
      const auto c =
          test_support::check_reached_only(TierSpace(game_of(v)), in_memory(predecessors));
      CHECK(c.marks_differ == 0);
      CHECK(c.differ == 0);
      CHECK(c.unreached_solved == 0);
      CHECK(c.reached > 0);
      CHECK(c.reached < c.entries);
    }
}

// The rows too long for the test run (minutes to a quarter of an hour, up to 12 GB for the
// hash-map solver's 8x8:1), run by hand: `unit_tests "[.loopy-compare]"`, or one of them by its
// own tag. Their output lines are in results/rookrace.md.
TEST_CASE("rookrace loopy solve against the hash-map retrograde: 4x4:2",
          "[.loopy-compare][.loopy-compare-4x4-2]") {
  compare_with_hashed("rookrace:4x4:2", false, true);
}
TEST_CASE("rookrace loopy solve against the hash-map retrograde: 6x6:1",
          "[.loopy-compare][.loopy-compare-6x6-1]") {
  compare_with_hashed("rookrace:6x6:1", false, true);
}
TEST_CASE("rookrace loopy solve against the hash-map retrograde: 4x4:3",
          "[.loopy-compare][.loopy-compare-4x4-3]") {
  compare_with_hashed("rookrace:4x4:3", false, true);
}
TEST_CASE("rookrace loopy solve against the hash-map retrograde: 8x8:1",
          "[.loopy-compare][.loopy-compare-8x8-1]") {
  compare_with_hashed("rookrace:8x8:1", false, true);
}

// Every row of results/rookrace.md's table of complete solves, smallest first, as `drop16 solve
// --tables` solves it (every entry): what issue 44 asks of the loopy solver, run by hand with
// `unit_tests "[.loopy-ladder-rookrace]"` (the hash map's 8x8:1 takes 12 GB).
TEST_CASE("rookrace loopy solve against the hash-map retrograde: the table's every row",
          "[.loopy-ladder][.loopy-ladder-rookrace]") {
  for (const char* v : {"rookrace:2x2:0", "rookrace:2x2:1", "rookrace:2x2:2", "rookrace:2x2:3",
                        "rookrace:4x4:0", "rookrace:4x4:1", "rookrace:4x4:2", "rookrace:4x4:3",
                        "rookrace:6x6:0", "rookrace:6x6:1", "rookrace:8x8:0", "rookrace:8x8:1"})
    compare_with_hashed(v, false, true);
}

TEST_CASE("rookrace loopy solve: a plain fixed point over the positions play reaches agrees",
          "[loopy][rookrace]") {
  for (const char* v : {"rookrace:2x2:2", "rookrace:4x4:0"}) {
    INFO(v);
    const Game g = game_of(v);
    const test_support::FixedPoint<Game> plain(g, {g.start()});
    const TierSpace space(g);
    LoopyTierSolver<TierSpace> solver(space, in_memory());
    const auto report = solver.run();
    CHECK(report.reached.positions == plain.size());
    std::uint64_t mismatches = 0;
    for (const auto& [key, value] : plain.values())
      mismatches += tablebase::loopy_value(solver.code(space.locate(g.from_key(key)))) != value;
    CHECK(mismatches == 0);
    CHECK(plain.sweeps() > 2);  // cycles: the values took sweeps to settle
  }
}

TEST_CASE("rookrace loopy solve: unmoves and sweeps give the same codes on every entry",
          "[loopy][rookrace]") {
  for (const char* v : {"rookrace:4x4:0", "rookrace:4x4:1"}) {
    INFO(v);
    const TierSpace space(game_of(v));
    LoopyTierSolver<TierSpace> by_unmoves(space, in_memory(LoopyPredecessors::unmoves));
    LoopyTierSolver<TierSpace> by_sweeps(space, in_memory(LoopyPredecessors::sweeps));
    const auto a = by_unmoves.run(), b = by_sweeps.run();
    CHECK(a.entries == b.entries);
    CHECK(a.reached == b.reached);
    CHECK(test_support::all_codes(space, by_unmoves) == test_support::all_codes(space, by_sweeps));
    CHECK(a.entries.draws > 0);
  }
}

namespace {

// The rook race's space with every move reported twice and every unmove three times, as a space
// that stores symmetric images once may report them: the solver must count each child and
// parent once (counting either more would bring counters to 0 at the wrong time).
struct RepeatingSpace : TierSpace {
  using TierSpace::TierSpace;
  static constexpr bool kDistinctInBlock = false;
  template <typename Visit>
  void for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
    TierSpace::for_each_child(cursor, t, index, [&](Location c) {
      visit(c);
      visit(c);
    });
  }
  template <typename Visit>
  void for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
    TierSpace::for_each_parent(cursor, t, index, [&](std::uint64_t p) {
      for (int k = 0; k < 3; ++k) visit(p);
    });
  }
};

}  // namespace

TEST_CASE("rookrace loopy solve: moves and unmoves reported more than once count once",
          "[loopy][rookrace]") {
  const Game g = game_of("rookrace:4x4:1");
  const TierSpace space(g);
  const RepeatingSpace repeating(g);
  LoopyTierSolver<TierSpace> once(space, in_memory());
  LoopyTierSolver<RepeatingSpace> twice(repeating, in_memory());
  const auto a = once.run(), b = twice.run();
  CHECK(a.reached == b.reached);
  std::uint64_t differ = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
      differ += once.code({t, i}) != twice.code({t, i});
  CHECK(differ == 0);
}

TEST_CASE("rookrace loopy solve: two threads give the codes of one, blocks shared or not",
          "[loopy][rookrace][parallel]") {
  const TierSpace space(game_of("rookrace:4x4:1"));
  LoopyTierSolver<TierSpace> one(space, in_memory());
  const auto a = one.run();
  for (const auto predecessors : {LoopyPredecessors::unmoves, LoopyPredecessors::sweeps})
    for (const std::uint64_t shared_from : {tablebase::kSharedBlockEntries, std::uint64_t{1}}) {
      LoopySolveOptions two = in_memory(predecessors);
      two.threads = 2;
      two.shared_block_entries = shared_from;  // 1: every block by both threads together
      LoopyTierSolver<TierSpace> both(space, two);
      const auto b = both.run();
      CHECK(a.reached == b.reached);
      CHECK(test_support::all_codes(space, one) == test_support::all_codes(space, both));
    }
}

TEST_CASE("rookrace loopy tables: counted from the files a run of blocks at a time",
          "[loopy][rookrace][tables]") {
  // What verify counts before it samples: the solve's counts, whatever the runs (a block in runs
  // of 7 entries, a few blocks a run, a tier whole).
  const TierSpace space(game_of("rookrace:4x4:1"));
  const test_support::TempDir tmp("loopy_tally");
  LoopySolveOptions o;
  o.dir = tmp.dir;
  o.zstd_level = 1;
  const auto report = LoopyTierSolver<TierSpace>(space, o).run();
  for (const std::uint64_t run :
       {std::uint64_t{7}, std::uint64_t{1000}, tablebase::kTallyRunEntries}) {
    INFO(run);
    CHECK(tablebase::tally_loopy_tables(space, tmp.dir, run) == report.reached);
  }
}

TEST_CASE("rookrace loopy tables: written, read back, resumed and checked",
          "[loopy][rookrace][tables]") {
  const Game g = game_of("rookrace:4x4:1");
  const TierSpace space(g);
  LoopyTierSolver<TierSpace> reference(space, in_memory());
  const auto expected = reference.run();
  const test_support::TempDir tmp("loopy_tables");
  LoopySolveOptions o;
  o.dir = tmp.dir;
  o.zstd_level = 1;
  o.threads = 2;
  const auto written = LoopyTierSolver<TierSpace>(space, o).run();
  CHECK(written.tiers_solved == space.tier_count());
  CHECK(written.reached == expected.reached);
  CHECK(written.entries == expected.entries);
  CHECK(written.table_bytes > 0);
  for (int t = 0; t < space.tier_count(); ++t) {
    std::vector<LoopyCode> codes(space.tier_size(t));
    tablebase::read_loopy_tier(
        {tmp.dir, space.variant_name(), space.index_scheme(), space.tier_name(t)}, codes);
    std::uint64_t differ = 0;
    for (std::uint64_t i = 0; i < codes.size(); ++i) differ += codes[i] != reference.code({t, i});
    CHECK(differ == 0);
  }
  // Run again: every tier is found finished, and the counts come back from the files.
  const auto resumed = LoopyTierSolver<TierSpace>(space, o).run();
  CHECK(resumed.tiers_resumed == space.tier_count());
  CHECK(resumed.tiers_solved == 0);
  CHECK(resumed.reached == expected.reached);
  // A damaged file is refused, not solved over.
  const auto path = tablebase::loopy_wdl_path(
      {tmp.dir, space.variant_name(), space.index_scheme(), space.tier_name(0)});
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('\x5a');
  }
  CHECK_THROWS_AS(LoopyTierSolver<TierSpace>(space, o).run(), tablebase::TableError);
  // Another variant's tables in the directory are refused by their headers.
  const TierSpace other(game_of("rookrace:4x4:2"));
  std::filesystem::remove(path);
  CHECK_THROWS_AS(LoopyTierSolver<TierSpace>(other, o).run(), tablebase::TableError);
}

TEST_CASE("rookrace loopy tables: a tier written in format 1 (every entry solved) still reads",
          "[loopy][rookrace][tables]") {
  const TierSpace space(game_of("rookrace:4x4:0"));
  LoopyTierSolver<TierSpace> solved(space, in_memory());
  solved.run();
  const test_support::TempDir tmp("loopy_format_1");
  const auto codes = test_support::all_codes(space, solved);
  for (int t = 0; t < space.tier_count(); ++t) {
    const tablebase::LoopyTableName name{tmp.dir, space.variant_name(), space.index_scheme(),
                                         space.tier_name(t)};
    // Format 1's records, as the files written before format 2 hold them: 0 a draw, else d + 1.
    const tablebase::TableHeader header{
        name.variant, name.tier, codes[t].size(), 8,
        "loopy wdl 1: 0 draw, else distance + 1 (odd distance: win); " + name.scheme};
    tablebase::write_byte_records(
        tablebase::loopy_wdl_path(name), header, codes[t],
        [](std::uint8_t c) { return c == tablebase::kLoopyDraw ? 0u : std::uint32_t(c) + 1; }, 1);
  }
  tablebase::LoopyTables<TierSpace> tables(space, tmp.dir);
  std::uint64_t differ = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
      differ += tables.code({t, i}) != codes[t][i];
  CHECK(differ == 0);
  for (int t = 0; t < space.tier_count(); ++t) {
    const tablebase::LoopyTableName name{tmp.dir, space.variant_name(), space.index_scheme(),
                                         space.tier_name(t)};
    std::vector<LoopyCode> read(space.tier_size(t));
    tablebase::read_loopy_tier(name, read);
    CHECK(read == codes[t]);
    // Only a range, as a tier solved a slice at a time reads its children's parts: the rest
    // untouched.
    const std::uint64_t n = space.tier_size(t);
    const tablebase::IndexRange part{n / 3, n - n / 4};
    std::vector<LoopyCode> some(n, tablebase::kLoopyUnresolved);
    tablebase::read_loopy_tier(name, some, std::span<const tablebase::IndexRange>(&part, 1));
    std::uint64_t wrong = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      wrong +=
          some[i] != (i >= part.begin && i < part.end ? codes[t][i] : tablebase::kLoopyUnresolved);
    CHECK(wrong == 0);
  }
}

namespace {

// Every file of a directory, by name, with its bytes.
std::map<std::string, std::string> files_of(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename() == ".lock") continue;  // the run's, whoever ran it
    std::ifstream in(e.path(), std::ios::binary);
    files[e.path().filename().string()] = {std::istreambuf_iterator<char>(in), {}};
  }
  return files;
}

// The slice files in `dir` (tiers solved a slice at a time, not yet merged).
std::vector<std::filesystem::path> slice_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> slices;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".slice") slices.push_back(e.path());
  return slices;
}

// Options writing to `dir` with a cap that leaves `budget` bytes for the tiers beside what the
// plan holds besides them.
LoopySolveOptions on_disk_within(const TierSpace& space, const std::filesystem::path& dir,
                                 std::uint64_t budget) {
  LoopySolveOptions o;
  o.dir = dir;
  o.zstd_level = 1;
  o.threads = 2;
  o.memory_bytes = kPlenty;
  o.memory_bytes = LoopyTierSolver<TierSpace>(space, o).fixed_bytes() + budget;
  return o;
}

// The least budget a solve fits: the reach's bits of whole tiers, and a block with the parts of
// its children (each tier's peak with no room, a block a slice).
std::uint64_t least_budget(const TierSpace& space, const std::filesystem::path& dir) {
  const LoopyTierSolver<TierSpace> no_room(space, on_disk_within(space, dir, 0));
  std::uint64_t least = no_room.reach_bytes();
  for (const auto& p : no_room.tier_plans()) least = std::max(least, p.peak_bytes);
  return least;
}

// Budgets that force slices: room for the largest tier's children whole and a third of the tier
// with its reached bits; and the least, less than those children whole.
struct SliceBudgets {
  std::uint64_t roomy = 0, least = 0, largest_children = 0;
};
// A run of whole tiers into `dir`, what the runs stopped or sliced are compared with.
tablebase::LoopySolveReport solve_whole(const TierSpace& space, const std::filesystem::path& dir) {
  return LoopyTierSolver<TierSpace>(space, on_disk_within(space, dir, kPlenty)).run();
}

// The first of the space's largest tiers.
int largest_tier(const TierSpace& space) {
  int largest = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    if (space.tier_size(t) > space.tier_size(largest)) largest = t;
  return largest;
}

SliceBudgets slice_budgets(const TierSpace& space, const std::filesystem::path& dir) {
  const int largest = largest_tier(space);
  SliceBudgets b;
  for (int c : space.tier_children(largest))
    b.largest_children += solver::mapped_bytes(space.tier_size(c));
  const std::uint64_t tier = space.tier_size(largest) * 9 / 8;
  b.least = least_budget(space, dir);
  b.roomy = std::max(b.least, b.largest_children + tier / 3);
  return b;
}

struct SlicedKinds {
  int children_whole = 0, children_parts = 0;
};
SlicedKinds sliced_kinds(const LoopyTierSolver<TierSpace>& solver) {
  SlicedKinds k;
  for (const auto& p : solver.tier_plans()) {
    CHECK(p.fits);
    if (p.sliced()) ++(p.children_whole ? k.children_whole : k.children_parts);
  }
  return k;
}

}  // namespace

TEST_CASE("rookrace loopy tables: a tier a slice at a time writes the files a whole tier does",
          "[loopy][rookrace][tables][slices]") {
  // 4x4:2 at the least budget, hundreds of slices each reading its children's parts, or sliced
  // for time, takes seconds more and checks nothing 4x4:1 there does not.
  for (const auto& [v, at_least_too] :
       {std::pair{"rookrace:4x4:1", true}, {"rookrace:4x4:2", false}}) {
    INFO(v);
    const TierSpace space(game_of(v));
    const test_support::TempDir whole_dir("loopy_whole"), sliced_dir("loopy_sliced");
    const LoopySolveOptions plenty = on_disk_within(space, whole_dir.dir, kPlenty);
    const auto whole = LoopyTierSolver<TierSpace>(space, plenty).run();
    CHECK(whole.slices_solved == 0);
    const auto expected = files_of(whole_dir.dir);
    const SliceBudgets b = slice_budgets(space, whole_dir.dir);
    // Sliced for memory (roomy, least), and for time alone (every tier fits whole, but slices
    // are no longer than a fifth of the largest tier).
    for (const std::uint64_t budget : {b.roomy, b.least, kPlenty}) {
      if (budget != b.roomy && !at_least_too) continue;
      INFO(budget);
      std::filesystem::remove_all(sliced_dir.dir);
      LoopySolveOptions o = on_disk_within(space, sliced_dir.dir, budget);
      if (budget == kPlenty) o.slice_entries = space.tier_size(largest_tier(space)) / 5;
      LoopyTierSolver<TierSpace> sliced(space, o);
      const SlicedKinds kinds = sliced_kinds(sliced);
      CHECK(kinds.children_whole + kinds.children_parts > 0);
      if (budget < b.largest_children) CHECK(kinds.children_parts > 0);
      if (budget == kPlenty) CHECK(kinds.children_parts == 0);
      CHECK(sliced.planned_bytes() <= o.memory_bytes);
      const auto report = sliced.run();
      CHECK(report.slices_solved > 1);
      CHECK(report.entries == whole.entries);
      CHECK(report.reached == whole.reached);
      CHECK(report.table_bytes == whole.table_bytes);
      CHECK(files_of(sliced_dir.dir) == expected);  // byte for byte, and no slice files left
    }
  }
}

TEST_CASE("rookrace loopy tables: a run stopped inside a tier resumes at its next slice",
          "[loopy][rookrace][tables][slices]") {
  const TierSpace space(game_of("rookrace:4x4:1"));
  const test_support::TempDir whole_dir("loopy_whole"), sliced_dir("loopy_sliced");
  const auto whole = solve_whole(space, whole_dir.dir);
  LoopySolveOptions o = on_disk_within(space, sliced_dir.dir, least_budget(space, sliced_dir.dir));
  o.stop_after_slices = 7;
  const auto stopped = LoopyTierSolver<TierSpace>(space, o).run();
  CHECK(stopped.stopped);
  CHECK(stopped.slices_solved == 7);
  const std::vector<std::filesystem::path> slices = slice_files(sliced_dir.dir);
  REQUIRE(!slices.empty());  // the stopped tier's finished slices, not yet merged
  // A damaged slice is refused by name, not solved over or merged.
  const std::string kept = [&] {
    std::ifstream in(slices.front(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  {
    std::fstream f(slices.front(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put(char(kept.back() ^ 0x5a));
  }
  o.stop_after_slices = 0;
  CHECK_THROWS_AS(LoopyTierSolver<TierSpace>(space, o).run(), tablebase::TableError);
  std::ofstream(slices.front(), std::ios::binary) << kept;
  // Mended, the run goes on from the slices: the same files as the whole-tier solve.
  const auto resumed = LoopyTierSolver<TierSpace>(space, o).run();
  CHECK(!resumed.stopped);
  CHECK(resumed.slices_resumed >= slices.size());
  CHECK(resumed.entries == whole.entries);
  CHECK(resumed.reached == whole.reached);
  CHECK(files_of(sliced_dir.dir) == files_of(whole_dir.dir));
}

TEST_CASE("rookrace loopy plan: slices no longer than the cap, whole when a tier is not",
          "[loopy][rookrace][slices]") {
  // The cap on a slice's entries (what a slice takes in time) alone, and with the memory budget
  // that slices the tiers already: each tier's slices its blocks in order, none longer than the
  // cap but a single block, a tier no longer than the cap whole unless memory slices it; and the
  // slices left beside ranges on disk the tier's other entries exactly, in parts of the slices.
  const TierSpace space(game_of("rookrace:4x4:2"));
  const test_support::TempDir dir("loopy_plan");
  const std::uint64_t largest = space.tier_size(largest_tier(space));
  for (const std::uint64_t budget : {kPlenty, least_budget(space, dir.dir)})
    for (const std::uint64_t cap : {largest / 7, largest / 2, std::uint64_t{1}}) {
      INFO(budget << " " << cap);
      LoopySolveOptions o = on_disk_within(space, dir.dir, budget);
      const auto memory_only = LoopyTierSolver<TierSpace>(space, o).tier_plans();
      o.slice_entries = cap;
      const LoopyTierSolver<TierSpace> solver(space, o);
      CHECK(solver.planned_bytes() <= o.memory_bytes);
      for (int t = 0; t < space.tier_count(); ++t) {
        INFO(space.tier_name(t));
        const LoopyTierPlan& p = solver.tier_plans()[t];
        const std::uint64_t n = space.tier_size(t);
        CHECK(p.fits);
        CHECK(p.children_whole == memory_only[t].children_whole);
        CHECK(p.slices.size() >= memory_only[t].slices.size());
        if (n <= cap) CHECK(p.slices.size() == memory_only[t].slices.size());
        if (n > cap && space.block_count(t) > 1) CHECK(p.sliced());
        std::uint64_t at = 0, block = 0;
        for (const LoopySlice& s : p.slices) {
          CHECK(s.first_block == block);
          CHECK(s.end_block > s.first_block);
          CHECK(s.entries.begin == at);
          CHECK(s.entries.begin == space.block_range(t, s.first_block).begin);
          CHECK(s.entries.end == space.block_range(t, s.end_block - 1).end);
          if (s.end_block - s.first_block > 1) CHECK(s.entries.end - s.entries.begin <= cap);
          at = s.entries.end;
          block = s.end_block;
        }
        CHECK(at == n);
        CHECK(block == space.block_count(t));
        // Every third block on disk, in runs of one or two blocks: the slices left cover the rest.
        std::vector<IndexRange> done;
        for (std::uint64_t b = 0; b + 2 < space.block_count(t); b += 3)
          done.push_back({space.block_range(t, b).begin, space.block_range(t, b + b % 2).end});
        std::vector<int> covered(n, 0);
        for (const IndexRange& r : done)
          std::fill(covered.begin() + r.begin, covered.begin() + r.end, 1);
        for (const LoopySlice& s : tablebase::loopy_slices_left(space, t, p.slices, done)) {
          CHECK(s.entries.begin == space.block_range(t, s.first_block).begin);
          CHECK(s.entries.end == space.block_range(t, s.end_block - 1).end);
          CHECK(std::any_of(p.slices.begin(), p.slices.end(), [&](const LoopySlice& planned) {
            return planned.entries.begin <= s.entries.begin && s.entries.end <= planned.entries.end;
          }));
          for (std::uint64_t i = s.entries.begin; i < s.entries.end; ++i) ++covered[i];
        }
        CHECK(std::count(covered.begin(), covered.end(), 1) == std::ptrdiff_t(n));  // once each
      }
    }
}

TEST_CASE("rookrace loopy tables: a run resumed with other slices takes those on disk as they are",
          "[loopy][rookrace][tables][slices]") {
  // Slices planned with one cap and stopped, resumed with another (slices of other lengths) and
  // stopped, then finished with the first: every slice file on disk is taken (none solved again:
  // what the plan's slices leave of them is solved), and the tables are the whole-tier solve's
  // byte for byte, with no slice files left. Slices of two plans that overlap (a build that did
  // not take others' slices) are merged too; one whose range is not a run of whole blocks is
  // refused by name.
  const TierSpace space(game_of("rookrace:4x4:1"));
  const test_support::TempDir whole_dir("loopy_whole"), sliced_dir("loopy_sliced"),
      other_dir("loopy_other");
  const auto whole = solve_whole(space, whole_dir.dir);
  const std::uint64_t largest = space.tier_size(largest_tier(space));
  const auto with_cap = [&](const std::filesystem::path& dir, std::uint64_t cap,
                            std::uint64_t stop) {
    LoopySolveOptions o = on_disk_within(space, dir, kPlenty);
    o.slice_entries = cap;
    o.stop_after_slices = stop;
    return o;
  };
  const std::uint64_t a = largest / 4, b = largest / 7;
  CHECK(LoopyTierSolver<TierSpace>(space, with_cap(sliced_dir.dir, a, 2)).run().stopped);
  std::size_t on_disk = slice_files(sliced_dir.dir).size();
  REQUIRE(on_disk > 0);
  auto report = LoopyTierSolver<TierSpace>(space, with_cap(sliced_dir.dir, b, 3)).run();
  CHECK(report.stopped);
  CHECK(report.slices_resumed == on_disk);
  CHECK(slice_files(sliced_dir.dir).size() > on_disk);
  on_disk = slice_files(sliced_dir.dir).size();
  // Overlapping slices, from a run of the other cap into another directory.
  CHECK(LoopyTierSolver<TierSpace>(space, with_cap(other_dir.dir, b, 4)).run().stopped);
  for (const auto& f : slice_files(other_dir.dir))
    std::filesystem::copy(f, sliced_dir.dir / f.filename(),
                          std::filesystem::copy_options::skip_existing);
  REQUIRE(slice_files(sliced_dir.dir).size() > on_disk);
  // A slice file named for a range that no run of blocks makes: refused, named.
  const std::filesystem::path first = slice_files(sliced_dir.dir).front();
  const std::string tier = first.filename().string().substr(0, first.filename().string().find('.'));
  const std::filesystem::path odd = sliced_dir.dir / (tier + ".1-2.slice");
  std::filesystem::copy_file(first, odd);
  try {
    LoopyTierSolver<TierSpace>(space, with_cap(sliced_dir.dir, a, 0)).run();
    FAIL("a slice file of entries 1-2 was taken");
  } catch (const tablebase::TableError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains(odd.string()) &&
                             Catch::Matchers::Contains("whole blocks"));
  }
  std::filesystem::remove(odd);
  report = LoopyTierSolver<TierSpace>(space, with_cap(sliced_dir.dir, a, 0)).run();
  CHECK(!report.stopped);
  CHECK(report.slices_resumed > 0);
  CHECK(report.entries == whole.entries);
  CHECK(report.reached == whole.reached);
  CHECK(files_of(sliced_dir.dir) == files_of(whole_dir.dir));
}

// A reach that checkpoints inside its tiers (after every run of `run_entries` entries).
LoopySolveOptions checkpointing(LoopySolveOptions o, std::uint64_t run_entries) {
  o.reach_checkpoint_seconds = 0;
  o.reach_run_entries = run_entries;
  return o;
}

TEST_CASE("rookrace loopy tables: a reach stopped at each checkpoint resumes to the same tables",
          "[loopy][rookrace][tables][reach]") {
  // Stopped after every write of its marks and started again each time, the reach comes to the
  // same bits, so the same files byte for byte and the same counts as a run not stopped, with
  // nothing but the tables left; some stops are inside a tier, resumed from its blocks spread.
  const TierSpace space(game_of("rookrace:4x4:2"));
  const test_support::TempDir whole_dir("loopy_whole"), stopped_dir("loopy_stopped");
  const auto whole = solve_whole(space, whole_dir.dir);
  CHECK(whole.reach_checkpoints > 0);  // after each reached tier, its children's marks
  const auto expected = files_of(whole_dir.dir);
  const std::uint64_t largest = space.tier_size(largest_tier(space));
  LoopySolveOptions o = checkpointing(on_disk_within(space, stopped_dir.dir, kPlenty), largest / 8);
  o.stop_after_reach_checkpoints = 1;
  int runs = 0;
  std::uint64_t blocks_resumed = 0, tiers_resumed = 0;
  for (bool stopped = true; stopped && runs < 1000; ++runs) {
    const auto report = LoopyTierSolver<TierSpace>(space, o).run();
    stopped = report.stopped;
    CHECK(report.reach_checkpoints == (stopped ? 1 : report.reach_checkpoints));
    blocks_resumed += report.reach_blocks_resumed;
    tiers_resumed += std::uint64_t(report.reach_tiers_resumed);
    if (stopped) continue;
    CHECK(report.entries == whole.entries);
    CHECK(report.reached == whole.reached);
  }
  CHECK(runs > 5);
  CHECK(blocks_resumed > 0);
  CHECK(tiers_resumed > 0);
  CHECK(files_of(stopped_dir.dir) == expected);  // no marks left
}

TEST_CASE("rookrace loopy tables: damaged or foreign reach marks are refused",
          "[loopy][rookrace][tables][reach]") {
  const TierSpace space(game_of("rookrace:4x4:2"));
  const test_support::TempDir whole_dir("loopy_whole"), dir("loopy_marks");
  const auto whole = solve_whole(space, whole_dir.dir);
  const int tier = largest_tier(space);
  const std::uint64_t largest = space.tier_size(tier);
  LoopySolveOptions o = checkpointing(on_disk_within(space, dir.dir, kPlenty), largest / 8);
  // Stopped inside the largest tier, whose marks say how many blocks it spread.
  const tablebase::LoopyTableName name{dir.dir, space.variant_name(), space.index_scheme(),
                                       space.tier_name(tier)};
  const auto marks = tablebase::loopy_marks_path(name);
  std::vector<std::uint64_t> words((largest + 63) / 64);
  std::optional<std::uint64_t> spread;
  for (o.stop_after_reach_checkpoints = 1; !spread || *spread == 0;
       ++o.stop_after_reach_checkpoints) {
    std::filesystem::remove_all(dir.dir);
    REQUIRE(LoopyTierSolver<TierSpace>(space, o).run().stopped);
    REQUIRE(!std::filesystem::exists(tablebase::loopy_reached_path(name)));
    spread = tablebase::read_loopy_marks(name, words, largest, space.block_count(tier));
  }
  CHECK(*spread < space.block_count(tier));
  const std::vector<char> kept = test_support::read_bytes(marks);
  o.stop_after_reach_checkpoints = 0;
  // Any byte flipped is refused, naming the file; the run refuses it too, before solving over it.
  test_support::check_every_flipped_byte_refused(marks, kept, [&] {
    tablebase::read_loopy_marks(name, words, largest, space.block_count(tier));
  });
  CHECK_THROWS_AS(LoopyTierSolver<TierSpace>(space, o).run(), tablebase::TableError);
  // Another tier's marks under this tier's name: refused by the header's tier.
  std::filesystem::remove(marks);
  {
    auto other = name;
    other.tier = space.tier_name(tier == 0 ? 1 : 0);
    std::vector<std::uint64_t> few((space.tier_size(tier == 0 ? 1 : 0) + 63) / 64);
    tablebase::write_loopy_marks(other, few, space.tier_size(tier == 0 ? 1 : 0), 0, 1);
    std::filesystem::rename(tablebase::loopy_marks_path(other), marks);
  }
  CHECK_THROWS_AS(LoopyTierSolver<TierSpace>(space, o).run(), tablebase::TableError);
  // Lost, with a parent done: refused, not taken for a tier nothing reaches.
  std::filesystem::remove(marks);
  CHECK_THROWS_AS(LoopyTierSolver<TierSpace>(space, o).run(), tablebase::TableError);
  // Mended, the run resumes inside the tier: the same files as a run not stopped.
  test_support::write_bytes(marks, kept);
  const auto resumed = LoopyTierSolver<TierSpace>(space, o).run();
  CHECK(resumed.reach_blocks_resumed == *spread);
  CHECK(resumed.reached == whole.reached);
  CHECK(files_of(dir.dir) == files_of(whole_dir.dir));
}

TEST_CASE("rookrace loopy tables: the reached entries only, a slice at a time, as a whole tier",
          "[loopy][rookrace][tables][slices]") {
  // Slices of a reached-only solve hold its unreached entries as not in the row (from the reached
  // bits, read a slice at a time), so their merge is the whole-tier solve's file byte for byte;
  // the counts, taken from the files a slice at a time, are the whole-tier solve's, which a
  // solve of every entry checks: the same reached positions, its other entries not in the row.
  const TierSpace space(game_of("rookrace:4x4:1"));
  const test_support::TempDir every_dir("loopy_every"), whole_dir("loopy_whole"),
      sliced_dir("loopy_sliced");
  const auto every = solve_whole(space, every_dir.dir);
  LoopySolveOptions whole_options = on_disk_within(space, whole_dir.dir, kPlenty);
  whole_options.solve_reached_only = true;
  const auto whole = LoopyTierSolver<TierSpace>(space, whole_options).run();
  CHECK(whole.reached == every.reached);
  CHECK(whole.entries.not_in_row > 0);
  CHECK(whole.entries.positions + whole.entries.not_in_row == every.entries.positions);
  const auto expected = files_of(whole_dir.dir);
  const SliceBudgets b = slice_budgets(space, sliced_dir.dir);
  for (const std::uint64_t budget : {b.roomy, b.least, kPlenty}) {  // kPlenty: sliced for time
    INFO(budget);
    std::filesystem::remove_all(sliced_dir.dir);
    LoopySolveOptions o = on_disk_within(space, sliced_dir.dir, budget);
    o.solve_reached_only = true;
    if (budget == kPlenty) o.slice_entries = space.tier_size(largest_tier(space)) / 5;
    LoopyTierSolver<TierSpace> sliced(space, o);
    const SlicedKinds kinds = sliced_kinds(sliced);
    CHECK(kinds.children_whole + kinds.children_parts > 0);
    CHECK(sliced.planned_bytes() <= o.memory_bytes);
    // Stopped after a few slices and resumed: the slice files on disk are merged too.
    o.stop_after_slices = 2;
    CHECK(LoopyTierSolver<TierSpace>(space, o).run().stopped);
    o.stop_after_slices = 0;
    const auto report = LoopyTierSolver<TierSpace>(space, o).run();
    CHECK(report.slices_resumed > 0);
    CHECK(report.entries == whole.entries);
    CHECK(report.reached == whole.reached);
    CHECK(files_of(sliced_dir.dir) == expected);
  }
}

TEST_CASE("rookrace loopy solve: a cap below the plan is refused before it starts",
          "[loopy][rookrace]") {
  const TierSpace space(game_of("rookrace:4x4:2"));
  LoopySolveOptions o;
  o.memory_bytes = 1 << 20;
  LoopyTierSolver<TierSpace> solver(space, o);
  CHECK(solver.planned_bytes() > o.memory_bytes);
  CHECK_THROWS_AS(solver.run(), tablebase::MemoryCapError);
}

TEST_CASE("rookrace loopy tables: probes by position give the solve's values",
          "[loopy][rookrace][tables]") {
  const Game g = game_of("rookrace:4x4:1");
  const TierSpace space(g);
  LoopyTierSolver<TierSpace> solved(space, in_memory());
  solved.run();
  const test_support::TempDir tmp("loopy_probe");
  LoopySolveOptions o;
  o.dir = tmp.dir;
  o.zstd_level = 1;
  LoopyTierSolver<TierSpace>(space, o).run();
  tablebase::LoopyTables<TierSpace> tables(space, tmp.dir);
  REQUIRE(tables.has_reached());
  std::uint64_t differ = 0, reached_differ = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      const auto v = tables.probe(space.unrank(t, i));
      differ += !v || *v != tablebase::loopy_value(solved.code({t, i}));
      reached_differ += tables.reached({t, i}) != solved.reached({t, i});
    }
  CHECK(differ == 0);
  CHECK(reached_differ == 0);
  rookrace::Position nowhere = g.start();
  nowhere.reserve[rookrace::kWhite] = 2;  // more pawns than the variant's one
  CHECK(!tables.probe(nowhere));
  // A directory without the tables is refused by name.
  const test_support::TempDir empty("loopy_probe_empty");
  CHECK_THROWS_AS(tablebase::LoopyTables<TierSpace>(space, empty.dir), tablebase::TableError);
}

TEST_CASE("rookrace loopy verify: sound tables pass, a flipped value is caught",
          "[loopy][rookrace][tables]") {
  const TierSpace space(game_of("rookrace:2x2:2"));
  LoopyTierSolver<TierSpace> solved(space, in_memory());
  const auto report = solved.run();
  const int longest = std::max(report.entries.longest_win, report.entries.longest_loss);
  const test_support::TempDir tmp("loopy_verify");
  LoopySolveOptions o;
  o.dir = tmp.dir;
  o.zstd_level = 1;
  LoopyTierSolver<TierSpace>(space, o).run();
  tablebase::LoopyVerifyOptions checks;
  checks.children_samples = 2000;  // every one of the row's few reached entries, many times
  checks.search_samples = 200;
  {
    tablebase::LoopyTables<TierSpace> tables(space, tmp.dir);
    const auto sound = tablebase::verify_loopy_tables(tables, longest, checks);
    CHECK(sound.children_checked == 2000);
    CHECK(sound.searched == 200);
    CHECK(sound.children_mismatches == 0);
    CHECK(sound.search_mismatches == 0);
    CHECK(sound.search_unfinished == 0);
    CHECK(sound.searched_values.wins > 0);
    CHECK(sound.searched_values.losses > 0);
  }
  // Flip one reached win into a loss in its tier's file.
  Location flipped{-1, 0};
  for (int t = 0; t < space.tier_count() && flipped.tier < 0; ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t) && flipped.tier < 0; ++i)
      if (solved.reached({t, i}) && solved.code({t, i}) % 2 == 1) flipped = {t, i};
  REQUIRE(flipped.tier >= 0);
  std::vector<LoopyCode> codes;
  for (std::uint64_t i = 0; i < space.tier_size(flipped.tier); ++i)
    codes.push_back(solved.code({flipped.tier, i}));
  codes[flipped.index] = LoopyCode(codes[flipped.index] + 1);
  tablebase::write_loopy_tier(
      {tmp.dir, space.variant_name(), space.index_scheme(), space.tier_name(flipped.tier)}, codes,
      1);
  tablebase::LoopyTables<TierSpace> tables(space, tmp.dir);
  const auto caught = tablebase::verify_loopy_tables(tables, longest, checks);
  CHECK(caught.children_mismatches > 0);
  CHECK(caught.search_mismatches > 0);
  CHECK(caught.first_mismatch.has_value());
}

namespace {

void solve_race_row(const char* variant) {
  const Game g = game_of(variant);
  test_support::solve_loopy_row(
      variant, TierSpace(g), [&](const rookrace::Position& p) { return rookrace::to_fen(g, p); });
}

}  // namespace

// Rows solved by the loopy tier solver alone (results/rookrace.md), run by hand:
// `unit_tests "[.loopy-row-6x6-2]"`.
TEST_CASE("rookrace loopy row solved and checked: 6x6:2", "[.loopy-row][.loopy-row-6x6-2]") {
  solve_race_row("rookrace:6x6:2");
}
TEST_CASE("rookrace loopy row solved and checked: 8x8:1", "[.loopy-row][.loopy-row-8x8-1]") {
  solve_race_row("rookrace:8x8:1");
}
