// A team member's sweep in rounds (tier_team.h): each round locates its entries' children that
// other members hold (in the team's tier itself, or in a child tier the members hold in parts),
// asks their owners for them and answers the others' requests, so that the sweep then folds the
// answers beside the children this member holds (tier_sweeps.h). Every child is located once,
// as alone. Each child goes as often as an entry reaches it, so no member sorts: requests and
// answers keep the order they were found in. The rounds' bounds are the memory plan's
// (kTeamRoundChildren, kTeamRoundWave: tier_memory_plan.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

#include "solver/parallel_for.h"
#include "tablebase/index_range.h"
#include "tablebase/tier_memory_plan.h"
#include "tablebase/tier_residency.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_team.h"
#include "tablebase/tier_team_seat.h"

namespace tablebase {

// A round of a team's sweep: the DTEs (or values, 0/1) of its entries' children fetched from
// their owners, entry i's from entry[first[i - begin]] to entry[first[i - begin + 1]].
struct FetchedRound {
  std::uint64_t begin = 0;
  std::vector<std::uint32_t> first;
  std::vector<std::uint8_t> entry;
  std::span<const std::uint8_t> of(std::uint64_t i) const {
    const std::uint64_t k = i - begin;
    return {entry.data() + first[k], entry.data() + first[k + 1]};
  }
};

template <TierSpace S>
class TeamFetch {
 public:
  // Throws std::logic_error when a child of `space` cannot be asked for in one request word.
  TeamFetch(const S& space, const TierResidency<S>& tiers, TierTeamSeat& seat)
      : space_(space), tiers_(tiers), seat_(seat) {
    bool fits = space_.tier_count() <= kFetchTiers;
    for (int c = 0; fits && c < space_.tier_count(); ++c)
      fits = space_.tier_size(c) <= kFetchEntries;
    if (!fits) throw std::logic_error("a split tier's children do not fit a request word");
  }
  TeamFetch(const TeamFetch&) = delete;
  TeamFetch& operator=(const TeamFetch&) = delete;

  // A sweep of the team's tier t (collective): this member's part of `range` (which lies in one
  // pass) in rounds, as long as any member has entries left. Each round calls
  // sweep(begin, end, elsewhere, round): the round's entries [begin, end), the `wanted` tiers
  // this member holds whole, and the children fetched from the others.
  template <typename SweepRound>
  void sweep_in_rounds(int t, IndexRange range, const std::vector<char>& wanted,
                       const SweepRound& sweep) {
    const IndexRange mine = intersection(seat_.team().own_part(seat_.pass_of(range.begin)), range);
    std::vector<char> fetched_tiers(space_.tier_count(), 0), elsewhere = wanted;
    for (int c = 0; c < space_.tier_count(); ++c) {
      fetched_tiers[c] = wanted[c] && (c == t || tiers_.in_part(c));
      elsewhere[c] = wanted[c] && !fetched_tiers[c];
    }
    for (std::uint64_t at = mine.begin; seat_.team().any(at < mine.end);) {
      const std::uint64_t end = fetch_children(t, {at, mine.end}, fetched_tiers);
      sweep(at, end, elsewhere, static_cast<const FetchedRound*>(&buffers_.round));
      at = end;
    }
  }

