// Several processes solving one tier together (the MPI solver's split tiers, mpi/), each holding
// only its own part of the tier: the tier solver (tier_solver.h) runs each pass and each group
// fold over this member's part only (tier_team_seat.h); the entries of earlier passes that its
// part's moves reach are requested from their owners, in rounds (tier_team_fetch.h); and member 0
// writes the files and checkpoints, gathering their entries from the owners batch by batch as it
// writes (tier_team_gather.h). So a
// member's memory holds about 1/members of the tier, and a tier larger than one machine can be
// solved by enough of them. The tablebase knows the team only through this interface; mpi/
// implements it with MPI collectives.
//
// The parts are fixed for the whole tier: every pass (a contiguous index range whose entries read
// only earlier passes and other tiers) is cut into `members` contiguous parts of about equal
// size, member m owning the m-th part of every pass. Cutting each pass rather than the whole tier
// keeps every member busy in every pass. Part boundaries inside a pass fall on multiples of 64
// entries, so with value-only tiers (one bit an entry) two parts share a 64-bit word only at a
// pass's ends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tablebase/index_range.h"

namespace tablebase {

class TierTeam {
 public:
  virtual ~TierTeam() = default;

  virtual int members() const = 0;
  // This process's number in the team, 0 to members() - 1. Member 0 writes the tier's files and
  // its checkpoints.
  virtual int member() const = 0;

  // Sends to_each[m] to member m (to_each has members() entries, this member's own included) and
  // puts in `from` what every member sent this one, from[m] from member m (reusing its strings'
  // room: a pass exchanges thousands of times). Collective: every member calls it, the same
  // number of times.
  using Bytes = std::vector<std::uint8_t>;
  virtual void exchange(const std::vector<Bytes>& to_each, std::vector<Bytes>& from) = 0;
  std::vector<Bytes> exchange(const std::vector<Bytes>& to_each) {
    std::vector<Bytes> from;
    exchange(to_each, from);
    return from;
  }

  // True on every member when `mine` is true on any (collective): the members agree whether
  // to save, to stop, or that one of them failed.
  virtual bool any(bool mine) = 0;

  // Member m's part of `range` when the team has `members` members.
  static IndexRange part(IndexRange range, int m, int members) {
    const auto cut = [&](int k) -> std::uint64_t {
      if (k == 0) return range.begin;
      if (k == members) return range.end;
      const std::uint64_t size = range.end - range.begin;
      // size * k / members without overflow for any tier below 2^64 / members entries.
      const std::uint64_t at = range.begin + size / members * k + size % members * k / members;
      return std::clamp(at / 64 * 64, range.begin, range.end);
    };
    return {cut(m), cut(m + 1)};
  }
  IndexRange own_part(IndexRange range) const { return part(range, member(), members()); }

  // The member whose part of `range` holds entry `index` (in the range): the last member whose
  // part starts at or before it (the parts after it start later; empty parts before it end where
  // it starts).
  static int owner(IndexRange range, std::uint64_t index, int members) {
    int low = 0, high = members - 1;
    while (low < high) {
      const int mid = (low + high + 1) / 2;
      if (part(range, mid, members).begin <= index)
        low = mid;
      else
        high = mid - 1;
    }
    return low;
  }

  // The entries member m owns in a tier of these passes (every pass's m-th part), non-empty
  // ones only, in index order.
  static std::vector<IndexRange> owned(std::span<const IndexRange> passes, int m, int members) {
    std::vector<IndexRange> mine;
    for (const IndexRange& pass : passes) {
      const IndexRange p = part(pass, m, members);
      if (p.begin < p.end) mine.push_back(p);
    }
    return mine;
  }
};

// Thrown on the members of a team whose solve stopped because another member failed (that
// member reports the failure itself).
class TeamMemberFailed : public std::runtime_error {
 public:
  explicit TeamMemberFailed(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace tablebase
