// The entries of a loopy tier space (loopy_tier_space.h) that play reaches from its roots, a bit
// an entry, and the counts of reached position classes by value: what lets a solve of every
// entry of a rank space report the same positions as solver/cyclic_retrograde.h, which explores
// only what the roots reach.
//
// Tiers go from the last to the first (moves only lead back in the solve order, so every parent
// of a tier comes before it this way). In each block, the entries marked by parents in later
// tiers (or as roots) are closed under the moves inside the block, depth first with a stack, and
// every child in an earlier tier is marked in its tier's bits. Blocks run in parallel; a word of
// bits may be shared by two blocks or by any parents marking children, so every access is atomic.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "solver/parallel_for.h"
#include "solver/progress.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/loopy_value.h"

namespace tablebase {

inline bool reached_bit(const std::uint64_t* words, std::uint64_t i) {
  const std::atomic_ref<const std::uint64_t> word(words[i >> 6]);
  return (word.load(std::memory_order_relaxed) >> (i & 63) & 1) != 0;
}
// Sets bit i; true if it was not set before.
inline bool mark_reached(std::uint64_t* words, std::uint64_t i) {
  const std::uint64_t bit = std::uint64_t{1} << (i & 63);
  return (std::atomic_ref<std::uint64_t>(words[i >> 6]).fetch_or(bit, std::memory_order_relaxed) &
          bit) == 0;
}

// Spreads tier t's marks: every entry of t reachable from its marked ones inside their blocks is
// marked, and so is every child of those in other tiers (bits[c], which must be there for each of
// t's children).
// With a progress line, each block's entries count as done.
template <LoopyTierSpace S>
void spread_reached(const S& space, int t, const std::vector<std::uint64_t*>& bits,
                    solver::Progress* progress = nullptr) {
  struct Scratch {
    std::vector<std::uint64_t> stack;
    typename S::Cursor cursor;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  std::uint64_t* own = bits[t];
  solver::parallel_for(std::uint64_t{0}, space.block_count(t), [&](std::uint64_t b) {
    Scratch& s = scratch.local();
    const IndexRange block = space.block_range(t, b);
    s.stack.clear();
    // The marks from outside, taken first: the closure only pushes entries it newly marks.
    for (std::uint64_t i = block.begin; i < block.end; ++i)
      if (reached_bit(own, i)) s.stack.push_back(i);
    while (!s.stack.empty()) {
      const std::uint64_t i = s.stack.back();
      s.stack.pop_back();
      space.for_each_child(s.cursor, t, i, [&](Location c) {
        if (c.tier != t)
          mark_reached(bits[c.tier], c.index);
        else if (mark_reached(own, c.index))
          s.stack.push_back(c.index);
      });
    }
    if (progress) progress->advance(block.end - block.begin);
  });
}

// The values of tier t's reached position classes: each marked entry counts unless a twin of it
// (LoopyTwinSpace) with a smaller index is marked too, so a class stored twice counts once.
template <LoopyTierSpace S>
LoopyTally tally_reached(const S& space, int t, const LoopyCode* codes, const std::uint64_t* bits) {
  struct Scratch {
    LoopyTally tally;
    typename S::Cursor cursor;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  solver::parallel_for(std::uint64_t{0}, space.block_count(t), [&](std::uint64_t b) {
    Scratch& s = scratch.local();
    const IndexRange block = space.block_range(t, b);
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
      if (!reached_bit(bits, i)) continue;
      bool first = true;
      if constexpr (LoopyTwinSpace<S>)
        space.for_each_twin(s.cursor, t, i, [&](std::uint64_t twin) {
          first = first && !(twin < i && reached_bit(bits, twin));
        });
      if (first) s.tally.add(codes[i]);
    }
  });
  LoopyTally total;
  for (const Scratch& s : scratch) total.add(s.tally);
  return total;
}

// The values of every entry of tier t.
inline LoopyTally tally_entries(const LoopyCode* codes, std::uint64_t n) {
  LoopyTally t;
  for (std::uint64_t i = 0; i < n; ++i) t.add(codes[i]);
  return t;
}

}  // namespace tablebase
