// `drop16 solve --fen` without tables (issue 15, item 5): the value and DTE of a position and of
// every move, on Drop 16 positions reached by uniformly random play at plies 10 to 14 (fixed seed;
// positions whose game ended are drawn again), timed per position for
//   ForwardSolver - the old method, min/max over every child;
//   DteSearch     - the new one, bounded searches with cuts, what `solve` runs.
// Each position gets a fresh solver of each kind (as one `solve` run would), both in this run.
// Each is stopped at the time limit (second argument, seconds) and then counts as over it, so a
// run lasts at most positions x 2 x limit. Counters: median, p95 and max seconds a position (a
// stopped one counted as twice the limit), how many took over 10 s and over 60 s, how many were
// stopped, and mismatches of the new against the old where both finished.
//   build/drop16_bench --benchmark_filter=SolveFen    12 positions, 20 s limit: at most 8 minutes
// The measurement is Args({250, 60}): up to 250 x 2 x 60 s (8.3 h) at today's speeds, so
// it is not registered, lest a run of the whole suite last hours.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "rules/drop/game.h"
#include "solver/dte_search.h"
#include "solver/forward_solver.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kMemory = std::uint64_t{8} << 30;

const drop::Game& drop16() {
  static const drop::Game g(drop::parse_variant("drop16"));
  return g;
}

std::vector<drop::Position> random_positions(int count) {
  std::mt19937_64 rng(15);
  std::vector<drop::Position> out;
  drop::MoveList moves;
  while (int(out.size()) < count) {
    const int plies = 10 + int(rng() % 5);
    drop::Position p = drop16().start();
    for (int i = 0; i < plies && !drop16().is_terminal(p); ++i) {
      drop16().generate(p, moves);
      drop16().make(p, moves[int(rng() % moves.size())]);
    }
    if (!drop16().is_terminal(p)) out.push_back(p);
  }
  return out;
}

struct TimedOut {};

// Stops a search at its time limit (checked every 1024 probes).
struct Deadline {
  Clock::time_point at;
  std::uint32_t* calls;
  std::optional<int> operator()(const drop::Position&) const {
    if ((++*calls & 1023) == 0 && Clock::now() > at) throw TimedOut();
    return std::nullopt;
  }
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void report(benchmark::State& state, const char* name, std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  const auto at = [&](double q) { return seconds[std::size_t(q * double(seconds.size() - 1))]; };
  state.counters[std::string(name) + "_median_s"] = at(0.5);
  state.counters[std::string(name) + "_p95_s"] = at(0.95);
  state.counters[std::string(name) + "_max_s"] = seconds.back();
  state.counters[std::string(name) + "_over_10s"] =
      double(std::count_if(seconds.begin(), seconds.end(), [](double s) { return s > 10; }));
  state.counters[std::string(name) + "_over_60s"] =
      double(std::count_if(seconds.begin(), seconds.end(), [](double s) { return s > 60; }));
}

// The analysis of p by a fresh Solver, or nullopt when it passed the limit; adds its time.
template <template <typename, typename> class Solver>
std::optional<solver::MoveAnalysis<drop::Move>> timed(const drop::Position& p, double limit,
                                                      std::vector<double>& seconds) {
  const auto start = Clock::now();
  std::uint32_t calls = 0;
  const Deadline deadline{
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit)),
      &calls};
  try {
    Solver<drop::Game, Deadline> search(drop16(), kMemory, deadline);
    auto a = search.analyze(p);
    seconds.push_back(seconds_since(start));
    return a;
  } catch (const TimedOut&) {
    seconds.push_back(2 * limit);
    return std::nullopt;
  }
}

bool same(const solver::MoveAnalysis<drop::Move>& a, const solver::MoveAnalysis<drop::Move>& b) {
  bool same = a.dte == b.dte && a.moves.size() == b.moves.size();
  for (std::size_t m = 0; same && m < a.moves.size(); ++m)
    same = a.moves[m].outcome.dte == b.moves[m].outcome.dte;
  return same;
}

void SolveFen(benchmark::State& state) {
  const auto positions = random_positions(int(state.range(0)));
  const double limit = double(state.range(1));
  for (auto _ : state) {
    std::vector<double> old_seconds, new_seconds;
    int mismatches = 0, old_stopped = 0, new_stopped = 0;
    for (const drop::Position& p : positions) {
      const auto fresh = timed<solver::DteSearch>(p, limit, new_seconds);
      const auto old = timed<solver::ForwardSolver>(p, limit, old_seconds);
      new_stopped += !fresh;
      old_stopped += !old;
      mismatches += fresh && old && !same(*fresh, *old);
    }
    report(state, "old", old_seconds);
    report(state, "new", new_seconds);
    state.counters["positions"] = double(positions.size());
    state.counters["old_stopped"] = old_stopped;
    state.counters["new_stopped"] = new_stopped;
    state.counters["mismatches"] = mismatches;
  }
}
BENCHMARK(SolveFen)->Args({12, 20})->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace
