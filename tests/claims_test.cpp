// The claims counters against brute force on variants small enough to count every number two
// ways: closed drops-only counts against search over real positions, canonical forms against
// Burnside and against explicit orbits, complete-game path counting against plain recursion,
// and Knuth's estimator against exact counts.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <numeric>
#include <set>

#include "rules/drop/drops_only.h"
#include "rules/drop/game.h"
#include "rules/drop/placements.h"
#include "rules/drop/variant.h"
#include "solver/claims_chart.h"
#include "solver/claims_count.h"
#include "solver/claims_game_paths.h"
#include "solver/claims_orbits.h"
#include "solver/claims_random_probes.h"
#include "solver/distinct_positions.h"
#include "solver/perft.h"

// Failed checks print 128-bit counts in decimal.
namespace Catch {
template <>
struct StringMaker<unsigned __int128> {
  static std::string convert(unsigned __int128 n) { return solver::to_decimal(n); }
};
}  // namespace Catch

namespace {

using solver::Count;

// Every arrangement of a multiset of colours over n points, by brute force.
std::vector<std::vector<int>> all_colourings(const std::vector<int>& multiplicity) {
  std::vector<int> word;
  for (std::size_t c = 0; c < multiplicity.size(); ++c)
    word.insert(word.end(), multiplicity[c], int(c));
  std::vector<std::vector<int>> out;
  do out.push_back(word);
  while (std::next_permutation(word.begin(), word.end()));
  return out;
}

// Explicit orbits: each colouring's least image under the group, collected in a set.
std::pair<std::size_t, std::uint64_t> explicit_orbits(const std::vector<solver::Permutation>& group,
                                                      const std::vector<int>& multiplicity,
                                                      const solver::PointWeights& weight) {
  std::set<std::vector<int>> least_images;
  std::uint64_t weight_sum = 0;
  for (const auto& c : all_colourings(multiplicity)) {
    std::vector<int> least;
    for (const auto& g : group) {
      std::vector<int> image(c.size());
      for (std::size_t p = 0; p < c.size(); ++p) image[g[p]] = c[p];
      if (least.empty() || image < least) least = image;
    }
    least_images.insert(least);
    if (!weight.empty())
      for (std::size_t p = 0; p < c.size(); ++p) weight_sum += weight[p][c[p]];
  }
  return {least_images.size(), weight_sum};
}

// Game-tree facts by plain recursion, no memo: complete games, perft.
template <typename G>
Count plain_complete_games(const G& game, typename G::Position& p) {
  if (game.is_terminal(p)) return 1;
  typename G::MoveList moves;
  game.generate(p, moves);
  Count n = 0;
  for (int i = 0; i < moves.size(); ++i) {
    const auto undo = game.make(p, moves[i]);
    n += plain_complete_games(game, p);
    game.unmake(p, moves[i], undo);
  }
  return n;
}

Count closed_positions(const drop::Variant& v, int ply) {
  Count n = 0;
  for (const auto& d : drop::dropped_after(v, ply))
    n += solver::multinomial(drop::colour_multiplicities(v, d));
  return n;
}

Count closed_orbits(const drop::Game& game, int ply, bool burnside) {
  const auto group = drop::square_permutations(game.geometry());
  Count n = 0;
  for (const auto& d : drop::dropped_after(game.variant(), ply)) {
    const auto m = drop::colour_multiplicities(game.variant(), d);
    n += burnside ? solver::count_orbits_burnside(group, m)
                  : solver::enumerate_canonical_colourings(group, m, {}, {}).orbits;
  }
  return n;
}

Count closed_sequences(const drop::Variant& v, int ply) {
  auto counts = [](const drop::Hand& h) { return std::vector<int>(h.begin(), h.end()); };
  const int n = v.squares();
  return solver::falling_factorial(n, ply) *
         solver::words_from_multiset(counts(v.start_hand[drop::kWhite]), (ply + 1) / 2) *
         solver::words_from_multiset(counts(v.start_hand[drop::kBlack]), ply / 2);
}

const char* const kSmallVariants[] = {"2x2:NK", "2x2:NBRQK",  "3x3:NK",      "3x3:NBK",
                                      "3x4:NK", "2x3:NNK/bk", "3x3:NBRQK/nk"};

}  // namespace

