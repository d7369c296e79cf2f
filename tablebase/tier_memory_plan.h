// The tier solver's memory plan: what a tier takes in memory (whole, or a team member's share),
// and the smallest working set a solve can run in, counted before the first tier so that a solve
// that cannot fit its cap says so before any work (TierSolver::run, the MPI solver,
// cluster_plan.h). The solver's residency (tier_residency.h) holds tiers by the same counts, so
// what is planned here is what it holds at the most.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "solver/size_text.h"
#include "solver/zeroed_array.h"
#include "tablebase/table_file.h"
#include "tablebase/tier_space.h"

namespace tablebase {

// The solve cannot fit the memory cap; the message says how much it needs. The loopy tier solver
// (loopy_tier_solver.h) refuses with it too, and counts kIoBufferBytes alike.
class MemoryCapError : public std::runtime_error {
 public:
  explicit MemoryCapError(const std::string& what) : std::runtime_error(what) {}
};
// The MemoryCapError of a plan of `needed` bytes over a cap of `cap` (--memory); `each` names
// what each gets that much (" on every rank"), or is empty.
inline MemoryCapError over_memory_cap(const std::string& variant, std::uint64_t needed,
                                      std::uint64_t cap, const std::string& each = "") {
  return MemoryCapError("solving " + variant + " needs " + solver::size_text(needed) +
                        " of memory" + each + ", more than the cap of " + solver::size_text(cap) +
                        " (--memory)");
}

// Folds whose children take a gigabyte or more read them in address order, which pays where
// reads at random wait on page walks (tablebase/SOLVER.md, "Folds read in address order"); the
// windows' 64 MB are more than a small tier's fold could spare.
inline constexpr std::uint64_t kOrderedReadsFrom = std::uint64_t{1} << 30;
inline constexpr std::uint64_t kOrderedWindowBytes = std::uint64_t{64} << 20;

// Reading and writing table files goes block by block; this bounds their buffers.
inline constexpr std::uint64_t kIoBufferBytes = std::uint64_t{64} << 20;
// What each thread of a solve holds beyond the arrays a plan counts (its stack, the free chunks
// its allocator arena keeps): a solve that fills its cap with cached tiers (loopy_tier_solver.h)
// leaves this much of it to them.
inline constexpr std::uint64_t kThreadSlackBytes = std::uint64_t{1} << 20;

// Bits an entry takes in memory: its DTE in a byte, or its value alone.
inline int entry_bits(bool value_only) {
  return value_only ? 1 : 8;
}
// 64-bit words that hold `entries` entries.
inline std::uint64_t entry_words(std::uint64_t entries, bool value_only) {
  return (entries * std::uint64_t(entry_bits(value_only)) + 63) / 64;
}

// The memory tier t takes when in memory, in 64-bit words, in whole pages (solver::mapped_bytes:
// every page of a tier is touched).
template <TierSpace S>
std::uint64_t tier_memory(const S& space, int t, bool value_only = false) {
  return solver::mapped_bytes(entry_words(space.tier_size(t), value_only) * 8);
}

// A team member's (tier_team.h) rounds of requests for its entries' children held by other
// members stop at this many children or entries; the children are located a wave of entries at
// a time, so a round may pass the mark by a wave's children (at most kMostChildren an entry: 5
// kinds of piece in hand onto 16 empty squares). A child takes about 50 bytes of buffers (found,
// its owner, sent, asked of this member, answered, and MPI's copies), an entry 4.
inline constexpr std::uint64_t kTeamRoundChildren = std::uint64_t{1} << 19;
inline constexpr std::uint64_t kTeamRoundWave = 2048;
inline constexpr std::uint64_t kMostChildren = 80;
inline constexpr std::uint64_t kTeamBytesPerChild = 50;
inline constexpr std::uint64_t kTeamRoundBytes =
    (kTeamRoundChildren + kMostChildren * kTeamRoundWave) * kTeamBytesPerChild +
    (kTeamRoundChildren + kTeamRoundWave) * 4;

// What a team member holds of tier t cut into `parts` ranges (its passes, or the whole tier),
// each divided between `members` members: its share (at most a share and a word more), a page
// more at each end of each part, no more than the whole tier.
template <TierSpace S>
std::uint64_t team_part_memory(const S& space, int t, bool value_only, int members,
                               std::uint64_t parts) {
  const std::uint64_t size = space.tier_size(t);
  const std::uint64_t whole = tier_memory(space, t, value_only);
  const std::uint64_t page =
      whole >= solver::kHugePageArrayBytes ? solver::kHugePageBytes : std::uint64_t{4096};
  const std::uint64_t share =
      entry_words(size / std::uint64_t(members) + 64 * parts, value_only) * 8 + 2 * page * parts;
  return std::min(whole, share);
}

// What a member of a team of `members` holds of tier t: its part of every pass
// (team_part_memory), and the buffers of a round of requests (kTeamRoundBytes, or less for a
// small tier) and of a batch that member 0 gathers to write (twice: brought in and received).
template <TierSpace S>
std::uint64_t team_share_memory(const S& space, int t, bool value_only, int members) {
  const std::uint64_t size = space.tier_size(t);
  const std::uint64_t round =
      std::min(kTeamRoundBytes, (kMostChildren * kTeamBytesPerChild + 4) * (size + 1));
  const std::uint64_t batch = entry_words(std::min(size, kStreamedBatchRecords), value_only) * 8;
  return team_part_memory(space, t, value_only, members, space.tier_passes(t).size()) + round +
         2 * batch;
}

// What a member of such a team holds of a child tier c of its tier: one contiguous part of c
// (TierTeam::part of all its entries); the other members answer for the rest.
template <TierSpace S>
std::uint64_t team_child_memory(const S& space, int c, bool value_only, int members) {
  return team_part_memory(space, c, value_only, members, 1);
}

// Bytes tier t's children take in memory, all of them whole.
template <TierSpace S>
std::uint64_t children_memory(const S& space, int t, bool value_only) {
  std::uint64_t bytes = 0;
  for (int c : space.tier_children(t)) bytes += tier_memory(space, c, value_only);
  return bytes;
}

// Bytes the smallest workable working set needs: the space's own index, the largest tier together
// with its largest child (children that do not fit beside the tier are folded in one group at a
// time: tier_sweep_plan.h), and the I/O buffers. With more memory the solver reads more children
// at once and sweeps fewer times. Tiers of more than split_entries entries, solved by a team of
// `members` processes, count the share each member holds of the tier and of its children
// (team_share_memory, team_child_memory).
template <TierSpace S>
std::uint64_t planned_memory(const S& space, bool value_only = false,
                             std::uint64_t split_entries = UINT64_MAX, int members = 1) {
  std::uint64_t most = 0;
  for (int t = 0; t < space.tier_count(); ++t) {
    const bool split = members > 1 && space.tier_size(t) > split_entries;
    std::uint64_t largest_child = 0;
    for (int c : space.tier_children(t))
      largest_child = std::max<std::uint64_t>(
          largest_child, split ? team_child_memory(space, c, value_only, members)
                               : tier_memory(space, c, value_only));
    const std::uint64_t held = split ? team_share_memory(space, t, value_only, members)
                                     : tier_memory(space, t, value_only);
    // At the least memory a tier folds its children one at a time, a big one in address order.
    const bool ordered = !split && !value_only && space.tier_children(t).size() > 1 &&
                         children_memory(space, t, value_only) >= kOrderedReadsFrom;
    most = std::max(most, held + largest_child + (ordered ? kOrderedWindowBytes : 0));
  }
  return space.memory_bytes() + most + kIoBufferBytes;
}

}  // namespace tablebase
