// A solved Spock row on disk (tablebase/wdl_table.h): file size and probe times by block size.
// The row, spock:3x3:RSK/rsk (2.06e6 positions), is solved once per run by the cyclic retrograde
// solver (about 6 s) and written at each block size; probes ask for random positions of it.
//
//   build/drop16_bench --benchmark_filter=WdlTable
//
// Counters: bits_per_position is the file's size per position (header and index included).
// Cold: the block cache dropped before each probe (the file stays in the OS page cache); warm:
// probes of one block's keys, so each finds its block cached.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "rules/spock/material.h"
#include "solver/cyclic_retrograde.h"
#include "tablebase/wdl_table.h"

namespace {

namespace fs = std::filesystem;
using Entries = std::vector<std::pair<common::Key, solver::WdlValue>>;

constexpr const char* kRow = "spock:3x3:RSK/rsk";

const Entries& row_entries() {
  static const Entries entries = [] {
    const spock::Material m = spock::parse_material(kRow);
    const spock::Game game(m.width, m.height);
    const std::vector<spock::Position> roots = spock::placements(m);
    solver::CyclicSolveOptions options;
    options.memory_bytes = std::uint64_t{2} << 30;
    const solver::CyclicRetrograde<spock::Game> solved(game, roots, options);
    Entries out;
    solved.for_each_value(
        [&](const common::Key& k, solver::WdlValue v) { out.emplace_back(k, v); });
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
  }();
  return entries;
}

// The row's table at this many entries per block, written once per run.
tablebase::WdlTable& table(std::uint32_t per_block) {
  static std::map<std::uint32_t, tablebase::WdlTable> tables;
  if (auto it = tables.find(per_block); it != tables.end()) return it->second;
  const fs::path file =
      fs::temp_directory_path() /
      ("wdl_table_bench_" + std::to_string(::getpid()) + "_" + std::to_string(per_block) + ".wdl");
  tablebase::write_wdl_table(file, {"spock", kRow, "spock-1"}, row_entries(), 19, per_block);
  auto [it, added] = tables.emplace(per_block, tablebase::WdlTable(file, "spock-1", "spock", kRow));
  fs::remove(file);  // the reader keeps it open
  return it->second;
}

void BM_WdlTableColdProbe(benchmark::State& state) {
  const Entries& entries = row_entries();
  tablebase::WdlTable& t = table(std::uint32_t(state.range(0)));
  std::mt19937_64 rng(1);
  for (auto _ : state) {
    state.PauseTiming();
    t.drop_cache();
    const common::Key k = entries[rng() % entries.size()].first;
    state.ResumeTiming();
    benchmark::DoNotOptimize(t.probe(k));
  }
  state.counters["bits_per_position"] = 8.0 * double(t.file_bytes()) / double(entries.size());
  state.counters["file_bytes"] = double(t.file_bytes());
}

void BM_WdlTableWarmProbe(benchmark::State& state) {
  const Entries& entries = row_entries();
  tablebase::WdlTable& t = table(std::uint32_t(state.range(0)));
  std::mt19937_64 rng(2);
  const std::size_t first = rng() % (entries.size() - state.range(0));
  for (auto _ : state)
    benchmark::DoNotOptimize(t.probe(entries[first + rng() % std::size_t(state.range(0))].first));
}

void block_sizes(benchmark::internal::Benchmark* b) {
  for (const int per_block : {256, 1024, 4096, 16384}) b->Arg(per_block);
}

}  // namespace

BENCHMARK(BM_WdlTableColdProbe)->Apply(block_sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WdlTableWarmProbe)->Arg(1024)->Unit(benchmark::kNanosecond);