TEST_CASE("exact counts: arithmetic and overflow", "[claims]") {
  CHECK(solver::to_decimal(solver::factorial(16) / 64) == "326918592000");
  CHECK(solver::to_decimal(solver::factorial(30)) == "265252859812191058636308480000000");
  CHECK(solver::parse_count("340282366920938463463374607431768211455") == ~Count(0));
  CHECK_THROWS_AS(solver::parse_count("340282366920938463463374607431768211456"),
                  solver::CountOverflow);
  CHECK_THROWS_AS(solver::factorial(35), solver::CountOverflow);
  CHECK(solver::binomial(64, 32) == Count(1832624140942590534ull));
  CHECK(solver::falling_factorial(20, 5) == solver::factorial(20) / solver::factorial(15));
  CHECK(solver::falling_factorial(64, 16) == solver::binomial(64, 16) * solver::factorial(16));
  const std::vector<int> drop16_colours{2, 2, 2, 1, 1, 2, 2, 2, 1, 1};
  CHECK(solver::multinomial(drop16_colours) == solver::factorial(16) / 64);
  // Words from a multiset against listing them.
  const std::vector<int> hand{2, 1, 3};
  for (int length = 0; length <= 7; ++length) {
    std::set<std::vector<int>> words;
    std::vector<int> letters{0, 0, 1, 2, 2, 2};
    std::sort(letters.begin(), letters.end());
    do words.insert(std::vector<int>(letters.begin(), letters.begin() + std::min(length, 6)));
    while (std::next_permutation(letters.begin(), letters.end()));
    CHECK(solver::words_from_multiset(hand, length) == (length > 6 ? 0 : Count(words.size())));
  }
}

TEST_CASE("orbits: canonical forms and Burnside against explicit orbits", "[claims]") {
  for (const auto& [w, h] : {std::pair{2, 2}, {3, 2}, {3, 3}, {4, 2}}) {
    const drop::Geometry geometry(w, h);
    const auto group = drop::square_permutations(geometry);
    const int n = w * h;
    // A few colour mixes per board, symmetric ones included (all one colour, pairs).
    std::vector<std::vector<int>> mixes{
        {n}, {n - 1, 1}, {n - 2, 1, 1}, {n - 4, 2, 2}, {n - 3, 2, 1}};
    if (n >= 6) mixes.push_back({n - 6, 1, 1, 2, 2});
    if (n >= 8) mixes.push_back({2, 2, 2, 1, 1, n - 8});
    for (const auto& m : mixes) {
      if (std::any_of(m.begin(), m.end(), [](int x) { return x < 0; })) continue;
      // Weights invariant under the group: a function of the square's orbit and the colour.
      solver::PointWeights weight(n, std::vector<std::uint32_t>(m.size()));
      for (int p = 0; p < n; ++p) {
        int orbit_min = p;
        for (const auto& g : group) orbit_min = std::min(orbit_min, g[p]);
        for (std::size_t c = 0; c < m.size(); ++c)
          weight[p][c] = std::uint32_t(orbit_min * 7 + c * 3 + 1);
      }
      const auto [orbits, weight_sum] = explicit_orbits(group, m, weight);
      INFO(w << "x" << h << " mix of " << m.size() << " colours, first " << m[0]);
      for (const bool visit : {false, true}) {
        solver::CanonicalEnumerationOptions options;
        options.visit_every_form = visit;
        options.threads = 2;
        const auto counts = solver::enumerate_canonical_colourings(group, m, weight, options);
        CHECK(counts.orbits == Count(orbits));
        CHECK(counts.colourings == solver::multinomial(m));
        CHECK(counts.weight_sum == Count(weight_sum));
        CHECK(counts.visited == (visit ? Count(orbits) : 0));
      }
      CHECK(solver::count_orbits_burnside(group, m) == Count(orbits));
    }
  }
}

