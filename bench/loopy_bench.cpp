// The loopy tier solver (tablebase/loopy_tier_solver.h) against the hash-map cyclic retrograde
// (solver/cyclic_retrograde.h) on the same rook race rows, in one run:
//   CyclicRetrogradeRace/i    every position reachable from the start, keyed on canonical keys
//                             through a hash map, a stored forward index and its reverse;
//   LoopyTierSolverRace/i/m   every entry of the rook race's tier space (rules/rookrace/
//                             tier_space.h), a byte an entry, no map and no stored edge, plus the
//                             marking of what the start reaches; m = 0 all tiers in memory, m = 1
//                             tables written to a temporary directory (zstd level 1) and tiers
//                             evicted as the plan allows, as a solve into tables runs; m = 2 in
//                             memory with predecessors by sweeps instead of unmoves
//                             (tablebase/loopy_block.h); m = 3 and 4 as 0 and 2, solving only the
//                             entries the start reaches (LoopySolveOptions::solve_reached_only);
//                             m = 0 to 2 solve every entry, whatever the space's default; m = 5
//                             the compact solve (tablebase/loopy_compact.h): the reached entries
//                             only, held by rank, unmoves.
//   LoopyTierSolverSpock/i/m, CyclicRetrogradeSpock/i   the same on Spock's ladder rows
//                             (rules/spock/solve/tier_space.h; m = 0, 2, 3, 4 and 5), from every
//                             placement of the row's material.
//   LoopyTierSolverTeeko/i/m, CyclicRetrogradeTeeko/i   the same on Teeko (rules/teeko/solve/
//                             tier_space.h; m = 0, 2, 3 and 5), from the empty board:
//                             teeko:4x4 and the whole game.
//   LoopyFrontierRace/0/6, LoopyFrontierSpock/0/6   rookrace:8x8:1 and spock:4x4:RSK/rsk, m = 6:
//                             tables written as drop16 solve writes them (the solver's own
//                             compression level, the space's own predecessors and reach).
// Row i is kRows[i] (kSpockRows[i]). One thread each, so the rates are per core. Both report
// "positions", the position classes reached from the start (the same count:
// tests/loopy_rookrace_test.cpp), and "positions_per_cpu_s" over them, the process's user + system
// CPU seconds; the loopy solver numbers more entries than the start reaches ("entries"), and
// solves them all or only the reached ones ("entries_solved").
// "peak_rss_mb" is the process's resident memory at its peak (VmHWM, reset before each run through
// /proc/self/clear_refs), binary and libraries included, and "bytes_per_position" that peak over
// the positions; "idle_rss_mb" the process's resident memory just before the solve (what the peak
// holds that the solve did not take: binary, libraries, what earlier runs left resident), and
// "solve_bytes_per_position" the peak above it over the positions; "planned_mb" is what the loopy
// solver's memory plan counted (what --memory is held against). The loopy runs go first, so that
// what the hash map leaves in the heap cannot count against them.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string>

#include "rules/rookrace/game.h"
#include "rules/rookrace/solve/tier_space.h"
#include "rules/rookrace/variant.h"
#include "rules/spock/game.h"
#include "rules/spock/material.h"
#include "rules/spock/solve/tier_space.h"
#include "rules/teeko/game.h"
#include "rules/teeko/solve/tier_space.h"
#include "rules/teeko/variant.h"
#include "solver/cyclic_retrograde.h"
#include "tablebase/loopy_compact.h"
#include "tablebase/loopy_tier_solver.h"

namespace {

constexpr const char* kRows[] = {"rookrace:4x4:2", "rookrace:6x6:1"};
constexpr const char* kSpockRows[] = {"spock:3x3:RSK/rsk", "spock:4x4:RSK/rk"};
constexpr const char* kTeekoRows[] = {"teeko:4x4", "teeko"};
constexpr const char* kFrontierRace = "rookrace:8x8:1";
constexpr const char* kFrontierSpock = "spock:4x4:RSK/rsk";
constexpr std::uint64_t kMemory = std::uint64_t{22} << 30;

// A field of /proc/self/status, in bytes.
std::uint64_t status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stoull(line.substr(field.size() + 1)) << 10;
  throw std::runtime_error("no " + field + " in /proc/self/status");
}

