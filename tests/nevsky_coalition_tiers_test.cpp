// Nevsky checkers on the coalition tier solver (tablebase/coalition_tier_solver.h over
// rules/nevsky/solve/coalition_tier_space.h): the space's numbering read back both ways, and every
// coalition's value and distance at every position the hash-map solver (solver/
// coalition_retrograde.h, a separate method: a graph of canonical positions with reflections)
// reaches, on the one-man rows and the kings' row.
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "rules/nevsky/game.h"
#include "rules/nevsky/solve/coalition_tier_space.h"
#include "rules/nevsky/variant.h"
#include "solver/coalition_retrograde.h"
#include "tablebase/coalition_tier_solver.h"
#include "tablebase/coalition_tier_tables.h"
#include "tablebase/coalition_widening_solver.h"
#include "tests/file_damage.h"

namespace {

using Space = nevsky::CoalitionTierSpace;
static_assert(tablebase::CoalitionTierSpace<Space>);

// The seats of coalition s (players by name) seen from player `mover`.
std::uint32_t seats_from(std::uint32_t s, int mover) {
  return tablebase::seats_from(s, mover, nevsky::kPlayers);
}

tablebase::CoalitionTierSolveOptions solving(std::filesystem::path dir = {},
                                             std::uint64_t budget = ~std::uint64_t{0}) {
  tablebase::CoalitionTierSolveOptions o;
  o.threads = 2;
  o.dir = std::move(dir);
  o.budget_bytes = budget;
  return o;
}

// Bounds small enough that the small rows' blocks go through every path of the reach: the larger
// blocks' reach (a thread's bits or a hash set, or both threads' shared bits or hash sets), and
// blocks less than half reached kept as sorted sets.
const Space::Layout kSmallLayout{.small_block = 64,
                                 .held_places = 256,
                                 .dense_share = 2,
                                 .shared_seeds = 8,
                                 .shared_bits = 1024};

}  // namespace

TEST_CASE("nevsky coalition tiers: every entry is located back to itself",
          "[coalition][nevsky][tiers]") {
  for (const char* row : {"nevsky:4x4:1", "nevsky:4x4:1+1", "nevsky:3x3:1:pairs"}) {
    INFO(row);
    Space space(nevsky::parse_variant(row));
    CHECK(space.locate(space.game().start()).tier == -1);  // nothing discovered yet
    space.discover(2);
    CHECK(space.locate(space.game().start()).tier >= 0);
    std::uint64_t entries = 0;
    Space::Cursor cursor;
    for (int t = 0; t < space.tier_count(); ++t)
      for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
        ++entries;
        const nevsky::Position p = space.position(cursor, t, i);
        REQUIRE(space.locate(p) == tablebase::Location{t, i});
        // Its turned images, players renamed, are the same entry.
        const nevsky::Geometry& g = space.game().geometry();
        for (int r = 1; r < 4; ++r) {
          nevsky::Position turned;
          for (nevsky::Player q : nevsky::kAllPlayers) {
            const auto to = nevsky::Player((q + 4 - r) % 4);
            turned.men[to] = g.map(p.men[q], g.quarter_turns(r));
            turned.kings[to] = g.map(p.kings[q], g.quarter_turns(r));
          }
          turned.to_move = nevsky::Player((p.to_move + 4 - r) % 4);
          REQUIRE(space.locate(turned) == tablebase::Location{t, i});
        }
      }
    CHECK(entries > 0);
  }
}

