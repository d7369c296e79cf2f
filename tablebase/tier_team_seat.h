// This process's seat in the team that solves one tier together (tier_team.h), for the length of
// that tier's solve, or no team at all: alone. The tier solver's other parts ask it what the team
// changes for them: whether this process writes the files and checkpoints, which of the tier's
// entries it holds, whether it reads the tier's children in parts, and the agreements every
// member must reach together (a failure, a stop, the largest DTE). Alone, each answer is the
// single process's, so those parts need no second path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "tablebase/index_range.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_team.h"

namespace tablebase {

class TierTeamSeat {
 public:
  TierTeamSeat() = default;  // alone
  // Member team.member() of `team`, solving tier t of `space`.
  template <TierSpace S>
  TierTeamSeat(TierTeam& team, const S& space, int t)
      : team_(&team),
        tier_(t),
        tier_name_(space.tier_name(t)),
        passes_(space.tier_passes(t)),
        owned_(TierTeam::owned(passes_, team.member(), team.members())) {}

  bool alone() const { return team_ == nullptr; }
  TierTeam& team() const { return *team_; }
  int members() const { return team_->members(); }
  // The tier the team solves; -1 alone.
  int tier() const { return tier_; }
  // This process writes the tier's files and checkpoints: alone, or as member 0 of a team.
  bool writes() const { return !team_ || team_->member() == 0; }

  // Whether the members read the tier's children in parts (each its own part of every child,
  // the others answering for the rest): when those do not fit whole beside a member's share of
  // the tier (TierResidency::children_fit_whole).
  bool reading_parts() const { return team_ && children_in_parts_; }
  void read_children_in_parts(bool parts) { children_in_parts_ = parts; }

  // The entries of the team's tier this member owns (TierTeam::owned), in index order.
  const std::vector<IndexRange>& owned() const { return owned_; }
  // Member m's parts of the tier's passes, cut to `range`; the empty ones left out.
  std::vector<IndexRange> owned_within(IndexRange range, int m) const {
    std::vector<IndexRange> within;
    for (const IndexRange& r : TierTeam::owned(passes_, m, team_->members()))
      if (const IndexRange in = intersection(r, range); in.begin < in.end) within.push_back(in);
    return within;
  }
  // The entries of tier t within `range` that this process holds: all, or a member's parts.
  std::vector<IndexRange> held_ranges(int t, IndexRange range) const {
    return t == tier_ ? owned_within(range, team_->member()) : std::vector{range};
  }
  // The pass of the team's tier that holds entry i (the passes cover the tier in order).
  const IndexRange& pass_of(std::uint64_t i) const {
    return *(std::upper_bound(passes_.begin(), passes_.end(), i,
                              [](std::uint64_t x, const IndexRange& p) { return x < p.begin; }) -
             1);
  }
  // Member m's part of a child tier of `size` entries that the team holds in parts, and the
  // member that holds entry i of it.
  IndexRange child_part(std::uint64_t size, int m) const {
    return TierTeam::part({0, size}, m, team_->members());
  }
  int child_owner(std::uint64_t size, std::uint64_t i) const {
    return TierTeam::owner({0, size}, i, team_->members());
  }

  // Runs `step` (reading children or a checkpoint) and, in a team, has the members agree that
  // none failed: a member that throws would otherwise leave the others waiting in the next
  // collective for ever. The failing member rethrows its error, the others TeamMemberFailed.
  template <typename Step>
  void together(const Step& step) {
    if (!team_) return step();
    std::exception_ptr failure;
    try {
      step();
    } catch (...) {
      failure = std::current_exception();
    }
    if (!team_->any(failure != nullptr)) return;
    if (failure) std::rethrow_exception(failure);
    throw TeamMemberFailed("stopped in tier " + tier_name_ + ": another rank of its team failed");
  }
  // True on every member of a team when `mine` is on any; alone, `mine`.
  bool agreed(bool mine) { return team_ ? team_->any(mine) : mine; }
  // The largest of every team member's `mine` (a byte); alone, `mine`.
  int largest(int mine) {
    if (!team_) return mine;
    const auto from = team_->exchange(
        std::vector<TierTeam::Bytes>(team_->members(), TierTeam::Bytes{std::uint8_t(mine)}));
    int most = mine;
    for (const auto& b : from) most = std::max<int>(most, b.at(0));
    return most;
  }

 private:
  TierTeam* team_ = nullptr;
  int tier_ = -1;
  std::string tier_name_;
  std::vector<IndexRange> passes_;  // the tier's
  std::vector<IndexRange> owned_;
  bool children_in_parts_ = false;
};

}  // namespace tablebase