 private:
  // A round (collective: every member answers the requests it gets): from range.begin on, until
  // kTeamRoundChildren children or entries, the children in the tiers `from` fetched from their
  // owners into buffers_.round. Returns the round's end.
  std::uint64_t fetch_children(int t, IndexRange range, const std::vector<char>& from) {
    constexpr std::uint64_t kBlock = 256, kBlocks = kTeamRoundWave / kBlock;
    Buffers& f = buffers_;
    f.round.begin = range.begin;
    f.round.first.assign(1, 0);
    f.keys.clear();
    f.found.resize(kBlocks);
    f.found_after.resize(kTeamRoundWave);
    std::uint64_t at = range.begin;
    while (at < range.end && f.keys.size() < kTeamRoundChildren &&
           at - range.begin < kTeamRoundChildren) {
      const std::uint64_t wave_end = std::min(range.end, at + kTeamRoundWave);
      solver::parallel_for(
          std::uint64_t{0}, (wave_end - at + kBlock - 1) / kBlock, [&](std::uint64_t b) {
            f.found[b].clear();
            const std::uint64_t first = at + b * kBlock;
            typename S::Cursor cursor;
            for (std::uint64_t i = first; i < std::min(wave_end, first + kBlock); ++i) {
              space_.for_each_child(cursor, t, i, from, [&](Location c) {
                f.found[b].push_back(std::uint64_t(c.tier) << kFetchIndexBits | c.index);
              });
              f.found_after[i - at] = std::uint32_t(f.found[b].size());
            }
          });
      for (std::uint64_t b = 0; at + b * kBlock < wave_end; ++b) {
        const std::uint64_t first = at + b * kBlock, last = std::min(wave_end, first + kBlock);
        for (std::uint64_t i = first; i < last; ++i)
          f.round.first.push_back(std::uint32_t(f.keys.size() + f.found_after[i - at]));
        f.keys.insert(f.keys.end(), f.found[b].begin(), f.found[b].end());
      }
      at = wave_end;
    }

    TierTeam& team = seat_.team();
    const int members = team.members();
    f.owner.resize(f.keys.size());
    f.requests.resize(members);
    for (auto& r : f.requests) r.clear();
    for (std::size_t k = 0; k < f.keys.size(); ++k) {
      const Location c = fetched_location(f.keys[k]);
      f.owner[k] = c.tier == t ? TierTeam::owner(seat_.pass_of(c.index), c.index, members)
                               : seat_.child_owner(space_.tier_size(c.tier), c.index);
      append_word(f.requests[f.owner[k]], f.keys[k]);
    }
    team.exchange(f.requests, f.asked);
    f.answers.resize(members);
    for (int m = 0; m < members; ++m) {
      f.answers[m].resize(f.asked[m].size() / 8);
      solver::parallel_for(std::uint64_t{0}, f.answers[m].size(), [&](std::uint64_t w) {
        const Location c = fetched_location(word_at(f.asked[m], w));
        f.answers[m][w] = tiers_.entry(c.tier, c.index);
      });
    }
    team.exchange(f.answers, f.answered);
    f.round.entry.resize(f.keys.size());
    std::vector<std::size_t> next(members, 0);
    for (std::size_t k = 0; k < f.keys.size(); ++k) {
      const TierTeam::Bytes& answer = f.answered[f.owner[k]];
      if (next[f.owner[k]] >= answer.size())
        throw std::runtime_error("a team member answered fewer entries than asked for");
      f.round.entry[k] = answer[next[f.owner[k]]++];
    }
    return at;
  }

  // A request's word: a tier below kFetchTiers, an index below kFetchEntries.
  static constexpr int kFetchIndexBits = 48;
  static constexpr std::uint64_t kFetchEntries = std::uint64_t{1} << kFetchIndexBits;
  static constexpr int kFetchTiers = 1 << (64 - kFetchIndexBits);
  static Location fetched_location(std::uint64_t key) {
    return {int(key >> kFetchIndexBits), key & (kFetchEntries - 1)};
  }
  static void append_word(TierTeam::Bytes& to, std::uint64_t word) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(&word);
    to.insert(to.end(), bytes, bytes + sizeof word);
  }
  static std::uint64_t word_at(const TierTeam::Bytes& from, std::size_t w) {
    std::uint64_t word;
    std::memcpy(&word, from.data() + w * sizeof word, sizeof word);
    return word;
  }

  const S& space_;
  const TierResidency<S>& tiers_;
  TierTeamSeat& seat_;
  // The round and its buffers, kept from round to round with their room (a pass has thousands of
  // rounds; allocating them anew each time leaves the heap fragmented).
  struct Buffers {
    FetchedRound round;
    std::vector<std::uint64_t> keys;                // the round's children, as requested
    std::vector<std::vector<std::uint64_t>> found;  // a wave's, block by block
    std::vector<std::uint32_t> found_after;         // a wave's entry: its block's count after it
    std::vector<std::int32_t> owner;                // each child's
    std::vector<TierTeam::Bytes> requests, asked, answers, answered;  // to and from each member
  } buffers_;
};

}  // namespace tablebase
