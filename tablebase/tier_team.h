// Several processes solving one tier together (the MPI solver's split tiers, mpi/): the tier
// solver (tier_solver.h) runs each pass and each group fold over this member's part only, then
// has the team share every part, so between sweeps every member holds the whole tier exactly as
// one process would. The tablebase knows the team only through this interface; mpi/ implements
// it with MPI collectives.
//
// The parts are fixed: every pass (a contiguous index range whose entries read only earlier
// passes and other tiers) is cut into `members` contiguous parts of about equal size, member m
// owning the m-th part of every pass. Cutting each pass rather than the whole tier keeps every
// member busy in every pass. Part boundaries inside a range fall on multiples of 64 entries, so
// with value-only tiers (one bit an entry) two parts share a 64-bit word only at a range's ends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "tablebase/tier.h"

namespace tablebase {

class TierTeam {
 public:
  virtual ~TierTeam() = default;

  virtual int members() const = 0;
  // This process's number in the team, 0 to members() - 1. Member 0 writes the tier's files and
  // its checkpoints.
  virtual int member() const = 0;

  // Every member's part of `range` (entries of one tier, held in `words`, `entry_bits` bits an
  // entry, 1 or 8) from its owner to every other member: afterwards each holds the owner's
  // entries there and its own elsewhere. Collective: every member calls it with the same range.
  virtual void share(std::span<std::uint64_t> words, IndexRange range, int entry_bits) = 0;

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
};

// Thrown on the members of a team whose solve stopped because another member failed (that
// member reports the failure itself).
class TeamMemberFailed : public std::runtime_error {
 public:
  explicit TeamMemberFailed(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace tablebase
