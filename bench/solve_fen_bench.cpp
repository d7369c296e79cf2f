// `drop16 solve --fen` without tables (issue 15, item 5): the value and DTE of a position and of
// every move, on 250 Drop 16 positions reached by uniformly random play at plies 10 to 14 (fixed
// seed; positions whose game ended are drawn again), timed per position for
//   ForwardSolver - the old method, min/max over every child; stopped at kOldLimit seconds a
//                   position, which then counts as over the limit;
//   DteSearch     - the new one, bounded searches with cuts, what `solve` runs.
// Each position gets a fresh solver of each kind (as one `solve` run would), both in this run.
// Counters: median, p95 and max seconds a position, how many took over 10 s and over 60 s, and
// mismatches of the new against the old where the old finished.
//   build/drop16_bench --benchmark_filter=SolveFen
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

constexpr int kPositions = 250;
constexpr double kOldLimit = 60;
constexpr std::uint64_t kMemory = std::uint64_t{8} << 30;

const drop::Game& drop16() {
  static const drop::Game g(drop::parse_variant("drop16"));
  return g;
}

std::vector<drop::Position> random_positions() {
  std::mt19937_64 rng(15);
  std::vector<drop::Position> out;
  drop::MoveList moves;
  while (int(out.size()) < kPositions) {
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

// Stops the old search at its limit (checked every 1024 expansions).
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

void SolveFen(benchmark::State& state) {
  const auto positions = random_positions();
  for (auto _ : state) {
    std::vector<double> old_seconds, new_seconds;
    int mismatches = 0, old_timeouts = 0;
    for (const drop::Position& p : positions) {
      auto start = Clock::now();
      solver::DteSearch<drop::Game> fast(drop16(), kMemory);
      const auto fresh = fast.analyze(p);
      new_seconds.push_back(seconds_since(start));

      std::uint32_t calls = 0;
      start = Clock::now();
      solver::ForwardSolver<drop::Game, Deadline> plain(
          drop16(), kMemory,
          Deadline{start + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(kOldLimit)),
                   &calls});
      try {
        const auto old = plain.analyze(p);
        old_seconds.push_back(seconds_since(start));
        bool same = old.dte == fresh.dte && old.moves.size() == fresh.moves.size();
        for (std::size_t m = 0; same && m < old.moves.size(); ++m)
          same = old.moves[m].outcome.dte == fresh.moves[m].outcome.dte;
        mismatches += !same;
      } catch (const TimedOut&) {
        old_seconds.push_back(2 * kOldLimit);  // counted as over the limit
        ++old_timeouts;
      }
    }
    report(state, "old", old_seconds);
    report(state, "new", new_seconds);
    state.counters["positions"] = double(positions.size());
    state.counters["old_stopped"] = old_timeouts;
    state.counters["mismatches"] = mismatches;
  }
}
BENCHMARK(SolveFen)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace
