// Which tiers may be solved now, for a solver that runs several tiers at once (the MPI solver,
// mpi/): a tier is ready when every child tier is finished (GamesmanOne's tier manager), so tiers
// that do not feed each other, several of one piece count for example, go to different workers.
// Among the ready tiers the one heading the most work goes first: its weight is its entries plus
// the heaviest weight among the tiers its captures feed (its parents), so the longest chain of
// work to the last tier starts as early as it can (list scheduling by "bottom level").
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace tablebase {

// What the schedule reads of a tier space, Drop 16's (tier_space.h) or a loopy one
// (loopy_tier_space.h): tiers, their sizes and the tiers each one's moves lead into.
template <typename S>
concept TierOrder = requires(const S& s, int t) {
  { s.tier_count() } -> std::convertible_to<int>;
  { s.tier_size(t) } -> std::convertible_to<std::uint64_t>;
  { s.tier_children(t) } -> std::convertible_to<const std::vector<int>&>;
};

class TierSchedule {
 public:
  // finished[t]: tier t is already solved (its files are there) and is never handed out.
  template <TierOrder S>
  TierSchedule(const S& space, const std::vector<char>& finished)
      : waiting_on_(space.tier_count(), 0),
        parents_(space.tier_count()),
        weight_(space.tier_count(), 0),
        finished_(finished) {
    const int n = space.tier_count();
    for (int t = 0; t < n; ++t)
      for (int c : space.tier_children(t)) {
        parents_[c].push_back(t);
        if (!finished_[c]) ++waiting_on_[t];
      }
    // Children come before their parents in the tier order, so parents are weighed first.
    for (int t = n - 1; t >= 0; --t) {
      std::uint64_t heaviest_parent = 0;
      for (int p : parents_[t]) heaviest_parent = std::max(heaviest_parent, weight_[p]);
      weight_[t] = space.tier_size(t) + heaviest_parent;
    }
    for (int t = 0; t < n; ++t) {
      if (finished_[t])
        ++finished_count_;
      else if (waiting_on_[t] == 0)
        ready_.push({weight_[t], -t});
    }
  }

  int tier_count() const { return int(finished_.size()); }
  int finished_count() const { return finished_count_; }
  bool all_finished() const { return finished_count_ == tier_count(); }
  bool is_finished(int t) const { return finished_[t] != 0; }

  // The ready tier to solve next, now counted as under way; none when no tier is ready.
  std::optional<int> take() {
    if (ready_.empty()) return std::nullopt;
    const int t = -ready_.top().second;
    ready_.pop();
    return t;
  }

  // The work tier t heads: its entries and those of its heaviest chain of parents.
  std::uint64_t weight(int t) const { return weight_[t]; }

  // Tier t (taken earlier) is finished: the parents that waited on it only may now be taken.
  void finish(int t) {
    finished_[t] = 1;
    ++finished_count_;
    for (int p : parents_[t])
      if (--waiting_on_[p] == 0) ready_.push({weight_[p], -p});
  }

 private:
  std::vector<int> waiting_on_;  // per tier: children not finished yet
  std::vector<std::vector<int>> parents_;
  std::vector<std::uint64_t> weight_;
  std::vector<char> finished_;
  int finished_count_ = 0;
  // (weight, -tier): the heaviest first, and of equal weights the earliest in the tier order.
  std::priority_queue<std::pair<std::uint64_t, int>> ready_;
};

}  // namespace tablebase
