// Expectimax (solver/expectimax.h) on the dice race of the tests (tests/dice_race_game.h, a fair
// die, gammon when the loser has not passed half way), solved exactly from the start with a fresh
// table each iteration, in doubles and in exact rationals. "nodes_per_s" counts every position the
// search visits (table hits, terminal positions included); "stored" is the table's size, at most
// 14 x start^2 positions (mover-relative keys: two counters, no roll or one of 6, rolled again
// or not).
// The rate falls as the race grows because nearly every visit makes a new table entry (about 3
// visits a stored position) and the table leaves the caches: at start 100 (120k entries, 10 MB),
// perf puts 40% of the time in the hash map's insertion, 30% in the kernel's page faults as the
// fresh table grows, and 17% in the search itself.
#include <benchmark/benchmark.h>

#include "solver/expectimax.h"
#include "tests/dice_race_game.h"
#include "tests/rational.h"

namespace {

template <typename Number>
void ExpectimaxDiceRace(benchmark::State& state) {
  const int start = int(state.range(0));
  const test_support::DiceRaceGame game(start, (start + 1) / 2,
                                        test_support::DiceRaceGame::fair_die());
  std::uint64_t nodes = 0, stored = 0;
  for (auto _ : state) {
    solver::Expectimax<test_support::DiceRaceGame, Number> search(game, std::uint64_t{1} << 30);
    auto p = game.start();
    benchmark::DoNotOptimize(search.value(p));
    nodes += search.nodes();
    stored = search.positions_stored();
  }
  state.counters["nodes_per_s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
  state.counters["stored"] = double(stored);
}
BENCHMARK(ExpectimaxDiceRace<double>)->Arg(8)->Arg(30)->Arg(100)->Unit(benchmark::kMicrosecond);
// Exact rationals fit 64 bits only for short races (denominators 6^turns).
BENCHMARK(ExpectimaxDiceRace<test_support::Rational>)->Arg(8)->Unit(benchmark::kMicrosecond);

}  // namespace
