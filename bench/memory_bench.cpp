// Random reads over a big table, as the tier solver reads children and the prover its
// transposition table: the same batches of 8 prefetched byte reads in a std::vector (4 KB pages)
// and in a ZeroedArray (2 MB pages where the kernel gives them), and the same reads in windows
// made in address order (AddressOrderedReads, as the solver's big folds read). All tables hold
// the same bytes.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "solver/zeroed_array.h"
#include "tablebase/address_ordered_reads.h"

namespace {

constexpr std::size_t kTableBytes = std::size_t{2} << 30;

// xorshift64: cheap, spread over the table.
std::size_t next_index(std::uint64_t& x, std::size_t size) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x % size;
}

void random_reads(benchmark::State& state, std::span<const std::uint8_t> table) {
  std::uint64_t x = 88172645463325252ull, sum = 0;
  for (auto _ : state) {
    std::size_t at[8];
    for (std::size_t& i : at) {
      i = next_index(x, table.size());
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

// An iteration is a window of the solver's size for two threads (its ordered_window_bytes).
void BM_RandomReadsAddressOrdered(benchmark::State& state) {
  solver::ZeroedArray<std::uint8_t> table(kTableBytes);
  std::fill(table.data(), table.data() + table.size(), 1);
  constexpr std::size_t kReads =
      (std::size_t{32} << 20) / tablebase::AddressOrderedReads::kBytesPerRead;
  tablebase::AddressOrderedReads window(kReads);
  std::uint64_t x = 88172645463325252ull, sum = 0;
  std::size_t reads = 0;
  for (auto _ : state) {
    for (std::uint64_t slot = 0; !window.full(slot); ++slot)
      for (int k = 0; k < 8; ++k, ++reads) window.add(&table[next_index(x, table.size())], slot);
    window.read([&](std::uint64_t, std::uint8_t byte) { sum += byte; });
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(std::int64_t(reads));
}
BENCHMARK(BM_RandomReadsAddressOrdered)->Unit(benchmark::kMillisecond)->MinTime(2);

}  // namespace
