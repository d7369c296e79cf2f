// Proof search, measured against baselines in the same run:
//   ProofThreads   - nodes per second proving a rung from scratch on 1 and on 2 threads;
//   ProofOrdering  - the node count of a rung with every ordering idea on (the baseline row
//                    "all"), with each one switched off in turn, and with all of them off, so
//                    each idea's gain is the ratio of its row to "all".
//   DfpnVsNegamax - df-pn (dfpn_search.h) against the negamax on one thread with the same table
//                   memory: 4x4:NBRK from the start, and a seeded sample of 4x4:NBRQK positions
//                   with the endgame value tables in $DROP16_NBRQK_TABLES (default
//                   /work/runs/tables/nbrqk7v, read only), each under a time limit
//                   ($DROP16_SAMPLE_SECONDS, default 5): how many each decides, nodes, CPU.
// Every iteration starts from an empty table. Counters: nodes and nodes/s (wall clock).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/solve/endgame_oracle.h"
#include "rules/drop/solve/move_symmetry.h"
#include "solver/dfpn_search.h"
#include "solver/proof_search.h"

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
    solver::ProofSearch<drop::Game, drop::MoveSymmetry> search(game, table, options,
                                                               drop::MoveSymmetry(game));
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

namespace {

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// Both algorithms get this much table memory: the negamax one table, df-pn half for proven values
// and half for the numbers of undecided positions (as `prove --algorithm dfpn --hash` splits it).
constexpr std::size_t kTableBytes = std::size_t(1) << 30;

using Oracle = drop::EndgameOracle;
using Negamax = solver::ProofSearch<drop::Game, drop::MoveSymmetry, Oracle>;
using Dfpn = solver::DfpnSearch<drop::Game, drop::MoveSymmetry, Oracle>;

struct Outcome {
  solver::Proof value;
  std::uint64_t nodes, table_entries;
};

// Proves p with a fresh search of the given algorithm (0 negamax, 1 df-pn), stopped after
// `seconds` (0: no limit).
Outcome prove_once(const drop::Game& game, const drop::Position& p, int algorithm,
                   const Oracle& oracle, double seconds) {
  auto run = [&](auto& search, auto entries) {
    std::atomic<bool> done{false};
    std::thread watcher([&] {
      const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
      while (!done.load() && (seconds <= 0 || std::chrono::steady_clock::now() < end))
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      search.stop();
    });
    const solver::Proof value = search.prove(p);
    done.store(true);
    watcher.join();
    return Outcome{value, search.stats().nodes, entries()};
  };
  const drop::MoveSymmetry symmetry(game);
  if (algorithm == 0) {
    solver::ProofTable<drop::Key> table(kTableBytes);
    Negamax search(game, table, {}, symmetry, oracle);
    return run(search, [&] { return table.occupied(); });
  }
  solver::ProofTable<drop::Key> proven(kTableBytes / 2);
  solver::DfpnTable<drop::Key> numbers(kTableBytes / 2);
  Dfpn search(game, proven, numbers, {}, symmetry, oracle);
  return run(search, [&] { return proven.occupied() + numbers.occupied(); });
}

const char* kAlgorithms[] = {"negamax", "dfpn"};

std::string env_or(const char* name, const char* otherwise) {
  const char* v = std::getenv(name);
  return v && *v ? v : otherwise;
}

// Argument: algorithm. 4x4:NBRK from the start, no tables, stopped after $DROP16_NBRK_SECONDS
// (default 0: no limit; counter "loss" is 0 when it stopped first).
void BM_DfpnVsNegamaxNBRK(benchmark::State& state) {
  const int algorithm = int(state.range(0));
  const double seconds = std::stod(env_or("DROP16_NBRK_SECONDS", "0"));
  state.SetLabel(std::string("4x4:NBRK start, ") + kAlgorithms[algorithm]);
  const drop::Game& game = rung(2);
  Outcome o{};
  double cpu = 0;
  for (auto _ : state) {
    const double before = process_cpu_seconds();
    o = prove_once(game, game.start(), algorithm, Oracle(), seconds);
    cpu = process_cpu_seconds() - before;
  }
  state.counters["loss"] = o.value == solver::Proof::kLoss;
  state.counters["nodes"] = double(o.nodes);
  state.counters["cpu_s"] = cpu;
  state.counters["table_MB"] = double(kTableBytes >> 20);
  state.counters["entries"] = double(o.table_entries);
}
BENCHMARK(BM_DfpnVsNegamaxNBRK)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// 20 positions of 4x4:NBRQK after 4 to 6 random plies (seed 22), none decided by the tables.
std::vector<drop::Position> nbrqk_sample(const drop::Game& game, const Oracle& oracle) {
  std::mt19937_64 rng(22);
  std::vector<drop::Position> sample;
  while (sample.size() < 20) {
    drop::Position p = game.start();
    const int plies = 4 + int(sample.size() % 3);
    drop::MoveList moves;
    for (int i = 0; i < plies; ++i) {
      game.generate(p, moves);
      if (moves.empty()) break;
      game.make(p, moves[int(rng() % std::uint64_t(moves.size()))]);
    }
    if (!game.is_terminal(p) && !oracle(p)) sample.push_back(p);
  }
  return sample;
}

// Argument: algorithm. Counters: positions decided within the limit, their values agreeing with
// the other algorithm's where both decided (checked in the same run), nodes, CPU seconds.
void BM_DfpnVsNegamaxNBRQK(benchmark::State& state) {
  const int algorithm = int(state.range(0));
  const std::string dir = env_or("DROP16_NBRQK_TABLES", "/work/runs/tables/nbrqk7v");
  const double seconds = std::stod(env_or("DROP16_SAMPLE_SECONDS", "5"));
  static const drop::Game game(drop::parse_variant("4x4:NBRQK"));
  if (!std::filesystem::exists(dir)) {
    state.SkipWithError(("no tables at " + dir).c_str());
    return;
  }
  static const Oracle oracle(game, dir);
  static const std::vector<drop::Position> sample = nbrqk_sample(game, oracle);
  // Values found by the algorithm run first, to compare (-1 undecided).
  static std::vector<int> first_values(sample.size(), -2);
  static bool warmed = false;
  if (!warmed) {
    // Loads the tiers the sample's searches touch, so neither algorithm pays for it.
    for (const drop::Position& p : sample) prove_once(game, p, 0, oracle, 1.0);
    warmed = true;
  }
  state.SetLabel(std::string("4x4:NBRQK sample of ") + std::to_string(sample.size()) + ", " +
                 kAlgorithms[algorithm] + ", " + std::to_string(seconds) + " s each");
  int decided = 0, disagree = 0;
  std::uint64_t nodes = 0, decided_nodes = 0, entries = 0;
  double cpu = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < sample.size(); ++i) {
      const double before = process_cpu_seconds();
      const Outcome o = prove_once(game, sample[i], algorithm, oracle, seconds);
      cpu += process_cpu_seconds() - before;
      nodes += o.nodes;
      entries = std::max(entries, o.table_entries);
      const int v = o.value == solver::Proof::kUnknown ? -1 : int(o.value);
      if (v >= 0) {
        ++decided;
        decided_nodes += o.nodes;
      }
      if (first_values[i] == -2) {
        first_values[i] = v;
      } else if (v >= 0 && first_values[i] >= 0 && v != first_values[i]) {
        ++disagree;
      }
    }
  }
  if (disagree) state.SkipWithError("the algorithms disagree on a value");
  state.counters["decided"] = decided;
  state.counters["nodes"] = double(nodes);
  state.counters["decided_nodes"] = double(decided_nodes);
  state.counters["cpu_s"] = cpu;
  state.counters["table_MB"] = double(kTableBytes >> 20);
  state.counters["max_entries"] = double(entries);
}
BENCHMARK(BM_DfpnVsNegamaxNBRQK)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