TEST_CASE("orbits: work items counted in rounds add up to the whole", "[claims]") {
  const drop::Game game(drop::drop16_variant());
  const auto group = drop::square_permutations(game.geometry());
  const auto weight = drop::full_board_capture_weights(game.geometry(), drop::kWhite);
  for (int ply : {3, 16}) {
    const auto m =
        drop::colour_multiplicities(game.variant(), drop::dropped_after(game.variant(), ply).at(0));
    const auto whole = solver::enumerate_canonical_colourings(
        group, m, ply == 16 ? weight : solver::PointWeights{}, {});
    const std::size_t items = solver::canonical_work_items(group, m);
    REQUIRE(items > 10);
    solver::OrbitCounts rounds;
    for (std::size_t first = 0; first < items; first += 7) {
      solver::CanonicalEnumerationOptions options;
      options.first_item = first;
      options.item_count = 7;
      rounds += solver::enumerate_canonical_colourings(
          group, m, ply == 16 ? weight : solver::PointWeights{}, options);
    }
    CHECK(rounds.orbits == whole.orbits);
    CHECK(rounds.colourings == whole.colourings);
    CHECK(rounds.weight_sum == whole.weight_sum);
  }
}

TEST_CASE("orbits: Burnside's terms on the full Drop 16 board", "[claims]") {
  const drop::Game game(drop::drop16_variant());
  const auto group = drop::square_permutations(game.geometry());
  const auto m =
      drop::colour_multiplicities(game.variant(), drop::dropped_after(game.variant(), 16).at(0));
  // Identity: 16!/2!^6. Rotations and edge mirrors: none (a single queen or king cannot sit on a
  // 2- or 4-cycle). Diagonal mirrors: the 4 single pieces on the 4 fixed squares, the 6 pairs on
  // the 6 two-cycles: 4! * 6!.
  std::multiset<Count> terms;
  for (const auto& g : group) terms.insert(solver::count_fixed_colourings(g, m));
  CHECK(terms ==
        std::multiset<Count>{0, 0, 0, 0, 0, 24 * 720, 24 * 720, solver::factorial(16) / 64});
  CHECK(solver::count_orbits_burnside(group, m) == Count(40864828320ull));
}

TEST_CASE("orbits: the enumerator rejects what is not a group action it can count", "[claims]") {
  const std::vector<solver::Permutation> no_identity{{1, 0}};
  CHECK_THROWS_AS(
      solver::enumerate_canonical_colourings(no_identity, std::vector<int>{1, 1}, {}, {}),
      std::invalid_argument);
  const std::vector<solver::Permutation> swap{{0, 1}, {1, 0}};
  CHECK_THROWS_AS(solver::enumerate_canonical_colourings(swap, std::vector<int>{1, 2}, {}, {}),
                  std::invalid_argument);
  const solver::PointWeights not_invariant{{1, 0}, {2, 0}};
  CHECK_THROWS_AS(
      solver::enumerate_canonical_colourings(swap, std::vector<int>{1, 1}, not_invariant, {}),
      std::invalid_argument);
}

