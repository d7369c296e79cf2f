#include "solver/claims_random_probes.h"

#include <algorithm>

namespace solver {

namespace {

template <typename T>
void add_elementwise(std::vector<T>& into, const std::vector<T>& from) {
  if (into.size() < from.size()) into.resize(from.size(), T{});
  for (std::size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

}  // namespace

void ProbeTotals::add(const ProbeTotals& o) {
  probes += o.probes;
  add_elementwise(games_by_length, o.games_by_length);
  add_elementwise(weight_by_length, o.weight_by_length);
  weight_sum += o.weight_sum;
  weight_sum_sq += o.weight_sum_sq;
  add_elementwise(perft_sum, o.perft_sum);
  add_elementwise(perft_sum_sq, o.perft_sum_sq);
  largest_weight = std::max(largest_weight, o.largest_weight);
}

void ProbeTotals::add_probe(const std::vector<std::uint32_t>& branching) {
  const std::size_t length = branching.size();
  ++probes;
  if (perft_sum.size() < length + 1) {
    perft_sum.resize(length + 1, 0);
    perft_sum_sq.resize(length + 1, 0);
  }
  if (games_by_length.size() < length + 1) {
    games_by_length.resize(length + 1, 0);
    weight_by_length.resize(length + 1, 0);
  }
  // perft(d) is estimated by the product over the first d plies; deeper plies get 0 from this
  // probe, which is what leaving them untouched adds.
  double weight = 1;
  for (std::size_t d = 0;; ++d) {
    perft_sum[d] += weight;
    perft_sum_sq[d] += weight * weight;
    if (d == length) break;
    weight *= branching[d];
  }
  ++games_by_length[length];
  weight_by_length[length] += weight;
  weight_sum += weight;
  weight_sum_sq += weight * weight;
  largest_weight = std::max(largest_weight, weight);
}

Estimate estimate_mean(double sum, double sum_sq, std::uint64_t n) {
  Estimate e;
  if (n == 0) return e;
  e.mean = sum / double(n);
  const double variance = n > 1 ? std::max(0.0, (sum_sq - sum * e.mean) / double(n - 1)) : 0.0;
  e.standard_error = std::sqrt(variance / double(n));
  e.low = e.mean - 1.96 * e.standard_error;
  e.high = e.mean + 1.96 * e.standard_error;
  return e;
}

}  // namespace solver
