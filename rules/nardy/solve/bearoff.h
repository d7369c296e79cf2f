// Royal Nardy's one-sided bear-off database: for every home board of at most N checkers (plain
// and royal, HomeIndex), the play of each roll that minimises the expected number of rolls to bear
// everything off, that expectation, and the exact distribution of the number of rolls it takes.
//
// Exact distributions. After n rolls there are 36^n equally likely roll sequences, so
// P(off in exactly n rolls) is an integer count over 36^n; counts[n] is that integer. Plain
// checkers always move, so without royal checkers the distribution is finite; a royal checker
// that may not step onto its own checkers can make a roll unplayable (a pass), so with royal
// checkers the distribution has an infinite tail. Counts are kept for n = 0..24, exactly (36^24 <
// 2^128, so unsigned 128-bit integers hold them), and the rest as one exact figure, the sequences
// of 24 rolls after which the side is still on: tail = 36^24 - sum of counts[n] 36^(24-n). Doubles
// would lose the small tail probabilities and could not be checked to sum to 1; rationals would
// need big integers for no gain, every denominator being a power of 36.
//
// The play. Expected rolls E(b) = (1 + sum over the rolls r that can be played of p_r E(b_r)) /
// (1 - p_pass), b_r the best play's board, in doubles; every play lowers the pip count, so boards
// are solved in order of pips, in parallel within one pip count. Of plays with equal E the one
// with the smallest index is taken, so the database is deterministic. The plays are the rules
// engine's (rules/nardy/game.h) on a board where the other side is far away.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/nardy/game.h"
#include "rules/nardy/solve/home_board.h"

namespace solver {
class Progress;
}  // namespace solver

namespace nardy::bearoff {

using Count = unsigned __int128;
inline constexpr int kExactRolls = 24;

// The distinct boards the engine's plays of `roll` lead to (the board itself for a pass).
std::vector<HomeBoard> plays(const nardy::Game& game, const HomeBoard& b, nardy::Roll roll);
// Side s's home board in p, if every checker s has left is home (none on the bar) and no point
// holds two royal ones.
std::optional<HomeBoard> home_board(const nardy::Game& game, const nardy::Position& p,
                                    nardy::Side s);
// The decimal digits of a count.
std::string decimal(Count c);
// b as White's home in a 24-point position, Black's last checker on its own 1-point (no contact).
nardy::Position as_position(const HomeBoard& b);

class OneSided {
 public:
  // What the database holds, board by board in HomeIndex order: the expectation, counts[0..24]
  // and the best play's board index for each of the 21 rolls (all_rolls() order).
  struct Tables {
    std::vector<double> expected;
    std::vector<Count> counts;
    std::vector<std::uint32_t> best;
    friend bool operator==(const Tables&, const Tables&) = default;
  };

  // Builds the database for boards of up to max_checkers checkers (0..15) with `threads` threads,
  // advancing `progress` (if any) by the boards solved.
  OneSided(int max_checkers, int threads, solver::Progress* progress = nullptr);
  // A database read back (bearoff_file.h); throws std::invalid_argument if the tables'
  // sizes are not those of max_checkers.
  OneSided(int max_checkers, Tables tables);
  const Tables& tables() const { return t_; }

  const HomeIndex& index() const { return index_; }
  std::uint64_t size() const { return index_.size(); }
  // Bytes of the tables (counts, expectations, best plays).
  std::uint64_t bytes() const;

  double expected_rolls(const HomeBoard& b) const { return t_.expected[index_.index(b)]; }
  // counts(b)[n], n = 0..24: roll sequences of n rolls after which b is off in exactly n rolls.
  const Count* counts(const HomeBoard& b) const {
    return &t_.counts[index_.index(b) * (kExactRolls + 1)];
  }
  Count tail(const HomeBoard& b) const;
  // P(off in exactly n rolls), n <= 24, as a double.
  double probability(const HomeBoard& b, int n) const;
  // The board after the best play of roll r.
  HomeBoard best(const HomeBoard& b, nardy::Roll r) const {
    return index_.board(t_.best[index_.index(b) * nardy::kDistinctRolls + nardy::roll_index(r)]);
  }

 private:
  void solve(std::uint64_t i, const nardy::Game& game);

  HomeIndex index_;
  Tables t_;
};

// 36^n.
inline Count power36(int n) {
  Count c = 1;
  while (n-- > 0) c *= 36;
  return c;
}

}  // namespace nardy::bearoff
