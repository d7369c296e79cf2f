// The splits of n players into a coalition and the rest (coalition_retrograde.h labels one value
// per split, a coalition and its complement having opposite values), and a split's counts over
// the positions solved: what the solver and its tables (tablebase/coalition_table.h) share.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace solver {

// The splits of n players into a coalition and the rest, each named by its coalition without the
// last player (coalition_retrograde.h).
class CoalitionSplits {
 public:
  explicit CoalitionSplits(int players)
      : players_(players), everyone_((1u << players) - 1), count_((1 << (players - 1)) - 1) {}
  int players() const { return players_; }
  std::uint32_t everyone() const { return everyone_; }
  int count() const { return count_; }
  static std::uint32_t coalition(int split) { return std::uint32_t(split) + 1; }
  // Whether s is a coalition: some players, not all.
  bool valid(std::uint32_t s) const { return s != 0 && s < everyone_; }
  // The split of coalition s (valid), and whether s is the rest of it.
  std::pair<int, bool> of(std::uint32_t s) const {
    const bool rest = s >> (players_ - 1) & 1;
    return {int(rest ? everyone_ & ~s : s) - 1, rest};
  }

 private:
  int players_;
  std::uint32_t everyone_;
  int count_;
};

// One coalition's values over the canonical positions (each symmetry class once, the coalition
// named as in each canonical image, whose names the game's canonical_form chooses: Nevsky's images
// have White to move, so there {White} is the player to move alone), from its side.
struct CoalitionTally {
  std::uint32_t coalition = 0;  // bit q for player q
  std::uint64_t wins = 0, draws = 0, losses = 0;
  int longest_win = 0, longest_loss = 0;  // the greatest distance of each (0 if none)
};

// A tally for each split, named by its coalition, counts zero: what a solve's counts start from.
inline std::vector<CoalitionTally> split_tallies(const CoalitionSplits& splits) {
  std::vector<CoalitionTally> out(std::size_t(splits.count()));
  for (int u = 0; u < splits.count(); ++u) out[std::size_t(u)].coalition = splits.coalition(u);
  return out;
}

}  // namespace solver
