// One block of a loopy tier solved (loopy_tier_space.h): every entry's value and distance
// (loopy_value.h), from its children in the block and in earlier tiers, which are final.
//
// The rules are those of solver/cyclic_retrograde.h: no child is a loss in 0; a win in 1 + the
// least distance of the losing children; a loss in 1 + the greatest when every child wins; a
// draw when neither is ever settled.
//
// First pass, every entry's children once: those in earlier tiers are read and folded into what
// the entry keeps: a losing one makes it a win at 1 + the least such distance, but only
// tentatively, as a losing child inside the block may come sooner; a drawn one means it can never
// lose; the greatest distance of its winning ones is kept (out_max), as a loss lasts at least one
// more ply. Children inside the block are counted (unmoves) or left for the sweeps.
//
// Then levels d = 0, 1, 2, ...: the entries whose code is d are final at level d (a code only
// ever falls to d + 1 or more while level d is processed, so a tentative win still at d when
// level d comes is the least there is), and each tells its parents in the block:
// - a losing one makes an undecided parent a win at d + 1 (or lowers a tentative win to it);
// - a winning one counts down its parent's children not yet known to win; at 0, with no drawn
//   child outside, the parent is a loss at max(d + 1, out_max): its code is set at once, and as
//   the loser's distance cannot change any more, the parent waits in its code for its level.
// Entries found by scanning the block for code d (a byte compare an entry a level, cheap beside
// the first pass's moves) rather than kept in a queue: a block needs only two bytes an entry
// beside its codes. Undecided entries at the end are draws. This is the queue of the cyclic
// retrograde in order of distance, levels taking the place of its FIFO, with children outside the
// block entered at the level of their distance.
//
// Predecessors: by the space's unmoves when it has them (LoopyUnmoveSpace), each entry final at
// its level visiting its parents once; or by sweeps, each level regenerating the children of
// every undecided entry to see if one is final at d. Sweeps need nothing from the game beyond its
// moves, and cost a pass over the undecided entries' moves each level: tablebase/LOOPY.md has
// what each measured.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "tablebase/loopy_tier_space.h"
#include "tablebase/loopy_value.h"