TEST_CASE("drops only: closed counts against search over real positions", "[claims]") {
  for (const char* name : kSmallVariants) {
    const drop::Game game(drop::parse_variant(name));
    const drop::DropsOnlyGame drops(game);
    const int last = drop::last_drop_ply(game.variant());
    INFO(name);
    for (const bool symmetric : {false, true}) {
      const auto found = solver::count_distinct_positions(
          drops, drops.start(), last + 1, std::uint64_t{1} << 30, 2, false,
          [&](const drop::Position& p) {
            return symmetric ? game.symmetric_key(p) : game.raw_key(p);
          });
      REQUIRE(found.per_ply.size() == std::size_t(last + 2));
      for (int k = 0; k <= last; ++k) {
        INFO("ply " << k << (symmetric ? " up to symmetry" : ""));
        if (symmetric) {
          CHECK(Count(found.per_ply[k]) == closed_orbits(game, k, false));
          CHECK(Count(found.per_ply[k]) == closed_orbits(game, k, true));
        } else {
          CHECK(Count(found.per_ply[k]) == closed_positions(game.variant(), k));
        }
      }
      // Drops-only play really stops at the last drop ply.
      CHECK(found.per_ply[last + 1] == 0);
    }
    for (int k = 0; k <= last; ++k) {
      // Plain perft visits every sequence but the last ply's: keep it to a few million.
      if (closed_sequences(game.variant(), k) < 5'000'000) {
        auto p = drops.start();
        CHECK(Count(solver::perft(drops, p, k)) == closed_sequences(game.variant(), k));
      }
      const Count per_position = solver::factorial((k + 1) / 2) * solver::factorial(k / 2);
      CHECK(closed_sequences(game.variant(), k) ==
            closed_positions(game.variant(), k) * per_position);
    }
  }
}

TEST_CASE("drops only: the last drop ply", "[claims]") {
  CHECK(drop::last_drop_ply(drop::drop16_variant()) == 16);
  CHECK(drop::last_drop_ply(drop::parse_variant("3x3:NBRK")) == 8);
  CHECK(drop::last_drop_ply(drop::parse_variant("2x2:NBRQK")) == 4);
  CHECK(drop::last_drop_ply(drop::parse_variant("4x4:NK/nbrqk")) == 4);  // White runs out at ply 5
  CHECK(drop::last_drop_ply(drop::parse_variant("4x4:NBRQK/k")) == 3);   // Black runs out at ply 4
  CHECK(drop::dropped_after(drop::drop16_variant(), 16).size() == 1);
  CHECK(drop::dropped_after(drop::drop16_variant(), 17).empty());
}

TEST_CASE("full board: captures are a sum over squares", "[claims]") {
  // On a full board the engine's capture count equals the sum of captures_on_full_board over the
  // mover's pieces, on every square for every type, checked on random full boards.
  for (const char* name : {"drop16", "3x3:NBRQK/nbrq", "4x2:NBRK"}) {
    const drop::Game game(drop::parse_variant(name));
    const drop::Variant& v = game.variant();
    const int last = drop::last_drop_ply(v);
    REQUIRE(last == v.squares());
    const auto dropped = drop::dropped_after(v, last);
    solver::ProbeRandom random(7, 0);
    for (int trial = 0; trial < 200; ++trial) {
      const auto& d = dropped[random.below(std::uint32_t(dropped.size()))];
      const auto m = drop::colour_multiplicities(v, d);
      std::vector<int> colours;
      for (std::size_t c = 0; c < m.size(); ++c) colours.insert(colours.end(), m[c], int(c));
      for (std::size_t i = colours.size(); i > 1; --i)
        std::swap(colours[i - 1], colours[random.below(std::uint32_t(i))]);
      const drop::Position p = drop::position_from_colours(v, d, colours);
      const auto weights = drop::full_board_capture_weights(game.geometry(), p.side_to_move);
      std::uint64_t sum = 0;
      for (int sq = 0; sq < v.squares(); ++sq) sum += weights[sq][colours[sq]];
      CHECK(game.count_moves(p) == sum);
    }
  }
}