// The peak resident memory from now on: the heap's free memory goes back to the system (an
// earlier run's would otherwise count against the next), and VmHWM starts again from VmRSS.
void reset_peak() {
  malloc_trim(0);
  std::ofstream("/proc/self/clear_refs") << "5";
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// `idle` is the process's resident memory before the solve (VmRSS right after reset_peak): the
// binary's and libraries' pages touched so far and what the heap kept, which the solve's peak
// includes but the solver did not take.
void report(benchmark::State& state, std::uint64_t positions, double cpu, std::uint64_t idle) {
  const auto peak = double(status_bytes("VmHWM"));
  state.counters["positions"] = double(positions);
  state.counters["cpu_s"] = cpu;
  state.counters["positions_per_cpu_s"] = double(positions) / cpu;
  state.counters["peak_rss_mb"] = peak / double(1 << 20);
  state.counters["bytes_per_position"] = peak / double(positions);
  state.counters["idle_rss_mb"] = double(idle) / double(1 << 20);
  state.counters["solve_bytes_per_position"] = (peak - double(idle)) / double(positions);
}

// Every benchmark here: one solve a run, timed in wall-clock seconds, with the process's CPU time
// beside it.
void one_solve_a_run(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime()->MeasureProcessCPUTime();
}

// One loopy solve of `space` as the benchmark's mode m = state.range(1) asks.
template <typename Space, typename MakeSpace>
void run_loopy(benchmark::State& state, const std::string& row, const MakeSpace& make_space) {
  const char* const modes[] = {" in memory",
                               " tables",
                               " in memory, sweeps",
                               " in memory, reached only",
                               " in memory, sweeps, reached only",
                               " in memory, compact",
                               " tables, as drop16 solve writes them"};
  state.SetLabel(row + modes[state.range(1)]);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "drop16_loopy_bench_tables";
  for (auto _ : state) {
    std::filesystem::remove_all(dir);
    reset_peak();
    const std::uint64_t idle = status_bytes("VmRSS");
    const double cpu = cpu_seconds();
    const Space space = make_space();
    tablebase::LoopySolveOptions options;
    options.memory_bytes = kMemory;
    if (state.range(1) == 1) {
      options.dir = dir;
      options.zstd_level = 1;
    }
    if (state.range(1) == 6) {
      options.dir = dir;  // the solver's own compression level and the space's own choices
    } else {
      // Named in every mode, whatever the space prefers (Spock's space prefers sweeps).
      options.predecessors = state.range(1) == 2 || state.range(1) == 4
                                 ? tablebase::LoopyPredecessors::sweeps
                                 : tablebase::LoopyPredecessors::unmoves;
      options.solve_reached_only = state.range(1) >= 3;
    }
    const auto r = state.range(1) == 5 ? tablebase::CompactLoopySolver<Space>(space, options).run()
                                       : tablebase::LoopyTierSolver<Space>(space, options).run();
    report(state, r.reached.positions, cpu_seconds() - cpu, idle);
    state.counters["entries"] = double(r.entries.positions + r.entries.not_in_row);
    state.counters["entries_solved"] = double(r.entries.positions);
    state.counters["planned_mb"] = double(r.planned_bytes) / double(1 << 20);
    state.counters["longest_win"] = r.reached.longest_win;
    state.counters["draws"] = double(r.reached.draws);
    state.counters["reach_s"] = r.reach_seconds;
    state.counters["solve_s"] = r.solve_seconds;
  }
  std::filesystem::remove_all(dir);
}

// One hash-map solve from `roots`.
template <typename Game>
void run_hashed(benchmark::State& state, const std::string& row, const Game& game,
                std::span<const typename Game::Position> roots) {
  state.SetLabel(row);
  for (auto _ : state) {
    reset_peak();
    const std::uint64_t idle = status_bytes("VmRSS");
    const double cpu = cpu_seconds();
    const solver::CyclicRetrograde<Game> solved(game, roots, {kMemory, false});
    const auto& r = solved.report();
    report(state, r.positions, cpu_seconds() - cpu, idle);
    state.counters["longest_win"] = r.longest_win;
    state.counters["draws"] = double(r.draws);
  }
}

void LoopyTierSolverRace(benchmark::State& state) {
  const rookrace::Game game(rookrace::parse_variant(kRows[state.range(0)]));
  run_loopy<rookrace::TierSpace>(state, kRows[state.range(0)],
                                 [&] { return rookrace::TierSpace(game); });
}
BENCHMARK(LoopyTierSolverRace)->ArgsProduct({{0, 1}, {0, 1, 2, 3, 4, 5}})->Apply(one_solve_a_run);

// The rows at the frontier (the largest each ladder solves in minutes), mode 6 only: the hash
// map cannot hold them.
void LoopyFrontierRace(benchmark::State& state) {
  const rookrace::Game game(rookrace::parse_variant(kFrontierRace));
  run_loopy<rookrace::TierSpace>(state, kFrontierRace, [&] { return rookrace::TierSpace(game); });
}
BENCHMARK(LoopyFrontierRace)->Args({0, 6})->Apply(one_solve_a_run);

void CyclicRetrogradeRace(benchmark::State& state) {
  const rookrace::Game game(rookrace::parse_variant(kRows[state.range(0)]));
  const rookrace::Position start = game.start();
  run_hashed(state, kRows[state.range(0)], game, std::span(&start, 1));
}
BENCHMARK(CyclicRetrogradeRace)->Arg(0)->Arg(1)->Apply(one_solve_a_run);

void LoopyTierSolverSpock(benchmark::State& state) {
  const spock::Material row = spock::parse_material(kSpockRows[state.range(0)]);
  const spock::Game game(row.width, row.height);
  run_loopy<spock::TierSpace>(state, kSpockRows[state.range(0)],
                              [&] { return spock::TierSpace(game, row); });
}
BENCHMARK(LoopyTierSolverSpock)->ArgsProduct({{0, 1}, {0, 2, 3, 4, 5}})->Apply(one_solve_a_run);

void LoopyFrontierSpock(benchmark::State& state) {
  const spock::Material row = spock::parse_material(kFrontierSpock);
  const spock::Game game(row.width, row.height);
  run_loopy<spock::TierSpace>(state, kFrontierSpock, [&] { return spock::TierSpace(game, row); });
}
BENCHMARK(LoopyFrontierSpock)->Args({0, 6})->Apply(one_solve_a_run);

void CyclicRetrogradeSpock(benchmark::State& state) {
  const spock::Material row = spock::parse_material(kSpockRows[state.range(0)]);
  const spock::Game game(row.width, row.height);
  const auto roots = spock::placements(row);
  run_hashed(state, kSpockRows[state.range(0)], game, std::span<const spock::Position>(roots));
}
BENCHMARK(CyclicRetrogradeSpock)->Arg(0)->Arg(1)->Apply(one_solve_a_run);

void LoopyTierSolverTeeko(benchmark::State& state) {
  const teeko::Game game(teeko::parse_variant(kTeekoRows[state.range(0)]));
  run_loopy<teeko::TierSpace>(state, kTeekoRows[state.range(0)],
                              [&] { return teeko::TierSpace(game); });
}
BENCHMARK(LoopyTierSolverTeeko)->ArgsProduct({{0, 1}, {0, 2, 3, 5}})->Apply(one_solve_a_run);

void CyclicRetrogradeTeeko(benchmark::State& state) {
  const teeko::Game game(teeko::parse_variant(kTeekoRows[state.range(0)]));
  const teeko::Position start = game.start();
  run_hashed(state, kTeekoRows[state.range(0)], game, std::span(&start, 1));
}
BENCHMARK(CyclicRetrogradeTeeko)->Arg(0)->Arg(1)->Apply(one_solve_a_run);

}  // namespace
