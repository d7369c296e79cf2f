// Solving speed and memory against the baseline the issue names, measured in the same run:
//   PlainMemoizedNegamax - the baseline: negamax with an absl::flat_hash_map keyed on
//                     exact positions, from the start (it visits only positions reachable
//                     from there);
//   MemoizedNegamax - the same keyed on canonical forms (symmetry and colour swap reduced), the
//                     project's forward solver: a stronger baseline;
//   TierSolver      - every position of every tier, in memory, 1 and 2 threads;
//   TierSolverNoSymmetry - the same without symmetry reduction, to show what it buys;
//   TierSolverValueOnly - the same with value-only tables (one bit an entry, no DTE), 1 and 2
//                     threads; "entries_per_cpu_s" compares it with TierSolver per CPU second.
// Compare the rows' real time; "resident_mb" is the memory each one's table holds, measured (the
// process's resident memory with the table, less without it), "positions" what each one solved.
// Probe rows time one table probe from a cold block (cache dropped) and a warm one, on tables
// written to a temporary directory.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "rules/drop/game.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/forward_solver.h"
#include "tablebase/tablebase.h"
#include "tablebase/tier_solver.h"

namespace {

constexpr const char* kVariant = "3x3:NBRK";

const drop::Game& game() {
  static const drop::Game g(drop::parse_variant(kVariant));
  return g;
}

// This process's resident memory now, in MB (/proc/self/statm: pages).
double resident_mb() {
  std::uint64_t pages = 0, resident = 0;
  std::ifstream("/proc/self/statm") >> pages >> resident;
  return double(resident * std::uint64_t(sysconf(_SC_PAGESIZE))) / double(1 << 20);
}

void run_negamax(benchmark::State& state, bool raw_keys) {
  for (auto _ : state) {
    const double before = resident_mb();
    solver::ForwardSolver<drop::Game> search(game(), std::uint64_t{8} << 30);
    if (raw_keys) search.use_raw_keys();
    drop::Position start = game().start();
    benchmark::DoNotOptimize(search.dte(start));
    state.counters["positions"] = double(search.positions_stored());
    state.counters["resident_mb"] = resident_mb() - before;
  }
}
void MemoizedNegamax(benchmark::State& state) {
  run_negamax(state, false);
}
void PlainMemoizedNegamax(benchmark::State& state) {
  run_negamax(state, true);
}
BENCHMARK(MemoizedNegamax)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(PlainMemoizedNegamax)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

// CPU seconds of the whole process so far, every thread's.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void run_tier_solver(benchmark::State& state, bool symmetry, bool value_only = false) {
  const drop::TierSpace space(game(), symmetry);
  for (auto _ : state) {
    tablebase::TierSolveOptions options;
    options.memory_bytes = std::uint64_t{8} << 30;
    options.threads = int(state.range(0));
    options.value_only = value_only;
    const double before = resident_mb(), cpu_before = cpu_seconds();
    tablebase::TierSolver<drop::TierSpace> solver(space, options);
    const auto report = solver.run();  // every tier stays in memory with the solver
    state.counters["entries_per_cpu_s"] = double(report.stored) / (cpu_seconds() - cpu_before);
    state.counters["positions"] = double(report.positions);
    state.counters["stored"] = double(report.stored);
    state.counters["resident_mb"] = resident_mb() - before;
    state.counters["planned_mb"] = double(report.planned_bytes) / double(1 << 20);
  }
}
void TierSolver(benchmark::State& state) {
  run_tier_solver(state, true);
}
void TierSolverNoSymmetry(benchmark::State& state) {
  run_tier_solver(state, false);
}
void TierSolverValueOnly(benchmark::State& state) {
  run_tier_solver(state, true, true);
}
BENCHMARK(TierSolver)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(TierSolverValueOnly)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK(TierSolverNoSymmetry)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

// Tables of the variant on disk, solved once for the probe benchmarks.
struct SolvedTables {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("solve_bench_" + std::to_string(::getpid()));
  drop::TierSpace space{game()};
  tablebase::TierSolveReport report;
  SolvedTables() {
    tablebase::TierSolveOptions options;
    options.dir = dir;
    options.memory_bytes = std::uint64_t{8} << 30;
    options.threads = 2;
    report = tablebase::solve_tiers(space, options);
  }
  ~SolvedTables() { std::filesystem::remove_all(dir); }
};
SolvedTables& solved() {
  static SolvedTables tables;
  return tables;
}

// Random stored positions, uniform over all of the variant's entries.
std::vector<drop::Position> sample_positions(const drop::TierSpace& space, int n) {
  std::mt19937_64 rng(7);
  std::vector<drop::Position> out;
  for (int k = 0; k < n; ++k) {
    std::uint64_t i = rng() % space.stored_positions();
    int t = 0;
    while (i >= space.tier_size(t)) i -= space.tier_size(t++);
    out.push_back(space.unrank(t, i));
  }
  return out;
}

void Probe(benchmark::State& state) {
  const bool cold = state.range(0);
  SolvedTables& s = solved();
  tablebase::Tablebase tables(s.space, s.dir);
  const auto positions = sample_positions(s.space, 4096);
  std::size_t k = 0;
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      tables.drop_caches();
      state.ResumeTiming();
    } else if (k == 0) {
      state.PauseTiming();
      tables.dte(positions[0]);
      state.ResumeTiming();
    }
    // Warm: the same position again, its blocks cached; cold: a new position, caches dropped.
    benchmark::DoNotOptimize(tables.dte(positions[cold ? k++ % positions.size() : 0]));
  }
  state.counters["value_bits_per_position"] =
      8.0 * double(s.report.value_bytes) / double(s.report.positions);
  state.counters["value_dte_bits_per_position"] =
      8.0 * double(s.report.value_bytes + s.report.dte_bytes) / double(s.report.positions);
  state.counters["value_bits_per_stored"] =
      8.0 * double(s.report.value_bytes) / double(s.report.stored);
  state.counters["value_dte_bits_per_stored"] =
      8.0 * double(s.report.value_bytes + s.report.dte_bytes) / double(s.report.stored);
}
BENCHMARK(Probe)->ArgName("cold")->Arg(1)->Arg(0)->Unit(benchmark::kMicrosecond);

}  // namespace