TEST_CASE("nevsky coalition tiers: every coalition against the hash-map solver",
          "[coalition][nevsky][tiers][parallel]") {
  std::uint64_t reflections = 0;
  for (const char* row : {"nevsky:3x3:1", "nevsky:3x3:1+1:pairs", "nevsky:4x4:1",
                          "nevsky:4x4:1:pairs", "nevsky:4x4:1+1", "nevsky:5x5:1"}) {
    INFO(row);
    Space space(nevsky::parse_variant(row));
    space.discover(2);
    tablebase::CoalitionTierSolver<Space> tiers(space, solving());
    tiers.solve();
    const nevsky::Game& game = space.game();
    const nevsky::Position start = game.start();
    const solver::CoalitionRetrograde<nevsky::Game> graph(game, {&start, 1},
                                                          {std::uint64_t{1} << 32, false});
    std::uint64_t compared = 0, wrong = 0, missing = 0, reflections_before = reflections;
    graph.for_each_value([&](const nevsky::Key& key, auto values) {
      const nevsky::Position p = game.from_key(key);
      if (game.is_terminal(p)) return;
      // The graph's keys take the least of a position and its reflection where two players are
      // left (which reverses the order of play): the key's position may be the image of the one
      // play reaches, Red and Black swapped.
      auto at = space.locate(p);
      bool reflected = false;
      if (at.tier < 0) {
        const nevsky::Geometry& g = game.geometry();
        nevsky::Position image;
        for (nevsky::Player q : nevsky::kAllPlayers) {
          image.men[(4 - q) % 4] = g.map(p.men[q], g.reflection());
          image.kings[(4 - q) % 4] = g.map(p.kings[q], g.reflection());
        }
        image.to_move = nevsky::Player((4 - p.to_move) % 4);
        at = space.locate(image);
        reflected = true;
        ++reflections;
      }
      if (at.tier < 0) {
        ++missing;
        return;
      }
      for (int u = 0; u < int(values.size()); ++u) {
        std::uint32_t s = solver::CoalitionSplits::coalition(u);
        if (reflected) s = (s & 0b0101) | (s & 2) << 2 | (s & 8) >> 2;
        const auto v = tablebase::coalition_value(tiers.code(at, seats_from(s, p.to_move)));
        ++compared;
        wrong += !(v == values[u]);
      }
    });
    CHECK(missing == 0);
    CHECK(wrong == 0);
    // The kingmakers, counted plainly from every position's children's values.
    std::uint64_t kingmakers = 0;
    Space::Cursor cursor;
    for (int t = 0; t < space.tier_count(); ++t)
      for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
        const nevsky::Position p = space.position(cursor, t, i);
        const auto alone = tiers.code({t, i}, 1);
        nevsky::MoveList moves;
        game.generate(p, moves);
        unsigned winners = 0;
        for (const nevsky::Move& m : moves) {
          nevsky::Position child = p;
          game.make(child, m);
          for (nevsky::Player q : nevsky::kAllPlayers) {
            const std::uint32_t s = 1u << q;
            const tablebase::CoalitionCode c =
                game.is_terminal(child)
                    ? tablebase::finished_code(child.players_left(), s)
                    : tiers.code(space.locate(child), seats_from(s, child.to_move));
            if (tablebase::coalition_value(c).wdl == solver::Wdl::win) winners |= s;
          }
        }
        kingmakers += tablebase::coalition_value(alone).wdl != solver::Wdl::win &&
                      std::popcount(winners & ~(1u << p.to_move)) >= 2;
      }
    CHECK(tiers.report().kingmakers_counted);
    CHECK(tiers.report().kingmakers == kingmakers);
    if (!space.game().variant().pairs && space.game().size() >= 4) CHECK(kingmakers > 0);
    CHECK(compared >= 7 * graph.report().positions / 2);
    // The graph joins reflections the tiers keep apart.
    CHECK(tiers.report().positions >=
          graph.report().positions - (reflections - reflections_before));
  }
  CHECK(reflections > 0);  // the case above is met
}

