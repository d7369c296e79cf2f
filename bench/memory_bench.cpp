// Random reads over a big table, as the tier solver reads children and the prover its
// transposition table: the same batches of 8 prefetched byte reads in a std::vector (4 KB pages)
// and in a ZeroedArray (2 MB pages where the kernel gives them). Both tables hold the same bytes.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "solver/zeroed_array.h"

namespace {

constexpr std::size_t kTableBytes = std::size_t{2} << 30;

void random_reads(benchmark::State& state, std::span<const std::uint8_t> table) {
  std::uint64_t x = 88172645463325252ull, sum = 0;  // xorshift64: cheap, spread over the table
  for (auto _ : state) {
    std::size_t at[8];
    for (std::size_t& i : at) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      i = x % table.size();
      __builtin_prefetch(&table[i]);
    }
    for (std::size_t i : at) sum += table[i];
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(8 * state.iterations());
}

void BM_RandomReadsVector(benchmark::State& state) {
  const std::vector<std::uint8_t> table(kTableBytes, 1);
  random_reads(state, table);
}
BENCHMARK(BM_RandomReadsVector)->Unit(benchmark::kNanosecond)->MinTime(2);

void BM_RandomReadsZeroedArray(benchmark::State& state) {
  solver::ZeroedArray<std::uint8_t> table(kTableBytes);
  std::fill(table.data(), table.data() + table.size(), 1);
  random_reads(state, table);
}
BENCHMARK(BM_RandomReadsZeroedArray)->Unit(benchmark::kNanosecond)->MinTime(2);

}  // namespace
