// Speed of the claims counters on Drop 16, with the baselines that make the numbers mean something:
//   CanonicalBulk   - orbits of full boards by canonical forms, completions counted in bulk,
//   CanonicalVisit  - the same orbits visited one by one (the literal check), 1 and 2 threads,
//                     on ply 5 so an iteration takes a fraction of a second,
//   Burnside        - the closed count the enumeration is checked against,
//   AllPlies        - every ply of the drops-only opening by canonical forms, 1 and 2 threads,
//   RandomProbes    - random descents (Knuth's estimator), 1 and 2 threads,
//   CompleteGames   - exact path counting on 3x3:NBK.
#include <benchmark/benchmark.h>

#include "rules/drop/game.h"
#include "rules/drop/placements.h"
#include "solver/claims_game_paths.h"
#include "solver/claims_orbits.h"
#include "solver/claims_random_probes.h"

namespace {

const drop::Game& drop16() {
  static const drop::Game game(drop::drop16_variant());
  return game;
}

// Colour multiplicities of every pair of dropped hands after `ply` plies of Drop 16.
std::vector<std::vector<int>> multiplicities_at(int ply) {
  std::vector<std::vector<int>> out;
  for (const auto& d : drop::dropped_after(drop16().variant(), ply))
    out.push_back(drop::colour_multiplicities(drop16().variant(), d));
  return out;
}

solver::Count orbits_at(int ply, bool visit, int threads) {
  const auto group = drop::square_permutations(drop16().geometry());
  solver::CanonicalEnumerationOptions options;
  options.visit_every_form = visit;
  options.threads = threads;
  solver::Count orbits = 0;
  for (const auto& m : multiplicities_at(ply))
    orbits += solver::enumerate_canonical_colourings(group, m, {}, options).orbits;
  return orbits;
}

void forms_rate(benchmark::State& state, solver::Count forms) {
  state.counters["forms/s"] =
      benchmark::Counter(solver::to_double(forms), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_CanonicalBulk(benchmark::State& state) {
  solver::Count orbits = 0;
  for (auto _ : state) benchmark::DoNotOptimize(orbits = orbits_at(16, false, 1));
  forms_rate(state, orbits);
}
BENCHMARK(BM_CanonicalBulk)->Unit(benchmark::kMillisecond);

void BM_CanonicalVisit(benchmark::State& state) {
  solver::Count orbits = 0;
  for (auto _ : state) benchmark::DoNotOptimize(orbits = orbits_at(5, true, int(state.range(0))));
  forms_rate(state, orbits);
}
BENCHMARK(BM_CanonicalVisit)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Burnside(benchmark::State& state) {
  const auto group = drop::square_permutations(drop16().geometry());
  const auto all = multiplicities_at(16);
  for (auto _ : state)
    for (const auto& m : all) benchmark::DoNotOptimize(solver::count_orbits_burnside(group, m));
}
BENCHMARK(BM_Burnside)->Unit(benchmark::kMicrosecond);

void BM_AllPlies(benchmark::State& state) {
  for (auto _ : state)
    for (int ply = 0; ply <= 16; ++ply)
      benchmark::DoNotOptimize(orbits_at(ply, false, int(state.range(0))));
}
BENCHMARK(BM_AllPlies)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_RandomProbes(benchmark::State& state) {
  constexpr std::uint64_t kProbes = 20'000;
  std::uint64_t first = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        solver::run_probes(drop16(), drop16().start(), 1, first, kProbes, int(state.range(0))));
    first += kProbes;
  }
  state.counters["games/s"] =
      benchmark::Counter(double(kProbes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_RandomProbes)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CompleteGames(benchmark::State& state) {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  std::uint64_t positions = 0;
  for (auto _ : state)
    positions = solver::count_complete_games(game, game.start(), std::uint64_t{1} << 30).positions;
  state.counters["positions/s"] =
      benchmark::Counter(double(positions), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CompleteGames)->Unit(benchmark::kMillisecond);

}  // namespace
