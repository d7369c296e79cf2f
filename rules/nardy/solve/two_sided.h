// Royal Nardy's two-sided race values: the exact expected points of White, to roll, for every pair
// of home boards of plain checkers (up to N each) with both sides' checkers all home and the
// eaten counts fixed, so the royal scoring (rules 6 and 7) applies to whoever finishes first.
// Positions are played on a 12-point board (both homes), where they are the same as on 24 points
// and their keys fit 128 bits, and valued by solver::Expectimax over the rules engine, exactly:
// plain checkers always move in a race, so every line ends. Royal checkers can get stuck (a pass),
// and two passes repeat a position, which expectimax cannot value; they are left out.
// A side with c checkers on the board has borne off 15 - c - eaten, so the loser has always borne
// some off: a race win is an oin, times the royal multiplier.
#pragma once

#include <cstdint>
#include <vector>

#include "rules/nardy/game.h"
#include "rules/nardy/solve/home_board.h"

namespace solver {
class Progress;
}  // namespace solver

namespace nardy::bearoff {

// The 12-point position: White's home board against Black's, White to roll.
nardy::Position race_position(const HomeBoard& white, const HomeBoard& black, int white_eaten,
                              int black_eaten);

class TwoSidedPlain {
 public:
  // Advances `progress` (if any) by the pairs valued.
  TwoSidedPlain(int max_checkers, int white_eaten, int black_eaten,
                solver::Progress* progress = nullptr);
  // The plain boards of 1..max checkers, in HomeIndex order.
  const std::vector<HomeBoard>& boards() const { return boards_; }
  // White's expected points, White to roll, boards()[w] against boards()[b].
  double value(std::size_t w, std::size_t b) const { return values_[w * boards_.size() + b]; }
  std::uint64_t pairs() const { return values_.size(); }
  std::uint64_t nodes() const { return nodes_; }

 private:
  std::vector<HomeBoard> boards_;
  std::vector<double> values_;
  std::uint64_t nodes_ = 0;
};

}  // namespace nardy::bearoff
