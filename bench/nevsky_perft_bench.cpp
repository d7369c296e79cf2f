// Perft speed of the Nevsky engine on the game's start (6x6, 6 men each), against the plain
// reference engine (rules/nevsky/reference_rules.h, every leaf played) in the same run:
//   NevskyReference - the reference engine,
//   NevskyPerft     - the bitboard engine through solver::perft (bulk counting at the last ply),
//                     on 1 and 2 threads (solver::parallel_divide),
//   NevskyHashed    - with the transposition table on canonical keys (a fresh table each run).
// Counters report leaves per second of real time; compare rows of the same depth.
#include <benchmark/benchmark.h>

#include "bench/perft_runs.h"
#include "rules/nevsky/game.h"
#include "rules/nevsky/notation.h"
#include "rules/nevsky/reference_rules.h"

namespace {

const nevsky::Game& nevsky_game() {
  static const nevsky::Game game(nevsky::parse_variant("nevsky"));
  return game;
}

void BM_NevskyReference(benchmark::State& state) {
  const auto board =
      nevsky::reference::from_text(nevsky::to_fen(nevsky_game(), nevsky_game().start()), false);
  std::uint64_t n = 0;
  for (auto _ : state) n = nevsky::reference::perft(board, int(state.range(0)));
  bench::report_leaves(state, n);
}
BENCHMARK(BM_NevskyReference)->Arg(7)->Arg(8)->Unit(benchmark::kMillisecond)->UseRealTime();

// Arguments: depth, threads.
void BM_NevskyPerft(benchmark::State& state) {
  const int depth = int(state.range(0)), threads = int(state.range(1));
  std::uint64_t n = 0;
  for (auto _ : state)
    n = bench::divided_perft(nevsky_game(), nevsky_game().start(), depth, threads);
  bench::report_leaves(state, n);
}
BENCHMARK(BM_NevskyPerft)
    ->Args({8, 1})
    ->Args({12, 1})
    ->Args({12, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Arguments: depth, threads, table MB.
void BM_NevskyHashed(benchmark::State& state) {
  const int depth = int(state.range(0)), threads = int(state.range(1));
  std::uint64_t n = 0;
  for (auto _ : state)
    n = bench::divided_hashed_perft(nevsky_game(), nevsky_game().start(), depth, threads,
                                    std::size_t(state.range(2)) << 20);
  bench::report_leaves(state, n);
}
BENCHMARK(BM_NevskyHashed)
    ->Args({12, 1, 32})
    ->Args({14, 2, 256})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
