// The order of a tier's sweeps (SOLVER.md, "Memory"). When a tier and all its children do not fit
// in memory together, the children are read in groups that do: every group but the last is
// folded into the tier's entries first, one sweep over the tier's captures per group, each entry
// keeping the DTE of its deciding child so far (DteFold::deciding_child, or kNoChild); the passes
// (rules/drop/solve/tier_layout.h) then add the last group and the moves inside the tier, pass by
// pass in solve order, so every child an entry reads is final. On 4x4:NBRQK this is what lets the
// largest tier (14 GB) be solved beside children of 15.7 GB.
//
// A run resumed from a checkpoint keeps its order where it matters: the children it folded in
// stay folded, a group it was folding goes first, and the rest are grouped as the cap allows now
// (possibly another cap), so the tables come out the same.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "tablebase/tier_space.h"

namespace tablebase {

struct TierSweepPlan {
  // The child tiers in the order they are read: all groups but the last are folded in before the
  // passes, which read the last.
  std::vector<std::vector<int>> groups;
  // Per tier: folded into the tier's entries before the passes (by a run this resumes, or a
  // fold of this plan).
  std::vector<char> folded;

  std::size_t folds() const { return groups.size() - 1; }
  // The tiers fold g reads: its group.
  std::vector<char> fold_reads(std::size_t g) const {
    std::vector<char> wanted(folded.size(), 0);
    for (int c : groups[g]) wanted[c] = 1;
    return wanted;
  }
  // The tiers the passes read: every one not folded in, the tier itself among them.
  std::vector<char> pass_reads() const {
    std::vector<char> wanted(folded.size());
    for (std::size_t c = 0; c < folded.size(); ++c) wanted[c] = !folded[c];
    return wanted;
  }
};

// The plan for tier t of `space` resumed with the children `folded` in and `folding` half folded
// in (none, for a fresh tier); group(children) cuts the children left into groups that fit.
template <TierSpace S, typename Group>
TierSweepPlan plan_tier_sweeps(const S& space, int t, const std::vector<int>& folded,
                               const std::vector<int>& folding, const Group& group) {
  TierSweepPlan plan;
  plan.folded.assign(space.tier_count(), 0);
  for (int c : folded) plan.folded[c] = 1;
  if (!folding.empty()) plan.groups.push_back(folding);
  for (int c : folding) plan.folded[c] = 1;
  std::vector<int> unread;
  for (int c : space.tier_children(t))
    if (!plan.folded[c]) unread.push_back(c);
  for (auto& g : group(unread)) plan.groups.push_back(std::move(g));
  for (std::size_t g = 0; g < plan.folds(); ++g)
    for (int c : plan.groups[g]) plan.folded[c] = 1;
  return plan;
}

}  // namespace tablebase
