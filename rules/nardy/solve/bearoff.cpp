#include "rules/nardy/solve/bearoff.h"

#include <tbb/global_control.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "solver/parallel_for.h"
#include "solver/progress.h"

namespace nardy::bearoff {

std::optional<HomeBoard> home_board(const nardy::Game& game, const nardy::Position& p,
                                    nardy::Side s) {
  if (!game.all_home(p, s)) return std::nullopt;
  HomeBoard b;
  for (int q = 1; q <= kHome; ++q) {
    if (p.royal[s][q - 1] > 1) return std::nullopt;
    b.plain[q - 1] = p.plain[s][q - 1];
    if (p.royal[s][q - 1]) b.royal |= std::uint8_t(1 << (q - 1));
  }
  return b;
}

std::string decimal(Count c) {
  std::string digits;
  do {
    digits.insert(digits.begin(), char('0' + int(c % 10)));
    c /= 10;
  } while (c != 0);
  return digits;
}

nardy::Position as_position(const HomeBoard& b) {
  nardy::Position p;
  for (int q = 1; q <= kHome; ++q) {
    p.plain[nardy::kWhite][q - 1] = b.plain[q - 1];
    p.royal[nardy::kWhite][q - 1] = b.has_royal(q);
  }
  p.plain[nardy::kBlack][0] = 1;  // on White's 24-point: never in White's way
  return p;
}

std::vector<HomeBoard> plays(const nardy::Game& game, const HomeBoard& b, nardy::Roll roll) {
  nardy::Position p = as_position(b);
  p.dice = roll;
  nardy::MoveList list;
  game.generate(p, list);
  std::vector<HomeBoard> out;
  for (const nardy::Move& m : list) {
    nardy::Position q = p;
    game.make(q, m);
    HomeBoard after;
    for (int k = 1; k <= kHome; ++k) {
      after.plain[k - 1] = q.plain[nardy::kWhite][k - 1];
      if (q.royal[nardy::kWhite][k - 1]) after.royal |= std::uint8_t(1 << (k - 1));
    }
    out.push_back(after);
  }
  return out;
}

OneSided::OneSided(int max_checkers, int threads, solver::Progress* progress)
    : index_(max_checkers) {
  const std::uint64_t n = index_.size();
  t_.expected.assign(n, 0.0);
  t_.counts.assign(n * (kExactRolls + 1), 0);
  t_.best.assign(n * nardy::kDistinctRolls, 0);
  // Boards by pip count: each play lowers it, so a pip count's boards need only smaller ones.
  std::vector<std::vector<std::uint64_t>> by_pips(6 * 15 + 1);
  for (std::uint64_t i = 0; i < n; ++i) by_pips[index_.board(i).pips()].push_back(i);
  const nardy::Game game;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
  if (progress) progress->set_total(n);
  for (const auto& level : by_pips) {
    solver::parallel_for(std::size_t(0), level.size(),
                         [&](std::size_t k) { solve(level[k], game); });
    if (progress) progress->advance(level.size()), progress->add_to_rate(level.size());
  }
}

OneSided::OneSided(int max_checkers, Tables tables) : index_(max_checkers), t_(std::move(tables)) {
  const std::uint64_t n = index_.size();
  if (t_.expected.size() != n || t_.counts.size() != n * (kExactRolls + 1) ||
      t_.best.size() != n * nardy::kDistinctRolls)
    throw std::invalid_argument("bear-off tables of the wrong size for " +
                                std::to_string(max_checkers) + " checkers");
  for (std::uint32_t j : t_.best)
    if (j >= n) throw std::invalid_argument("a bear-off play names a board outside the database");
}

void OneSided::solve(std::uint64_t i, const nardy::Game& game) {
  const HomeBoard b = index_.board(i);
  Count* c = &t_.counts[i * (kExactRolls + 1)];
  if (b.checkers() == 0) {  // off already: in exactly 0 rolls
    c[0] = 1;
    for (int r = 0; r < nardy::kDistinctRolls; ++r) t_.best[i * nardy::kDistinctRolls + r] = i;
    return;
  }
  double played = 0;  // sum of p_r E(b_r) over the playable rolls
  std::uint32_t pass_weight = 0;
  const auto rolls = nardy::all_rolls();
  for (int r = 0; r < nardy::kDistinctRolls; ++r) {
    std::uint64_t choice = i;
    double e = 0;
    for (const HomeBoard& after : plays(game, b, rolls[r].roll)) {
      const std::uint64_t j = index_.index(after);
      if (j == i) continue;  // the pass
      if (choice == i || t_.expected[j] < e || (t_.expected[j] == e && j < choice))
        choice = j, e = t_.expected[j];
    }
    t_.best[i * nardy::kDistinctRolls + r] = std::uint32_t(choice);
    if (choice == i)
      pass_weight += rolls[r].weight;
    else
      played += rolls[r].weight * e;
  }
  const double total = nardy::kRollsTotalWeight;
  t_.expected[i] = (1 + played / total) / (1 - pass_weight / total);
  // counts[n] = sum over rolls of weight x the chosen board's counts[n - 1] (itself on a pass,
  // whose counts[n - 1] is already done).
  for (int n = 1; n <= kExactRolls; ++n) {
    Count sum = 0;
    for (int r = 0; r < nardy::kDistinctRolls; ++r) {
      const std::uint64_t j = t_.best[i * nardy::kDistinctRolls + r];
      sum += Count(rolls[r].weight) * t_.counts[j * (kExactRolls + 1) + n - 1];
    }
    c[n] = sum;
  }
}

Count OneSided::tail(const HomeBoard& b) const {
  const Count* c = counts(b);
  Count off = 0;
  for (int n = 0; n <= kExactRolls; ++n) off += c[n] * power36(kExactRolls - n);
  return power36(kExactRolls) - off;
}

double OneSided::probability(const HomeBoard& b, int n) const {
  return double(counts(b)[n]) / double(power36(n));
}

std::uint64_t OneSided::bytes() const {
  return t_.expected.size() * sizeof(double) + t_.counts.size() * sizeof(Count) +
         t_.best.size() * sizeof(std::uint32_t);
}

}  // namespace nardy::bearoff