TEST_CASE("complete games: memoized path counting against plain recursion", "[claims]") {
  for (const char* name :
       {"2x2:NK", "2x2:NBK", "2x2:NNBB", "3x2:NK", "3x3:NK", "2x3:NNK/bk", "3x3:NB/k"}) {
    const drop::Game game(drop::parse_variant(name));
    auto p = game.start();
    const Count plain = plain_complete_games(game, p);
    const auto memo = solver::count_complete_games(game, game.start(), std::uint64_t{1} << 30);
    INFO(name);
    CHECK(memo.tree.games == plain);
    CHECK(memo.tree.longest <=
          2 * (game.variant().hand_size(drop::kWhite) + game.variant().hand_size(drop::kBlack)) -
              1);
    CHECK(memo.tree.shortest <= memo.tree.longest);
  }
  // A cap too small for the memo, or a deadline already past, stops the count cleanly.
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  CHECK_THROWS_AS(solver::count_complete_games(game, game.start(), 4096), solver::MemoryCapReached);
  CHECK_THROWS_AS(solver::count_complete_games(game, game.start(), std::uint64_t{1} << 30,
                                               std::chrono::steady_clock::now()),
                  solver::DeadlineReached);
}

TEST_CASE("Knuth's estimator: unbiased on small variants, independent of threads", "[claims]") {
  for (const char* name : {"2x2:NBK", "2x2:NNBB", "3x3:NK"}) {
    const drop::Game game(drop::parse_variant(name));
    auto p = game.start();
    const double exact = solver::to_double(plain_complete_games(game, p));
    const auto totals = solver::run_probes(game, game.start(), 12345, 0, 200'000, 2);
    const auto e = solver::estimate_mean(totals.weight_sum, totals.weight_sum_sq, totals.probes);
    INFO(name << ": exact " << exact << ", estimate " << e.mean << " +- " << e.standard_error);
    CHECK(std::abs(e.mean - exact) < 4 * e.standard_error);
    CHECK(std::abs(e.mean - exact) < 0.05 * exact);
    // perft(1) is estimated exactly: every probe sees the same first branching factor.
    auto root = game.start();
    CHECK(totals.perft_sum[1] / double(totals.probes) == double(solver::perft(game, root, 1)));
    // Probe i depends on (seed, i) only: one thread, and two runs split at any point, agree.
    const auto one_thread = solver::run_probes(game, game.start(), 12345, 0, 200'000, 1);
    auto split = solver::run_probes(game, game.start(), 12345, 0, 81'920, 2);
    split.add(solver::run_probes(game, game.start(), 12345, 81'920, 118'080, 2));
    CHECK(one_thread.weight_sum == totals.weight_sum);
    CHECK(split.weight_sum == totals.weight_sum);
    CHECK(split.games_by_length == totals.games_by_length);
  }
}

TEST_CASE("random probes: perft estimates match exact perft on a tiny variant", "[claims]") {
  const drop::Game game(drop::parse_variant("3x3:NK"));
  const auto totals = solver::run_probes(game, game.start(), 99, 0, 400'000, 2);
  for (int d = 2; d <= 5; ++d) {
    auto p = game.start();
    const double exact = double(solver::perft(game, p, d));
    const auto e =
        solver::estimate_mean(totals.perft_sum[d], totals.perft_sum_sq[d], totals.probes);
    INFO("perft(" << d << ") exact " << exact << " estimate " << e.mean);
    CHECK(std::abs(e.mean - exact) < 4 * e.standard_error + 1e-9 * exact);
  }
  std::uint64_t games = 0;
  for (auto n : totals.games_by_length) games += n;
  CHECK(games == totals.probes);
}

TEST_CASE("charts: well-formed SVG with every series", "[claims]") {
  solver::Chart chart;
  chart.title = "a < b & c";
  chart.log_y = true;
  chart.series.push_back({"one", {{0, 1}, {1, 10}, {2, 1e20}}, false});
  chart.series.push_back({"two", {{0, 0}, {1, 5}}, true});
  const std::string svg = solver::render_svg(chart);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(svg.find("a &lt; b &amp; c") != std::string::npos);
  CHECK(svg.find("stroke-dasharray") != std::string::npos);
  CHECK(svg.find("1e20") != std::string::npos);
  chart.bars = true;
  chart.log_y = false;
  CHECK(solver::render_svg(chart).find("<rect x=") != std::string::npos);
}
