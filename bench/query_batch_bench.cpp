// Batch queries (the tier prober, what `drop16 query --batch` runs on): positions a second, one
// thread, for value + DTE and for every move's value + DTE, each from the FEN text as a batch
// line gives it (parse, locate, probe; not the JSON printing).
//
//   DROP16_QUERY_TABLES=/tmp/nbrk build/drop16_bench --benchmark_filter=QueryBatch
//
// The positions: 100,000 by random play from the start (seed 1), each a uniformly random 0 to 15
// plies deep, as text. Warm: one pass over them all before timing, so the page cache and the
// prober's block cache hold every block they touch (the steady state of a long batch); Fresh: a
// new prober each pass, so every tier is opened and every block decoded again (a short batch).
// ValueTablebase: the warm stream through Tablebase instead. Skipped when DROP16_QUERY_TABLES is
// not a directory.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "rules/drop/variant.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_prober.h"

namespace {

using Prober = tablebase::TierProber<drop::TierSpace>;

constexpr int kPositions = 100'000;
constexpr int kMaxPlies = 16;

struct Batch {
  std::filesystem::path dir;
  std::unique_ptr<drop::Game> game;
  std::vector<std::string> fens;
};

// The tables and positions, made once; nullptr (and the reason in `why`) without tables.
const Batch* batch(std::string& why) {
  static const std::unique_ptr<Batch> made = [&]() -> std::unique_ptr<Batch> {
    const char* dir = std::getenv("DROP16_QUERY_TABLES");
    if (!dir || !std::filesystem::is_directory(dir)) return nullptr;
    auto b = std::make_unique<Batch>();
    b->dir = dir;
    b->game = std::make_unique<drop::Game>(drop::parse_variant(tablebase::tables_variant(dir)));
    std::mt19937_64 rng(1);
    drop::MoveList moves;
    for (int i = 0; i < kPositions; ++i) {
      drop::Position p = b->game->start();
      for (int ply = int(rng() % kMaxPlies); ply > 0; --ply) {
        b->game->generate(p, moves);
        if (moves.empty()) break;
        b->game->make(p, moves[int(rng() % moves.size())]);
      }
      b->fens.push_back(drop::to_fen(*b->game, p));
    }
    return b;
  }();
  if (!made) why = "set DROP16_QUERY_TABLES to a directory of solved tables";
  return made.get();
}

void run(benchmark::State& state, bool with_moves, bool fresh) {
  std::string why;
  const Batch* b = batch(why);
  if (!b) {
    state.SkipWithError(why.c_str());
    return;
  }
  auto prober = std::make_unique<Prober>(*b->game, b->dir);
  std::uint64_t answered = 0, wins = 0;
  if (!fresh)
    for (const std::string& fen : b->fens)
      wins += prober->probe(drop::parse_fen(*b->game, fen), with_moves).dte & 1;
  for (auto _ : state) {
    if (fresh) {
      state.PauseTiming();
      prober = std::make_unique<Prober>(*b->game, b->dir);
      state.ResumeTiming();
    }
    for (const std::string& fen : b->fens) {
      const auto answer = prober->probe(drop::parse_fen(*b->game, fen), with_moves);
      wins += answer.dte & 1;
      answered += 1 + answer.moves.size();
    }
  }
  benchmark::DoNotOptimize(wins);
  state.SetItemsProcessed(std::int64_t(state.iterations()) * kPositions);
  state.counters["probes_per_position"] =
      double(answered) / double(std::max<std::int64_t>(1, state.iterations() * kPositions));
  state.counters["cached_mb"] = double(prober->cached_bytes()) / double(1 << 20);
}

// The same stream through Tablebase (a few cached blocks a file), for comparison: why the prober
// keeps every block.
void BM_QueryBatchValueTablebase(benchmark::State& state) {
  std::string why;
  const Batch* b = batch(why);
  if (!b) {
    state.SkipWithError(why.c_str());
    return;
  }
  const drop::TierSpace space(*b->game, true, tablebase::tables_max_pieces(b->dir));
  tablebase::Tablebase tables(space, b->dir);
  std::uint64_t wins = 0;
  for (const std::string& fen : b->fens) wins += tables.dte(drop::parse_fen(*b->game, fen)) & 1;
  for (auto _ : state)
    for (const std::string& fen : b->fens) wins += tables.dte(drop::parse_fen(*b->game, fen)) & 1;
  benchmark::DoNotOptimize(wins);
  state.SetItemsProcessed(std::int64_t(state.iterations()) * kPositions);
}

void BM_QueryBatchValue(benchmark::State& state) {
  run(state, false, false);
}
void BM_QueryBatchAllMoves(benchmark::State& state) {
  run(state, true, false);
}
void BM_QueryBatchValueFresh(benchmark::State& state) {
  run(state, false, true);
}
BENCHMARK(BM_QueryBatchValue)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_QueryBatchAllMoves)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_QueryBatchValueFresh)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_QueryBatchValueTablebase)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
