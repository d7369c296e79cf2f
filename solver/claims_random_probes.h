// Random descents: from the root, play a uniformly random legal move until the game ends. One
// descent is at once a game of uniformly random play (its length in plies) and a probe of Knuth's
// estimator (1975): the product of the numbers of moves met along the way is an unbiased estimate
// of the number of complete games, and the product over its first d plies (0 if the game ended
// sooner) is an unbiased estimate of perft(d). Unbiased is not precise: the products are
// heavy-tailed, so the sample variance understates the error until rare huge products show up.
//
// Probe i draws from its own random stream, derived from (seed, i), and probes are summed in
// blocks in index order, so totals do not depend on the number of threads and a run can stop
// after any block and resume with the same result.
#pragma once

#include <tbb/task_arena.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "solver/game_concept.h"
#include "solver/parallel_for.h"
#include "solver/progress.h"

namespace solver {

// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough to pick moves.
class ProbeRandom {
 public:
  ProbeRandom(std::uint64_t seed, std::uint64_t probe) : state_(mix(seed) ^ mix(~probe)) {}

  std::uint64_t next() { return mix(state_ += 0x9E3779B97F4A7C15ull); }
  // Uniform in [0, n), without modulo bias (Lemire's multiply and reject).
  std::uint32_t below(std::uint32_t n) {
    for (;;) {
      const std::uint64_t product = (next() >> 32) * n;
      if (std::uint32_t(product) >= (-n) % n) return std::uint32_t(product >> 32);
    }
  }

 private:
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

struct ProbeTotals {
  std::uint64_t probes = 0;
  std::vector<std::uint64_t> games_by_length;   // [L]: probes whose game lasted L plies
  std::vector<double> weight_by_length;         // [L]: sum of their products
  double weight_sum = 0, weight_sum_sq = 0;     // of the products: complete games
  std::vector<double> perft_sum, perft_sum_sq;  // [d]: of the products over the first d plies
  double largest_weight = 0;

  void add(const ProbeTotals& o);
  // Records one finished probe: its length and the branching factor met at each ply.
  void add_probe(const std::vector<std::uint32_t>& branching);
};

// A mean with its standard error and the normal 95% interval (mean +- 1.96 standard errors).
struct Estimate {
  double mean = 0, standard_error = 0, low = 0, high = 0;
};
Estimate estimate_mean(double sum, double sum_sq, std::uint64_t n);

template <PerftGame G>
void run_probe(const G& game, typename G::Position p, std::uint64_t seed, std::uint64_t index,
               std::vector<std::uint32_t>& branching) {
  ProbeRandom random(seed, index);
  typename G::MoveList moves;
  branching.clear();
  for (;;) {
    game.generate(p, moves);
    if (moves.empty()) return;
    branching.push_back(std::uint32_t(moves.size()));
    game.make(p, moves[random.below(std::uint32_t(moves.size()))]);
  }
}

// Probes first .. first + count - 1, summed in blocks of kProbeBlock in index order.
inline constexpr std::uint64_t kProbeBlock = 4096;

template <PerftGame G>
ProbeTotals run_probes(const G& game, const typename G::Position& root, std::uint64_t seed,
                       std::uint64_t first, std::uint64_t count, int threads,
                       Progress* progress = nullptr) {
  const std::uint64_t blocks = (count + kProbeBlock - 1) / kProbeBlock;
  std::vector<ProbeTotals> block_totals(blocks);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    solver::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t b) {
      std::vector<std::uint32_t> branching;
      const std::uint64_t begin = first + b * kProbeBlock;
      const std::uint64_t end = std::min(first + count, begin + kProbeBlock);
      for (std::uint64_t i = begin; i < end; ++i) {
        run_probe(game, root, seed, i, branching);
        block_totals[b].add_probe(branching);
      }
      if (progress) {
        progress->advance(end - begin);
        progress->add_to_rate(end - begin);
      }
    });
  });
  ProbeTotals total;
  for (const ProbeTotals& t : block_totals) total.add(t);
  return total;
}

}  // namespace solver
