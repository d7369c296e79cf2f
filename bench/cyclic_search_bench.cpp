// The bounded forward search for games with cycles (solver/cyclic_search.h) on a fixed set of Spock
// positions, one thread, a fresh table each run: the value by iterative deepening to a fixed depth,
// and the rate of positions expanded ("nodes_per_s"; a node is one position whose moves were
// generated, a question asked of it that its table entry did not answer).
//   Start9      - the 5x5 start to 9 plies: nothing is forced, every question is a refutation
//   PaperOnB3   - after 1. a1a3 e4e3 2. a3b3, Red to move: a win in 3 (c5b3), found at 3 plies
//   PaperOnB3W9 - the same board with Blue to move, to 9 plies: nothing forced
//   Row4x3      - a position of spock:4x3:RK/rk lost in 18 plies (its longest), to that depth
//   Row3x3      - a position of spock:3x3:RSK/rk won in 21 plies (its longest), to that depth
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

#include "rules/spock/notation.h"
#include "solver/cyclic_search.h"

namespace {

constexpr std::uint64_t kMemory = std::uint64_t{1} << 30;

void run(benchmark::State& state, const std::string& fen, int depth) {
  const spock::Setup s = spock::parse_fen(fen);
  for (auto _ : state) {
    solver::CyclicSearch<spock::Game> search(s.game, kMemory);
    const auto began = std::chrono::steady_clock::now();
    const auto r = search.solve(s.position, {depth, 0});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    state.counters["nodes"] = double(search.nodes());
    state.counters["nodes_per_s"] = double(search.nodes()) / seconds;
    state.counters["positions_stored"] = double(search.positions_stored());
    state.counters["distance"] = r.value ? r.value->distance : -1;
  }
}

void Start9(benchmark::State& state) {
  run(state, spock::start_fen(), 9);
}
void PaperOnB3(benchmark::State& state) {
  run(state, "psksp/rrrr1/1P2r/RRRRR/1SKSP b", 9);
}
void PaperOnB3W9(benchmark::State& state) {
  run(state, "psksp/rrrr1/1P2r/RRRRR/1SKSP w", 9);
}
void Row4x3(benchmark::State& state) {
  run(state, "4/k2K/s1P1 w", 18);
}
void Row3x3(benchmark::State& state) {
  run(state, "R2/k1K/lk1 w", 21);
}
BENCHMARK(Start9)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(PaperOnB3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(PaperOnB3W9)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(Row4x3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(Row3x3)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
