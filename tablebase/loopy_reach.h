// The entries of a loopy tier space (loopy_tier_space.h) that play reaches from its roots, a bit
// an entry, and the counts of reached position classes by value: what lets a solve of every
// entry of a rank space report the same positions as solver/cyclic_retrograde.h, which explores
// only what the roots reach.
//
// Tiers go from the last to the first (moves only lead back in the solve order, so every parent
// of a tier comes before it this way). In each block, the entries marked by parents in later
// tiers (or as roots) are closed under the moves inside the block, in index order, and
// every child in an earlier tier is marked in its tier's bits. Blocks run in parallel; a word of
// bits may be shared by two blocks or by any parents marking children, so every access is atomic.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

#include "solver/parallel_for.h"
#include "solver/progress.h"
#include "solver/zeroed_array.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/loopy_value.h"

namespace tablebase {

inline bool reached_bit(const std::uint64_t* words, std::uint64_t i) {
  const std::atomic_ref<const std::uint64_t> word(words[i >> 6]);
  return (word.load(std::memory_order_relaxed) >> (i & 63) & 1) != 0;
}
// Bits i to i + count - 1 (0 < count <= 64; bit i the lowest, the bits above count 0).
inline std::uint64_t reached_bits_at(const std::uint64_t* words, std::uint64_t i,
                                     std::uint64_t count) {
  const auto word = [&](std::uint64_t w) {
    return std::atomic_ref<const std::uint64_t>(words[w]).load(std::memory_order_relaxed);
  };
  const std::uint64_t shift = i & 63;
  std::uint64_t bits = word(i >> 6) >> shift;
  if (shift + count > 64) bits |= word((i >> 6) + 1) << (64 - shift);
  return count == 64 ? bits : bits & ((std::uint64_t{1} << count) - 1);
}
// Sets bit i; true if it was not set before. Most children are marked already (an entry has many
// parents), and a plain load costs a fraction of a locked read-modify-write, so the bit is read
// first: bits are only ever set, so one seen set stays set.
inline bool mark_reached(std::uint64_t* words, std::uint64_t i) {
  const std::uint64_t bit = std::uint64_t{1} << (i & 63);
  const std::atomic_ref<std::uint64_t> word(words[i >> 6]);
  if (word.load(std::memory_order_relaxed) & bit) return false;
  return (word.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
}

// Spreads tier t's marks: every entry of t reachable from its marked ones inside their blocks is
// marked, and so is every child of those in other tiers (bits[c], which must be there for each of
// t's children). Small blocks go one to a thread, each closed in a scan in index order that expands
// the marked entries as it comes to them, with a stack for those marked behind it; a block of
// `shared_from` entries or more (one block of a whole tier, as Spock's, whose stack could grow to
// the tier) is closed by all threads in passes over it, each expanding the marked entries it has
// not expanded yet (a bit an entry of the block), until a pass expands none. Over blocks
// [first_block, end_block), or all of them: blocks are closed independently, so a tier may be
// spread a run of blocks at a time (what lets a stopped reach resume inside a tier). With a
// progress line, each block's entries count as done.
template <LoopyTierSpace S>
void spread_reached(const S& space, int t, const std::vector<std::uint64_t*>& bits,
                    std::uint64_t shared_from, solver::Progress* progress = nullptr,
                    std::uint64_t first_block = 0, std::uint64_t end_block = UINT64_MAX) {
  end_block = std::min<std::uint64_t>(end_block, space.block_count(t));
  std::uint64_t* own = bits[t];
  const auto expand = [&](typename S::Cursor& cursor, std::uint64_t i, const auto& newly_marked) {
    space.for_each_child(cursor, t, i, [&](Location c) {
      if (c.tier != t)
        mark_reached(bits[c.tier], c.index);
      else if (mark_reached(own, c.index))
        newly_marked(c.index);
    });
  };
  struct Scratch {
    std::vector<std::uint64_t> stack;
    typename S::Cursor cursor;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  const auto done = [&](std::uint64_t n) {
    if (!progress) return;
    progress->advance(n);
    progress->add_to_rate(n);
  };
  solver::parallel_for(first_block, end_block, [&](std::uint64_t b) {
    const IndexRange block = space.block_range(t, b);
    if (block.end - block.begin >= shared_from) return;
    Scratch& s = scratch.local();
    // In index order, each marked entry expanded when the scan comes to it; only an entry newly
    // marked behind the scan goes on the stack (one ahead is still to come), so the stack holds
    // those, not every mark from outside.
    for (std::uint64_t at = block.begin; at < block.end; ++at) {
      if (!reached_bit(own, at)) continue;
      const auto behind = [&](std::uint64_t c) {
        if (c < at) s.stack.push_back(c);
      };
      expand(s.cursor, at, behind);
      while (!s.stack.empty()) {
        const std::uint64_t i = s.stack.back();
        s.stack.pop_back();
        expand(s.cursor, i, behind);
      }
    }
    done(block.end - block.begin);
  });
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 16;  // entries a thread takes at a time
  for (std::uint64_t b = first_block; b < end_block; ++b) {
    const IndexRange block = space.block_range(t, b);
    const std::uint64_t n = block.end - block.begin;
    if (n < shared_from) continue;
    solver::ZeroedArray<std::uint64_t> expanded((n + 63) / 64);  // by index in the block
    for (std::atomic<bool> more{true}; more.exchange(false);)
      solver::parallel_for(std::uint64_t{0}, (n + kChunk - 1) / kChunk, [&](std::uint64_t c) {
        Scratch& s = scratch.local();
        // 64 entries at a time, those marked and not expanded (only this chunk's thread sets
        // their expanded bits); a mark set in a word already read waits for the next pass.
        const std::uint64_t end = std::min(n, (c + 1) * kChunk);
        bool expanded_any = false;
        for (std::uint64_t k = c * kChunk; k < end; k += 64) {
          const std::uint64_t count = std::min<std::uint64_t>(64, end - k);
          std::uint64_t pending = reached_bits_at(own, block.begin + k, count) &
                                  ~reached_bits_at(expanded.data(), k, count);
          expanded_any = expanded_any || pending != 0;
          for (; pending; pending &= pending - 1) {
            const std::uint64_t e = k + std::uint64_t(std::countr_zero(pending));
            mark_reached(expanded.data(), e);
            expand(s.cursor, block.begin + e, [](std::uint64_t) {});
          }
        }
        // Once a chunk, not once an entry: the flag is every thread's, and a store an entry
        // bounced its cache line between the cores.
        if (expanded_any) more.store(true, std::memory_order_relaxed);
      });
    done(n);
  }
}

// Entry i of tier t counted into `tally` if it is marked and no twin of it (LoopyTwinSpace) with a
// smaller index is marked too: what counts a class stored twice once.
template <LoopyTierSpace S>
void tally_entry(const S& space, typename S::Cursor& cursor, int t, const LoopyCode* codes,
                 const std::uint64_t* bits, std::uint64_t i, LoopyTally& tally) {
  if (!reached_bit(bits, i)) return;
  bool first = true;
  if constexpr (LoopyTwinSpace<S>)
    space.for_each_twin(cursor, t, i, [&](std::uint64_t twin) {
      first = first && !(twin < i && reached_bit(bits, twin));
    });
  if (first) tally.add(codes[i]);
}

// The values of tier t's reached position classes: each marked entry counts unless a twin of it
// (LoopyTwinSpace) with a smaller index is marked too, so a class stored twice counts once. Over
// blocks [first_block, end_block), or all of them (twins share a block).
template <LoopyTierSpace S>
LoopyTally tally_reached(const S& space, int t, const LoopyCode* codes, const std::uint64_t* bits,
                         std::uint64_t first_block = 0, std::uint64_t end_block = UINT64_MAX) {
  struct Scratch {
    LoopyTally tally;
    typename S::Cursor cursor;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  end_block = std::min<std::uint64_t>(end_block, space.block_count(t));
  solver::parallel_for(first_block, end_block, [&](std::uint64_t b) {
    Scratch& s = scratch.local();
    const IndexRange block = space.block_range(t, b);
    for (std::uint64_t i = block.begin; i < block.end; ++i)
      tally_entry(space, s.cursor, t, codes, bits, i, s.tally);
  });
  LoopyTally total;
  for (const Scratch& s : scratch) total.add(s.tally);
  return total;
}

// As tally_reached, over entries [entries.begin, entries.end) of tier t, in parallel by chunks
// however large their blocks: `codes` must hold those entries' codes, and `bits` the reached bits
// of their whole blocks (a twin may lie anywhere in its block). What counts a block of billions
// of entries (a Spock tier) a run of its codes at a time.
template <LoopyTierSpace S>
LoopyTally tally_reached_entries(const S& space, int t, const LoopyCode* codes,
                                 const std::uint64_t* bits, IndexRange entries) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 16;
  struct Scratch {
    LoopyTally tally;
    typename S::Cursor cursor;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  const std::uint64_t chunks = (entries.end - entries.begin + kChunk - 1) / kChunk;
  solver::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
    Scratch& s = scratch.local();
    const std::uint64_t from = entries.begin + c * kChunk;
    const std::uint64_t to = std::min(entries.end, from + kChunk);
    for (std::uint64_t i = from; i < to; ++i)
      tally_entry(space, s.cursor, t, codes, bits, i, s.tally);
  });
  LoopyTally total;
  for (const Scratch& s : scratch) total.add(s.tally);
  return total;
}

// The code of the position class stored at `at`, code_of(location) reading a stored code: its
// own, or where it is not in the row, that of a twin that is. A solve of the reached entries only
// solves the copy of a class that play's moves locate, which a probe of the same class in another
// orientation may not locate; kLoopyNotInRow when no copy is in the row.
template <LoopyTierSpace S, typename CodeOf>
LoopyCode loopy_class_code(const S& space, Location at, CodeOf&& code_of) {
  LoopyCode code = code_of(at);
  if constexpr (LoopyTwinSpace<S>) {
    if (loopy_in_row(code)) return code;
    typename S::Cursor cursor;
    space.for_each_twin(cursor, at.tier, at.index, [&](std::uint64_t twin) {
      if (!loopy_in_row(code)) code = code_of(Location{at.tier, twin});
    });
  }
  return code;
}

// The values of entries [from, n) of a tier; with `reached` (its reached bits), those not marked
// count as not in the row, whatever their code.
inline LoopyTally tally_entries(const LoopyCode* codes, std::uint64_t n,
                                const std::uint64_t* reached = nullptr, std::uint64_t from = 0) {
  LoopyTally t;
  for (std::uint64_t i = from; i < n; ++i)
    t.add(reached && !reached_bit(reached, i) ? kLoopyNotInRow : codes[i]);
  return t;
}

}  // namespace tablebase
