// Perft speed of the engine against baselines measured in the same run:
//   Reference  - the plain mailbox engine in rules/drop/reference_rules.h (every leaf played),
//   NoBulk     - the bitboard engine, but every leaf made and unmade (no bulk counting),
//   Perft      - the engine as used: bulk counting at the last ply, 1 and 2 threads,
//   Hashed     - with the transposition table on canonical keys.
// Counters report leaves per second; compare rows of the same depth.
#include <benchmark/benchmark.h>

#include "bench/perft_runs.h"
#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/reference_rules.h"

namespace {

const drop::Game& drop16() {
  static const drop::Game game(drop::drop16_variant());
  return game;
}

std::uint64_t perft_no_bulk(const drop::Game& game, drop::Position& p, int depth) {
  if (depth == 0) return 1;
  drop::MoveList moves;
  game.generate(p, moves);
  std::uint64_t n = 0;
  for (drop::Move m : moves) {
    const auto undo = game.make(p, m);
    n += perft_no_bulk(game, p, depth - 1);
    game.unmake(p, m, undo);
  }
  return n;
}

using bench::report_leaves;

void BM_ReferencePerft(benchmark::State& state) {
  const auto board = drop::reference::from_position(drop16(), drop16().start());
  std::uint64_t n = 0;
  for (auto _ : state) n = drop::reference::perft(board, int(state.range(0)));
  report_leaves(state, n);
}
BENCHMARK(BM_ReferencePerft)->Arg(3)->Arg(4)->Unit(benchmark::kMillisecond);

void BM_NoBulkPerft(benchmark::State& state) {
  auto p = drop16().start();
  std::uint64_t n = 0;
  for (auto _ : state) n = perft_no_bulk(drop16(), p, int(state.range(0)));
  report_leaves(state, n);
}
BENCHMARK(BM_NoBulkPerft)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

// Arguments: depth, threads.
void BM_Perft(benchmark::State& state) {
  const int depth = int(state.range(0)), threads = int(state.range(1));
  std::uint64_t n = 0;
  for (auto _ : state) n = bench::divided_perft(drop16(), drop16().start(), depth, threads);
  report_leaves(state, n);
}
BENCHMARK(BM_Perft)
    ->Args({4, 1})
    ->Args({5, 1})
    ->Args({5, 2})
    ->Args({6, 1})
    ->Args({6, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Arguments: depth, threads, table MB. A fresh table each iteration: no carry-over between runs.
void BM_HashedPerft(benchmark::State& state) {
  const int depth = int(state.range(0)), threads = int(state.range(1));
  std::uint64_t n = 0;
  for (auto _ : state)
    n = bench::divided_hashed_perft(drop16(), drop16().start(), depth, threads,
                                    std::size_t(state.range(2)) << 20);
  report_leaves(state, n);
}
BENCHMARK(BM_HashedPerft)
    ->Args({6, 1, 512})
    ->Args({6, 2, 512})
    ->Args({7, 2, 2048})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_CanonicalKey(benchmark::State& state) {
  const auto& game = drop16();
  auto p = game.start();
  for (const char* m : {"N@a1", "q@b2", "R@c3", "k@d4", "B@a4"}) {
    drop::MoveList list;
    game.generate(p, list);
    for (drop::Move mv : list)
      if (drop::move_name(game.geometry(), mv) == m) game.make(p, mv);
  }
  for (auto _ : state) benchmark::DoNotOptimize(game.canonical_key(p));
}
BENCHMARK(BM_CanonicalKey);

}  // namespace
