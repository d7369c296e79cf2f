// Perft runs the perft benchmarks of every game share: a position counted on a number of threads
// through solver::parallel_divide, plainly or on a fresh transposition table, and the counters
// they report.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>

#include "solver/game_concept.h"
#include "solver/hashed_perft.h"
#include "solver/parallel_perft.h"
#include "solver/perft.h"

namespace bench {

inline void report_leaves(benchmark::State& state, std::uint64_t leaves) {
  state.counters["leaves/s"] =
      benchmark::Counter(double(leaves), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["leaves"] = double(leaves);
}

template <solver::PerftGame G>
std::uint64_t divided_perft(const G& game, const typename G::Position& root, int depth,
                            int threads) {
  solver::Progress quiet("", 0, "", false);
  return solver::checked_u64(solver::parallel_divide(game, root, depth, threads, quiet,
                                                     [&](typename G::Position& p, int d) {
                                                       return solver::perft(game, p, d);
                                                     })
                                 .total());
}

// On a table of `table_bytes` made for this run alone: no carry-over between runs.
template <solver::KeyedGame G>
std::uint64_t divided_hashed_perft(const G& game, const typename G::Position& root, int depth,
                                   int threads, std::size_t table_bytes) {
  solver::PerftTable<typename G::Key> table(table_bytes);
  solver::Progress quiet("", 0, "", false);
  return solver::checked_u64(
      solver::parallel_divide(
          game, root, depth, threads, quiet,
          [&](typename G::Position& p, int d) { return solver::hashed_perft(game, p, d, table); })
          .total());
}

}  // namespace bench