TEST_CASE("nevsky coalition tiers: tier files, a budget that drops tiers, and a resume",
          "[coalition][nevsky][tiers][parallel]") {
  Space space(nevsky::parse_variant("nevsky:4x4:1"));
  const auto dir = std::filesystem::temp_directory_path() /
                   ("coalition-tiers-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  space.discover(2, dir);  // spills nothing this small, but through the spill's code
  tablebase::CoalitionTierSolver<Space> held(space, solving());
  held.solve();
  // A budget of one byte: every tier not needed dropped, every child read an entry at a time
  // from its file; and a budget of a third of the codes: children dropped and read back whole.
  tablebase::CoalitionTierSolver<Space> filed(space, solving(dir, 1));
  filed.solve();
  CHECK(filed.report().file_bytes > 0);
  std::uint64_t codes = 0;
  for (int t = 0; t < space.tier_count(); ++t) codes += space.tier_size(t) * 7;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  tablebase::CoalitionTierSolver<Space> third(space, solving(dir, codes / 3));
  third.solve();
  CHECK(third.report().tiers_reread > 0);
  CHECK(third.report().peak_held_bytes < codes);
  for (const auto* solved : {&filed, &third}) {
    CHECK(solved->report().positions == held.report().positions);
    for (int u = 0; u < held.renaming().count(); ++u) {
      CHECK(solved->report().splits[u].wins == held.report().splits[u].wins);
      CHECK(solved->report().splits[u].losses == held.report().splits[u].losses);
      CHECK(solved->report().splits[u].longest_win == held.report().splits[u].longest_win);
    }
  }
  std::uint64_t differ = 0, compared = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      const auto a = held.codes({t, i});
      const std::vector<tablebase::CoalitionCode> kept(a.begin(), a.end());
      const auto b = filed.codes({t, i});
      differ += !std::equal(kept.begin(), kept.end(), b.begin());
      ++compared;
    }
  CHECK(compared == held.report().positions);
  CHECK(differ == 0);
  // The reach saved and read back: the same numbering.
  space.save_index(dir, 3);
  Space loaded(nevsky::parse_variant("nevsky:4x4:1"));
  REQUIRE(loaded.load_index(dir));
  for (int t = 0; t < space.tier_count(); ++t) {
    REQUIRE(loaded.tier_size(t) == space.tier_size(t));
    REQUIRE(loaded.block_count(t) == space.block_count(t));
    REQUIRE(loaded.tier_children(t) == space.tier_children(t));
  }
  CHECK(loaded.sparse_blocks() == space.sparse_blocks());
  {
    std::uint64_t differ = 0;
    Space::Cursor a, b;
    for (int t = 0; t < space.tier_count(); ++t)
      for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
        differ += !(loaded.position(a, t, i) == space.position(b, t, i));
    CHECK(differ == 0);
  }
  CHECK(loaded.locate(loaded.game().start()) == space.locate(space.game().start()));
  Space other(nevsky::parse_variant("nevsky:4x4:1+1"));
  CHECK_THROWS_AS(other.load_index(dir), tablebase::TableError);  // another variant's
  // Solved again into the same folder: every tier read from its file, the same counts.
  tablebase::CoalitionTierSolver<Space> resumed(loaded, solving(dir));
  resumed.solve();
  CHECK(resumed.report().tiers_read == space.tier_count());
  CHECK(resumed.report().splits[0].wins == held.report().splits[0].wins);
  // A damaged tier file is refused, not read.
  const auto file = tablebase::coalition_tier_path(
      {dir, space.variant_name(), space.index_scheme(), space.tier_count() - 1, "", 7});
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 1);
  tablebase::CoalitionTierSolver<Space> damaged(space, solving(dir));
  CHECK_THROWS_AS(damaged.solve(), tablebase::TableError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("nevsky coalition tiers: codes of two bytes, alone and after tiers of one",
          "[coalition][nevsky][tiers][parallel]") {
  using tablebase::coalition_code, tablebase::coalition_recode, tablebase::coalition_value;
  using tablebase::CoalitionCode, tablebase::WideCoalitionCode;
  // What each width holds: a byte's longest distance, and the next refused, not wrapped; a mark
  // stays a mark.
  CHECK(coalition_value(coalition_code<CoalitionCode>(true, 125)) ==
        solver::WdlValue{solver::Wdl::win, 125});
  CHECK_THROWS_AS(coalition_code<CoalitionCode>(false, 126), tablebase::CoalitionCodesTooNarrow);
  CHECK(coalition_value(coalition_code<WideCoalitionCode>(false, 126)) ==
        solver::WdlValue{solver::Wdl::loss, 126});
  CHECK(coalition_recode<WideCoalitionCode>(tablebase::kCoalitionDraw<CoalitionCode>) ==
        tablebase::kCoalitionDraw<WideCoalitionCode>);
  CHECK(coalition_recode<WideCoalitionCode>(tablebase::kCoalitionNotInRow<CoalitionCode>) ==
        tablebase::kCoalitionNotInRow<WideCoalitionCode>);
  CHECK(coalition_recode<CoalitionCode>(coalition_code<WideCoalitionCode>(true, 40)) ==
        coalition_code<CoalitionCode>(true, 40));
  CHECK_THROWS_AS(coalition_recode<CoalitionCode>(coalition_code<WideCoalitionCode>(true, 200)),
                  tablebase::CoalitionCodesTooNarrow);

  // A solve in bytes whose later tiers are gone (as one stopped by a distance past a byte leaves
  // it), finished in two bytes: the tiers of one byte read as they are, the same values.
  Space space(nevsky::parse_variant("nevsky:4x4:1:pairs"));
  space.discover(2);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("coalition-wide-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  tablebase::CoalitionTierSolver<Space> narrow(space, solving(dir));
  narrow.solve();
  const int tiers = space.tier_count(), kept = tiers / 2;
  std::vector<WideCoalitionCode> expected;  // every entry's coalitions by their seats
  for (int t = 0; t < tiers; ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
      for (std::uint32_t s = 1; s < 15; ++s)
        expected.push_back(coalition_recode<WideCoalitionCode>(narrow.code({t, i}, s)));
  const auto name = [&](int t) {
    return tablebase::CoalitionTierName{dir, space.variant_name(), space.index_scheme(),
                                        t,   space.tier_name(t),   7};
  };
  const auto digest = [&](int t) {
    return tablebase::coalition_tier_digest(name(t), space.tier_size(t) * 7);
  };
  std::vector<std::uint64_t> digests;  // of the later tiers in bytes
  for (int t = kept; t < tiers; ++t) {
    digests.push_back(digest(t));
    std::filesystem::remove(tablebase::coalition_tier_path(name(t)));
  }
  tablebase::CoalitionTierSolver<Space, WideCoalitionCode> wide(space, solving(dir, 1));
  wide.solve();
  // The same values in two bytes: the same digests (verify --digest).
  for (int t = kept; t < tiers; ++t) CHECK(digest(t) == digests[t - kept]);
  CHECK(wide.report().tiers_read == kept);
  CHECK(tablebase::open_coalition_tier(name(0), space.tier_size(0) * 7).header().bits_per_record ==
        8);
  CHECK(tablebase::open_coalition_tier(name(tiers - 1), space.tier_size(tiers - 1) * 7)
            .header()
            .bits_per_record == 16);
  CHECK(!wide.report().kingmakers_counted);
  // Every code the same, from the solver and from the folder of both widths.
  tablebase::CoalitionTierTables<Space> tables(space, dir);
  std::uint64_t differ = 0, compared = 0;
  for (int t = 0; t < tiers; ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
      for (std::uint32_t s = 1; s < 15; ++s) {
        differ += wide.code({t, i}, s) != expected[compared];
        differ += tables.code({t, i}, s) != expected[compared];
        ++compared;
      }
  CHECK(compared == 14 * narrow.report().positions);
  CHECK(differ == 0);
  const auto tally = tables.tally();
  for (int u = 0; u < 7; ++u) {
    CHECK(tally[u].wins == narrow.report().splits[u].wins);
    CHECK(tally[u].draws == narrow.report().splits[u].draws);
    CHECK(tally[u].longest_loss == narrow.report().splits[u].longest_loss);
  }
  // A solve in bytes refuses the two-byte tiers rather than misread them.
  tablebase::CoalitionTierSolver<Space> again(space, solving(dir));
  CHECK_THROWS_AS(again.solve(), tablebase::CoalitionCodesTooNarrow);
  // The first tiers gone, a widening solve solves them in bytes, meets the first tier of two
  // bytes and goes on in two: the same values, the kingmakers of the tiers it solved counted.
  for (int t = 0; t < kept; ++t) std::filesystem::remove(tablebase::coalition_tier_path(name(t)));
  std::vector<std::size_t> widths;
  int widened = 0;
  tablebase::WideningCoalitionSolver<Space> widening(
      space, solving(dir),
      [&](std::size_t code_bytes, std::uint64_t) {
        widths.push_back(code_bytes);
        return ~std::uint64_t{0};
      },
      [&](const std::string&) { ++widened; });
  auto report = tablebase::empty_coalition_report(4, tiers);
  for (int t = 0; t < tiers; ++t) {
    CHECK(widening.code_bytes() == (t <= kept ? 1 : 2));
    tablebase::add_tier(report, t, space.tier_size(t), widening.solve_tier(t));
  }
  CHECK(widened == 1);
  CHECK(widths == std::vector<std::size_t>{1, 2});
  CHECK(report.tiers_read == tiers - kept);
  std::uint64_t kingmakers = 0;
  for (int t = 0; t < kept; ++t) {
    CHECK(report.kingmakers_by_tier[t] == narrow.report().kingmakers_by_tier[t]);
    kingmakers += std::uint64_t(narrow.report().kingmakers_by_tier[t]);
  }
  CHECK(report.kingmakers == kingmakers);
  for (int u = 0; u < 7; ++u) {
    CHECK(report.splits[u].wins == narrow.report().splits[u].wins);
    CHECK(report.splits[u].longest_win == narrow.report().splits[u].longest_win);
  }
  tablebase::CoalitionTierTables<Space> rewritten(space, dir);
  compared = differ = 0;
  for (int t = 0; t < tiers; ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
      for (std::uint32_t s = 1; s < 15; ++s)
        differ += rewritten.code({t, i}, s) != expected[compared++];
  CHECK(differ == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("nevsky coalition tiers: reached places as bits, sets and hash sets, one numbering",
          "[coalition][nevsky][tiers][parallel]") {
  // Small bounds (kSmallLayout): the same entries, positions and values as the default layout's.
  std::uint64_t listed_blocks = 0;
  for (const char* row : {"nevsky:4x4:1", "nevsky:3x3:1+1:pairs"}) {
    INFO(row);
    Space bits(nevsky::parse_variant(row)), listed(nevsky::parse_variant(row), kSmallLayout);
    bits.discover(2);
    listed.discover(2);
    listed_blocks += listed.sparse_blocks();
    REQUIRE(listed.tier_count() == bits.tier_count());
    tablebase::CoalitionTierSolver<Space> a(bits, solving()), b(listed, solving());
    a.solve();
    b.solve();
    std::uint64_t differ = 0, entries = 0;
    Space::Cursor x, y;
    for (int t = 0; t < bits.tier_count(); ++t) {
      REQUIRE(listed.tier_size(t) == bits.tier_size(t));
      for (std::uint64_t i = 0; i < bits.tier_size(t); ++i) {
        const nevsky::Position p = bits.position(x, t, i);
        differ += !(listed.position(y, t, i) == p);
        differ += !(listed.locate(p) == tablebase::Location{t, i});
        const auto ca = a.codes({t, i});
        const std::vector<tablebase::CoalitionCode> kept(ca.begin(), ca.end());
        const auto cb = b.codes({t, i});
        differ += !std::equal(kept.begin(), kept.end(), cb.begin());
        ++entries;
      }
    }
    CHECK(entries == a.report().positions);
    CHECK(differ == 0);
    // Saved and read back with its sets; a space of another layout refuses the index.
    const auto dir = std::filesystem::temp_directory_path() /
                     ("coalition-lists-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    listed.save_index(dir, 3);
    Space loaded(nevsky::parse_variant(row), kSmallLayout);
    REQUIRE(loaded.load_index(dir));
    CHECK(loaded.sparse_blocks() == listed.sparse_blocks());
    for (int t = 0; t < bits.tier_count(); ++t)
      for (std::uint64_t i = 0; i < bits.tier_size(t); ++i)
        differ += !(loaded.position(x, t, i) == listed.position(y, t, i));
    CHECK(differ == 0);
    Space other(nevsky::parse_variant(row));
    CHECK_THROWS_AS(other.load_index(dir), tablebase::TableError);
    std::filesystem::remove_all(dir);
  }
  CHECK(listed_blocks > 0);
}

TEST_CASE("nevsky coalition tiers: a reach stopped twice goes on from its checkpoints",
          "[coalition][nevsky][tiers][parallel]") {
  // Sorted sets and hash sets in play (kSmallLayout), a checkpoint after every tier; stopped by
  // its progress a third and two thirds in, then taken up by a new space each time: the same
  // numbering as a reach that ran through.
  const auto variant = nevsky::parse_variant("nevsky:4x4:1");
  Space through(variant, kSmallLayout);
  through.discover(2);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("coalition-reach-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  struct Stop {};
  const int tiers = through.tier_count();
  std::vector<int> first_seen;
  for (int stop_at : {tiers / 3, 2 * tiers / 3, tiers + 1}) {
    Space part(variant, kSmallLayout);
    part.set_checkpoint_interval(std::chrono::seconds(0));
    int first = -1;
    const auto reach = [&] {
      part.discover(2, dir, [&](int done, std::uint64_t) {
        if (first < 0) first = done;
        if (done == stop_at) throw Stop{};
      });
    };
    if (stop_at <= tiers) {
      CHECK_THROWS_AS(reach(), Stop);
      CHECK(std::filesystem::exists(dir / "reach.checkpoint"));
    } else {
      reach();
      part.save_index(dir, 3);
      CHECK(!std::filesystem::exists(dir / "reach.checkpoint"));
      std::uint64_t differ = 0;
      Space::Cursor a, b;
      for (int t = 0; t < tiers; ++t) {
        REQUIRE(part.tier_size(t) == through.tier_size(t));
        REQUIRE(part.tier_children(t) == through.tier_children(t));
        for (std::uint64_t i = 0; i < through.tier_size(t); ++i)
          differ += !(part.position(a, t, i) == through.position(b, t, i));
      }
      CHECK(differ == 0);
      CHECK(part.sparse_blocks() == through.sparse_blocks());
    }
    first_seen.push_back(first);
  }
  CHECK(first_seen == std::vector<int>{1, tiers / 3, 2 * tiers / 3});  // the tiers taken up
  // Nothing of the reach left beside the index, which reads back as the reach's.
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    CHECK(entry.path().extension() != ".spill");
  Space loaded(variant, kSmallLayout);
  REQUIRE(loaded.load_index(dir));
  for (int t = 0; t < tiers; ++t) CHECK(loaded.tier_size(t) == through.tier_size(t));
  std::filesystem::remove_all(dir);
}

TEST_CASE("nevsky coalition tiers: a damaged or foreign reach checkpoint is refused",
          "[coalition][nevsky][tiers]") {
  const auto variant = nevsky::parse_variant("nevsky:4x4:1");
  const auto dir = std::filesystem::temp_directory_path() /
                   ("coalition-checkpoint-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  struct Stop {};
  Space part(variant);
  part.set_checkpoint_interval(std::chrono::seconds(3600));  // only the stop's checkpoint
  CHECK_THROWS_AS(part.discover(2, dir,
                                [&](int done, std::uint64_t) {
                                  if (done == part.tier_count() / 2) throw Stop{};
                                }),
                  Stop);
  const auto checkpoint = dir / "reach.checkpoint";
  REQUIRE(std::filesystem::exists(checkpoint));
  Space other(nevsky::parse_variant("nevsky:4x4:1+1"));
  CHECK_THROWS_AS(other.discover(2, dir), tablebase::TableError);
  // A spill file cut short: the checkpoint cannot be taken up.
  std::filesystem::path spill;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".spill" && entry.file_size() > 0) spill = entry.path();
  REQUIRE(!spill.empty());
  const auto spilled = test_support::read_bytes(spill);
  std::filesystem::resize_file(spill, spilled.size() - 1);
  Space cut(variant);
  CHECK_THROWS_AS(cut.discover(2, dir), tablebase::TableError);
  test_support::write_bytes(spill, spilled);
  test_support::check_every_flipped_byte_refused(checkpoint, test_support::read_bytes(checkpoint),
                                                 [&] { Space(variant).discover(2, dir); });
  std::filesystem::remove_all(dir);
}
