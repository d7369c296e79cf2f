// The cyclic retrograde solver (solver/cyclic_retrograde.h) against the acyclic tier solver
// (tablebase/tier_solver.h) on the same acyclic variant, one thread each, in one run:
//   CyclicRetrograde - every position reachable from the start, keyed on canonical keys, through a
//                      hash map, a stored forward index and its reverse;
//   CyclicBaselineTierSolver - every position of every tier, one byte an entry of a dense index.
// One thread each, so the rates are per core. The cyclic row's "positions" are canonical classes
// (mirror images and colour swaps as one); the tier solver stores symmetry representatives,
// 1.33 entries a class on 3x3:NBRK (tablebase/SOLVER.md), so compare the cyclic row's
// "positions_per_s" with the tier row's "entries_per_s"; the tier row's "positions" counts every
// position its entries stand for. The cyclic row splits its time into the exploration (move
// generation, canonical keys, the hash map, the forward index) and the solve (reverse index,
// counters, queue), and "peak_mb" is the memory it counted (MiB).
#include <benchmark/benchmark.h>

#include "rules/drop/game.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/cyclic_retrograde.h"
#include "tablebase/tier_solver.h"

namespace {

constexpr const char* kVariant = "3x3:NBRK";
constexpr std::uint64_t kMemory = std::uint64_t{8} << 30;

const drop::Game& game() {
  static const drop::Game g(drop::parse_variant(kVariant));
  return g;
}

void CyclicRetrograde(benchmark::State& state) {
  for (auto _ : state) {
    const drop::Position start = game().start();
    const solver::CyclicRetrograde<drop::Game> solved(game(), {&start, 1}, {kMemory, false});
    const auto& r = solved.report();
    const double seconds = r.explore_seconds + r.solve_seconds;
    state.counters["positions"] = double(r.positions);
    state.counters["links"] = double(r.links);
    state.counters["moves"] = double(r.moves);
    state.counters["positions_per_s"] = double(r.positions) / seconds;
    state.counters["explore_s"] = r.explore_seconds;
    state.counters["solve_s"] = r.solve_seconds;
    state.counters["peak_mb"] = double(r.peak_bytes) / double(1 << 20);
    state.counters["longest_win"] = r.longest_win;
    state.counters["draws"] = double(r.draws);
  }
}
BENCHMARK(CyclicRetrograde)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

void CyclicBaselineTierSolver(benchmark::State& state) {
  const drop::TierSpace space(game());
  for (auto _ : state) {
    tablebase::TierSolveOptions options;
    options.memory_bytes = kMemory;
    options.threads = 1;
    const auto report = tablebase::TierSolver<drop::TierSpace>(space, options).run();
    state.counters["positions"] = double(report.positions);
    state.counters["stored"] = double(report.stored);
    state.counters["positions_per_s"] = double(report.positions) / report.seconds;
    state.counters["entries_per_s"] = double(report.stored) / report.seconds;
  }
}
BENCHMARK(CyclicBaselineTierSolver)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

}  // namespace
