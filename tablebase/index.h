// Perfect, dense ranks of piece placements: the index of a position inside its slice.
//
// A slice fixes how many pieces of each of the ten (side, type) groups stand on the board. The
// groups are placed one after another, each on the squares the earlier ones left free; a group's
// squares are ranked among those free squares with the combinatorial number system, and the
// group ranks combine in mixed radix (the first group most significant). So every index from 0
// to size()-1 is exactly one placement: no holes, no lookup tables beyond the binomials.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "rules/common/bitboard.h"

namespace tablebase {

using Bitboard = common::bitboards::Bitboard;
// Groups of a placement: two sides' five piece types (Drop 16's and Spock's), the side to move's
// first; the game says which (rules/<game>/solve/).
inline constexpr int kGroups = 10;
using Groups = std::array<Bitboard, kGroups>;

// C(n, k) for 0 <= n, k <= 64 (0 when k > n); C(64, 32) still fits 64 bits.
std::uint64_t binomial(int n, int k);

// C(n, k) for k < 16 (no group has more pieces), in 8 KB: rank's inner loop stays in L1.
extern const std::array<std::array<std::uint64_t, 16>, 65> kSmallBinomials;

class PlacementIndex {
 public:
  PlacementIndex() = default;
  // counts[g] pieces of group g on a board of `squares` squares.
  PlacementIndex(int squares, const std::array<int, kGroups>& counts);

  std::uint64_t size() const { return size_; }
  // Inline: the tier solver ranks every child of every position it solves.
  std::uint64_t rank(const Groups& groups) const {
    Bitboard free = all_squares_;
    return rank_of_groups(groups, 0, group_count_, free);
  }
  // The rank cut after the first `lead` non-empty groups, rank = prefix * (placements of the
  // other groups) + rest, in two calls because a caller may move the pieces between them (the
  // symmetry index maps a position by its prefix) without ranking the whole placement twice.
  std::uint64_t prefix_rank(const Groups& groups, int lead) const {
    Bitboard free = all_squares_;
    return rank_of_groups(groups, 0, std::min(lead, group_count_), free);
  }
  std::uint64_t rest_rank(const Groups& groups, int lead) const {
    const int first = std::min(lead, group_count_);
    Bitboard free = free_after(groups, first);
    return rank_of_groups(groups, first, group_count_, free);
  }
  // rest_rank in two steps, for placements that differ only by a square added to group g (a
  // parent's drops of one type): the groups between the lead and g are ranked once, into a
  // DropHead, and each placement from g on.
  struct DropHead {
    std::uint64_t rank = 0;  // of the groups between the lead and g
    Bitboard free = 0;       // the squares they leave
    int place = 0;           // g's place in the non-empty groups
  };
  DropHead drop_head(const Groups& groups, int lead, int g) const {
    DropHead head;
    const int first = std::min(lead, group_count_);
    head.free = free_after(groups, first);
    head.place = first;
    while (groups_[head.place] != g) ++head.place;
    head.rank = rank_of_groups(groups, first, head.place, head.free);
    return head;
  }
  // rest_rank of `groups` with `square` added to the head's group.
  std::uint64_t rest_rank_with_drop(const Groups& groups, const DropHead& head,
                                    Bitboard square) const {
    const int g = groups_[head.place];
    const Bitboard bits = groups[g] | square;
    Bitboard free = head.free;
    const std::uint64_t r = head.rank * radix_[g] + digit(g, bits, free);
    free &= ~bits;
    return rank_of_groups(groups, head.place + 1, group_count_, free, r);
  }
  Groups unrank(std::uint64_t index) const;
  // Turns `groups` into the placement of the next rank that keeps the first `lead` non-empty
  // groups where they are; false, and `groups` unchanged, after the last. A sweep takes its
  // entries in rank order, and the next placement is nearly always the last group's next subset:
  // far cheaper than unranking it again.
  bool step(Groups& groups, int lead) const {
    const int first = std::min(lead, group_count_);
    Bitboard occupied = 0;
    for (int k = 0; k < group_count_; ++k) occupied |= groups[groups_[k]];
    Bitboard later = 0;  // squares of the groups from k on
    for (int k = group_count_ - 1; k >= first; --k) {
      const int g = groups_[k];
      later |= groups[g];
      Bitboard free = all_squares_ & ~(occupied & ~later);
      const Bitboard next = next_subset(groups[g], free);
      if (!next) continue;
      groups[g] = next;
      // The groups after k start again from their least placement, the lowest free squares.
      free &= ~next;
      for (int j = k + 1; j < group_count_; ++j) {
        const int h = groups_[j];
        groups[h] = 0;
        for (int n = 0; n < count_[h]; ++n) {
          const Bitboard lowest = free & (0 - free);
          groups[h] |= lowest;
          free ^= lowest;
        }
      }
      return true;
    }
    return false;
  }

 private:
  // The squares the first `first` non-empty groups leave free.
  Bitboard free_after(const Groups& groups, int first) const {
    Bitboard free = all_squares_;
    for (int k = 0; k < first; ++k) free &= ~groups[groups_[k]];
    return free;
  }
  // The subset of `free` after `bits` (a subset of it) among those of as many squares, in the
  // order of their ranks (colexicographic: as integers), or 0 after the last. Adding the lowest
  // bit with the squares outside `free` set carries through the lowest run of `bits` to the next
  // free square; the run's other squares go back to the lowest free ones.
  static Bitboard next_subset(Bitboard bits, Bitboard free) {
    const Bitboard lowest = bits & (0 - bits);
    const Bitboard raised = ((bits | ~free) + lowest) & free;
    if (!raised) return 0;
    Bitboard refill = free;
    for (int n = common::bitboards::popcount(bits) - common::bitboards::popcount(raised); n > 0;
         --n)
      refill &= refill - 1;  // drops the lowest free squares the run does not take back
    return raised | (free & ~refill);
  }

  // The mixed-radix rank of the non-empty groups from..to-1 (places in groups_), each placed on the
  // squares `free` leaves, which each takes in turn; r, the rank of the groups before, leads.
  std::uint64_t rank_of_groups(const Groups& groups, int from, int to, Bitboard& free,
                               std::uint64_t r = 0) const {
    for (int k = from; k < to; ++k) {
      const int g = groups_[k];
      r = r * radix_[g] + digit(g, groups[g], free);
      free &= ~groups[g];
    }
    return r;
  }
  // Group g's squares ranked among the free ones (combinatorial number system).
  std::uint64_t digit(int g, Bitboard bits, Bitboard free) const {
    if (count_[g] == 1) return common::bitboards::popcount(free & (bits - 1));  // C(position, 1)
    std::uint64_t r = 0;
    int i = 1;
    for (Bitboard b = bits; b; ++i) {
      const int sq = common::bitboards::pop_lsb(b);
      r += kSmallBinomials[common::bitboards::popcount(free &
                                                       (common::bitboards::square_bit(sq) - 1))][i];
    }
    return r;
  }

  int squares_ = 0;
  Bitboard all_squares_ = 0;
  std::array<std::int8_t, kGroups> groups_{};  // the non-empty groups, in order
  int group_count_ = 0;
  std::array<int, kGroups> count_{};
  std::array<std::uint64_t, kGroups> radix_{};  // C(free squares before group g, count_[g])
  std::uint64_t size_ = 1;
};

}  // namespace tablebase