namespace tablebase {

enum class LoopyPredecessors { unmoves, sweeps };

// What a thread keeps from block to block: two bytes an entry of the largest block it solved.
template <LoopyTierSpace S>
struct LoopyBlockScratch {
  std::vector<std::uint8_t> counter;  // children in the block not yet known to win (unmoves)
  std::vector<std::uint8_t> out_max;  // 1 + greatest winning distance outside, or kCannotLose
  typename S::Cursor cursor;
};

namespace loopy_detail {

// out_max of an entry with a drawn child outside its block: it never loses.
inline constexpr std::uint8_t kCannotLose = 255;
// The most children in the block an entry may have: its counter is a byte.
inline constexpr int kMostChildrenInBlock = 254;

// The first position at or after `from` in codes[0, n) holding `code`, or n.
inline std::size_t find_code(const LoopyCode* codes, std::size_t from, std::size_t n,
                             LoopyCode code) {
  const void* at = std::memchr(codes + from, code, n - from);
  return at ? std::size_t(static_cast<const LoopyCode*>(at) - codes) : n;
}

}  // namespace loopy_detail

// Solves the entries `block` of tier `tier` into tiers[tier]; tiers[c] holds every child tier c's
// codes. Throws std::overflow_error for a distance past kMaxLoopyDistance and std::logic_error for
// a space that breaks its contract (a move out of the block into its own tier).
template <LoopyTierSpace S>
void solve_loopy_block(const S& space, int tier, IndexRange block,
                       const std::vector<const LoopyCode*>& tiers, LoopyPredecessors predecessors,
                       LoopyBlockScratch<S>& scratch) {
  using loopy_detail::kCannotLose;
  const std::uint64_t n = block.end - block.begin;
  LoopyCode* codes = const_cast<LoopyCode*>(tiers[tier]) + block.begin;
  if (scratch.out_max.size() < n) {
    scratch.out_max.resize(n);
    scratch.counter.resize(n);
  }
  std::uint8_t* out_max = scratch.out_max.data();
  std::uint8_t* counter = scratch.counter.data();
  const auto in_block = [&](Location c) {
    if (c.index < block.begin || c.index >= block.end)
      throw std::logic_error("a move leaves its block for another block of the same tier");
    return c.index - block.begin;
  };
  const bool unmoves = predecessors == LoopyPredecessors::unmoves;
  if constexpr (!LoopyUnmoveSpace<S>)
    if (unmoves) throw std::logic_error("unmoves asked of a space that has none");

  int last = 0;  // the greatest code set so far: the last level to process
  const auto set = [&](std::uint64_t k, int distance) {
    codes[k] = loopy_decided(distance);
    last = std::max(last, distance);
  };

  // The first pass: children outside the block folded in, inside counted.
  for (std::uint64_t k = 0; k < n; ++k) {
    bool any = false, can_lose = true;
    int inside = 0, quickest_loss = INT_MAX, slowest_win = -1;
    space.for_each_child(scratch.cursor, tier, block.begin + k, [&](Location c) {
      any = true;
      if (c.tier == tier) {
        in_block(c);
        ++inside;
        return;
      }
      const LoopyCode v = tiers[c.tier][c.index];
      if (v == kLoopyDraw)
        can_lose = false;
      else if (v & 1)
        slowest_win = std::max<int>(slowest_win, v);
      else
        quickest_loss = std::min<int>(quickest_loss, v);
    });
    if (inside > loopy_detail::kMostChildrenInBlock)
      throw std::logic_error("an entry has more children in its block than a counter holds");
    codes[k] = kLoopyUnresolved;
    counter[k] = std::uint8_t(inside);
    out_max[k] = can_lose ? std::uint8_t(slowest_win + 1) : kCannotLose;
    if (!any)
      set(k, 0);
    else if (quickest_loss != INT_MAX)
      set(k, quickest_loss + 1);  // tentative: a losing child inside may come sooner
    else if (can_lose && inside == 0)
      set(k, slowest_win + 1);
  }

  // Levels in order of distance.
  for (int d = 0; d <= last; ++d) {
    const bool lost = d % 2 == 0;  // the entries final at d lost
    if (unmoves) {
      if constexpr (LoopyUnmoveSpace<S>) {
        for (std::uint64_t k = loopy_detail::find_code(codes, 0, n, LoopyCode(d)); k < n;
             k = loopy_detail::find_code(codes, k + 1, n, LoopyCode(d))) {
          space.for_each_parent(scratch.cursor, tier, block.begin + k, [&](std::uint64_t parent) {
            const std::uint64_t p = in_block({tier, parent});
            const LoopyCode v = codes[p];
            if (v <= d) return;  // final already (undecided and draws are above every level)
            if (lost) {
              if (v == kLoopyUnresolved || v > d + 1) set(p, d + 1);
            } else if (v == kLoopyUnresolved && out_max[p] != kCannotLose && --counter[p] == 0) {
              set(p, std::max(d + 1, int(out_max[p])));
            }
          });
        }
      }
    } else {
      // Sweeps: every entry not final yet looks at its children in the block. A code set during
      // this sweep is above d, so it reads as not final here, as it should.
      for (std::uint64_t k = 0; k < n; ++k) {
        const LoopyCode v = codes[k];
        if (v <= d) continue;  // final
        // A loss waiting for its level, or a win that cannot come sooner.
        if (v != kLoopyUnresolved && (v % 2 == 0 || v == d + 1)) continue;
        bool losing_child = false, all_final_wins = true;
        int slowest_win = -1;
        space.for_each_child(scratch.cursor, tier, block.begin + k, [&](Location c) {
          if (c.tier != tier) return;
          const LoopyCode w = codes[in_block(c)];
          if (w == d && lost)
            losing_child = true;
          else if (w <= d && w % 2 == 1)
            slowest_win = std::max<int>(slowest_win, w);
          else
            all_final_wins = false;
        });
        if (losing_child)
          set(k, d + 1);
        else if (v == kLoopyUnresolved && all_final_wins && out_max[k] != kCannotLose)
          set(k, std::max(slowest_win + 1, int(out_max[k])));
      }
    }
  }
  std::replace(codes, codes + n, kLoopyUnresolved, kLoopyDraw);
}

}  // namespace tablebase
