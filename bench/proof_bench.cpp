// Proof search, measured against baselines in the same run:
//   ProofThreads   - nodes per second proving a rung from scratch on 1 and on 2 threads;
//   ProofOrdering  - the node count of a rung with every ordering idea on (the baseline row
//                    "all"), with each one switched off in turn, and with all of them off, so
//                    each idea's gain is the ratio of its row to "all".
// Every iteration starts from an empty table. Counters: nodes and nodes/s (wall clock).
#include <benchmark/benchmark.h>

#include <string>

#include "rules/drop/game.h"
#include "solver/proof_search.h"
#include "tablebase/drop_move_symmetry.h"

namespace {

constexpr const char* kRungs[] = {"4x4:NBK", "3x3:NBRK", "4x4:NBRK"};

const drop::Game& rung(int i) {
  static const drop::Game games[] = {drop::Game(drop::parse_variant(kRungs[0])),
                                     drop::Game(drop::parse_variant(kRungs[1])),
                                     drop::Game(drop::parse_variant(kRungs[2]))};
  return games[i];
}

void run_proof(benchmark::State& state, const drop::Game& game, solver::ProofOptions options) {
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    solver::ProofTable<drop::Key> table(std::size_t(1) << 30);
    solver::ProofSearch<drop::Game, tablebase::DropMoveSymmetry> search(
        game, table, options, tablebase::DropMoveSymmetry(game));
    benchmark::DoNotOptimize(search.prove(game.start()));
    nodes = search.stats().nodes;
  }
  state.counters["nodes"] = double(nodes);
  state.counters["nodes/s"] =
      benchmark::Counter(double(nodes), benchmark::Counter::kIsIterationInvariantRate);
}

// Arguments: rung, threads.
void BM_ProofThreads(benchmark::State& state) {
  const int threads = int(state.range(1));
  state.SetLabel(std::string(kRungs[state.range(0)]) + ", " + std::to_string(threads) +
                 " thread(s)");
  run_proof(state, rung(int(state.range(0))), {true, true, true, true, threads, 2});
}
BENCHMARK(BM_ProofThreads)
    ->Args({1, 1})
    ->Args({1, 2})
    ->Args({2, 1})
    ->Args({2, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// Arguments: rung, which idea is off (0 none, 1 immediate wins, 2 mirror reply, 3 symmetry
// pruning, 4 mobility, 5 all of them).
void BM_ProofOrdering(benchmark::State& state) {
  const int off = int(state.range(1));
  static const char* kNames[] = {"all",         "no immediate wins", "no mirror reply",
                                 "no symmetry", "no mobility",       "none"};
  state.SetLabel(std::string(kRungs[state.range(0)]) + ", " + kNames[off]);
  solver::ProofOptions o;
  o.immediate_wins = off != 1 && off != 5;
  o.mirror_reply = off != 2 && off != 5;
  o.symmetry_pruning = off != 3 && off != 5;
  o.mobility = off != 4 && off != 5;
  o.threads = 1;
  run_proof(state, rung(int(state.range(0))), o);
}
BENCHMARK(BM_ProofOrdering)
    ->ArgsProduct({{0, 1, 2}, {0, 1, 2, 3, 4, 5}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
