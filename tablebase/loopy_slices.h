// How the loopy tier solver (loopy_tier_solver.h) holds a tier within its memory budget: whole
// with its children, as it does when they fit; or a slice of its blocks at a time (blocks are
// solved independently given the children, loopy_tier_space.h), each slice written to its own
// file as it finishes (loopy_tier_files.h), with the children whole beside the slice when they
// fit, or else, for a space that names its blocks' child blocks (LoopyChildBlockSpace), with only
// the ranges of each child that the slice's moves lead to, read from the child's file for that
// slice. A tier's slices are its blocks in order, as many to a slice as the budget takes and, on
// disk, no more entries than a cap derived from how long a slice may take (what a stopped run
// loses at most: LOOPY.md, "Slices bounded in time"). The same budget and cap give the same
// slices; a run resumed with others takes the slices on disk as they are (loopy_tier_solver.h).
//
// Memory is counted in the 4 KB pages a range of codes (a byte an entry) or of reached bits (a
// bit an entry) spans: slices and ranges of children live in sparse arrays
// (solver::ZeroedArray::sparse), in which only the pages written hold memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_set>
#include <vector>

#include "solver/zeroed_array.h"
#include "tablebase/index_range.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/table_file.h"  // kDefaultBlockBytes

namespace tablebase {

struct LoopySlice {
  std::uint64_t first_block = 0, end_block = 0;
  IndexRange entries;
};

struct LoopyTierPlan {
  std::vector<LoopySlice> slices;  // one, the whole tier, when it fits whole
  bool children_whole = true;      // else each slice reads the parts of its children it needs
  bool fits = true;                // false: not even one block (with what it needs) fits
  std::uint64_t peak_bytes = 0;    // the most the tier's solve holds at once (or would, unfit)
  bool sliced() const { return slices.size() > 1 || !children_whole; }
};

// The solve's rate a slice's length is derived from, in entries a CPU second: below the rook
// race's measured solve rates, and as low as its largest row's may be (LOOPY.md, "Slices bounded
// in time"), so that a slice of a target duration takes at most about that long. A slice being
// the unit a stopped run resumes at, a run stopped loses at most the slice it was solving.
inline constexpr double kLoopySliceEntriesPerCpuSecond = 5e5;
// The default target: minutes of CPU a slice takes at the most, about.
inline constexpr double kLoopySliceCpuMinutes = 10;

// The entries of a slice that takes `cpu_minutes` of CPU at kLoopySliceEntriesPerCpuSecond (at
// least 1, at most 2^63).
inline std::uint64_t loopy_slice_entries(double cpu_minutes) {
  const double entries = cpu_minutes * 60 * kLoopySliceEntriesPerCpuSecond;
  return entries < 1 ? 1 : entries >= 0x1p63 ? std::uint64_t{1} << 63 : std::uint64_t(entries);
}

namespace loopy_slices_detail {

inline constexpr std::uint64_t kPage = 4096;

// The bytes of the pages that bytes [from, to) of a sparse array span.
inline std::uint64_t pages_spanned(std::uint64_t from, std::uint64_t to) {
  return from >= to ? 0 : ((to + kPage - 1) / kPage - from / kPage) * kPage;
}

}  // namespace loopy_slices_detail

// What a range of a tier's entries holds in memory: its codes, and with `with_bits` its reached
// bits (read for the counts, and by a solve of the reached entries only while it solves them).
inline std::uint64_t loopy_range_bytes(IndexRange r, bool with_bits) {
  using loopy_slices_detail::pages_spanned;
  return pages_spanned(r.begin, r.end) +
         (with_bits ? pages_spanned(r.begin / 64 * 8, (r.end + 63) / 64 * 8) : 0);
}

// What reading a table file of `entries` records holds besides the records it hands out: its
// block index, 16 bytes a block of at least kDefaultBlockBytes records (a byte a record at the
// most), twice while the index is read and checked (table_file.cpp).
inline std::uint64_t loopy_table_index_bytes(std::uint64_t entries) {
  return 32 * (entries / kDefaultBlockBytes + 1);
}

// The ranges of other tiers that blocks [first, end) of tier t lead to, by tier, each sorted,
// without repeats.
template <LoopyChildBlockSpace S>
std::vector<std::vector<IndexRange>> loopy_child_ranges(const S& space, int t, std::uint64_t first,
                                                        std::uint64_t end) {
  std::vector<std::vector<IndexRange>> ranges(space.tier_count());
  typename S::Cursor cursor;
  for (std::uint64_t b = first; b < end; ++b)
    space.for_each_child_block(cursor, t, b,
                               [&](LocationRange r) { ranges[r.tier].push_back(r.range); });
  for (auto& r : ranges) {
    std::sort(r.begin(), r.end(), [](IndexRange a, IndexRange b) { return a.begin < b.begin; });
    r.erase(std::unique(r.begin(), r.end(),
                        [](IndexRange a, IndexRange b) { return a.begin == b.begin; }),
            r.end());
  }
  return ranges;
}

// The memory tier t's codes take when held whole (a byte an entry; none for a tier without moves).
template <LoopyTierSpace S>
std::uint64_t loopy_code_bytes(const S& space, int t) {
  return loopy_tier_without_moves(space, t) ? 0 : solver::mapped_bytes(space.tier_size(t));
}

// How tier t is solved within `budget` bytes (what the plan leaves beside the space's tables and
// the scratch) and slices of at most `slice_entries` entries (a single block larger than that
// makes a slice alone): whole when it fits with its children (and with_bits, its reached bits)
// and is not longer than a slice, else a slice at a time with the children whole, else (a
// LoopyChildBlockSpace) with the parts of the children each slice needs. with_bits: the tier's
// reached bits are held beside its codes (a slice's beside the slice's), as the counts and a
// solve of the reached entries only need them.
template <LoopyTierSpace S>
LoopyTierPlan plan_loopy_tier(const S& space, int t, std::uint64_t budget, bool with_bits,
                              std::uint64_t slice_entries) {
  const std::uint64_t size = space.tier_size(t), blocks = space.block_count(t);
  std::uint64_t children = 0;
  for (int c : space.tier_children(t)) children += loopy_code_bytes(space, c);
  LoopyTierPlan plan;
  plan.peak_bytes = loopy_code_bytes(space, t) +
                    (with_bits ? solver::mapped_bytes((size + 63) / 64 * 8) : 0) + children;
  plan.slices = {{0, blocks, {0, size}}};
  // A tier without moves is not solved, so never cut: a slice bounds the work a stop loses.
  if (loopy_tier_without_moves(space, t)) {
    plan.fits = plan.peak_bytes <= budget;
    return plan;
  }
  if (plan.peak_bytes <= budget && size <= slice_entries) return plan;
  // Blocks in order, as many to a slice as `fits` and slice_entries allow; a block that fits
  // alone nowhere makes the plan unfit, its peak what that block would need.
  const auto cut = [&](auto fits_with, auto start) {
    plan.slices.clear();
    plan.fits = true;
    plan.peak_bytes = 0;
    std::uint64_t first = 0;
    while (first < blocks) {
      start(first);
      std::uint64_t end = first, held = 0;
      while (end < blocks) {
        const std::uint64_t more = fits_with(end);
        const bool longer =
            space.block_range(t, end).end - space.block_range(t, first).begin > slice_entries;
        if ((more > budget || longer) && end > first) break;
        held = more;
        ++end;
        if (more > budget) break;  // one block alone is over: unfit
      }
      if (held > budget) plan.fits = false;
      plan.peak_bytes = std::max(plan.peak_bytes, held);
      plan.slices.push_back(
          {first, end, {space.block_range(t, first).begin, space.block_range(t, end - 1).end}});
      first = end;
    }
  };
  const auto slice_bytes = [&](std::uint64_t first, std::uint64_t last) {
    return loopy_range_bytes({space.block_range(t, first).begin, space.block_range(t, last).end},
                             with_bits);
  };
  // Children whole beside each slice.
  std::uint64_t first_block = 0;
  cut([&](std::uint64_t b) { return children + slice_bytes(first_block, b); },
      [&](std::uint64_t first) { first_block = first; });
  if (plan.fits || !LoopyChildBlockSpace<S>) return plan;
  if constexpr (LoopyChildBlockSpace<S>) {
    // Only the child blocks each slice leads to, a block of a child counted once a slice, and
    // the index of the file being read (one child at a time), beside that of the tier's reached
    // bits (with_bits: open while the slices are solved).
    plan.children_whole = false;
    std::uint64_t index = 0;
    for (int c : space.tier_children(t))
      index = std::max(index, loopy_table_index_bytes(space.tier_size(c)));
    if (with_bits) index += loopy_table_index_bytes((size + 7) / 8);
    typename S::Cursor cursor;
    std::unordered_set<std::uint64_t> seen;  // tier << 48 | a child block's first entry
    std::uint64_t child_bytes = 0;
    cut(
        [&](std::uint64_t b) {
          space.for_each_child_block(cursor, t, b, [&](LocationRange r) {
            if (!loopy_tier_without_moves(space, r.tier) &&
                seen.insert(std::uint64_t(r.tier) << 48 | r.range.begin).second)
              child_bytes += loopy_slices_detail::pages_spanned(r.range.begin, r.range.end);
          });
          return index + child_bytes + slice_bytes(first_block, b);
        },
        [&](std::uint64_t first) {
          first_block = first;
          seen.clear();
          child_bytes = 0;
        });
  }
  return plan;
}

// The block of tier t that starts at `entry` (block_count(t) for the tier's end), nullopt when no
// block starts there.
template <LoopyTierSpace S>
std::optional<std::uint64_t> loopy_block_at(const S& space, int t, std::uint64_t entry) {
  std::uint64_t low = 0, high = space.block_count(t);  // the block sought is in [low, high]
  while (low < high) {
    const std::uint64_t mid = low + (high - low) / 2;
    if (space.block_range(t, mid).begin < entry)
      low = mid + 1;
    else
      high = mid;
  }
  const std::uint64_t begin =
      low < space.block_count(t) ? space.block_range(t, low).begin : space.tier_size(t);
  if (begin != entry) return std::nullopt;
  return low;
}

// What is left to solve of tier t's planned slices when the ranges `done` (sorted, disjoint, each
// a run of whole blocks: slice files on disk, of this plan or of another) are solved: each planned
// slice less the done ranges, in runs of whole blocks. A part of a planned slice holds no more
// than the slice (fewer entries, fewer children's blocks), so it fits the plan too.
template <LoopyTierSpace S>
std::vector<LoopySlice> loopy_slices_left(const S& space, int t,
                                          std::span<const LoopySlice> planned,
                                          std::span<const IndexRange> done) {
  std::vector<LoopySlice> left;
  const auto block = [&](std::uint64_t entry) { return *loopy_block_at(space, t, entry); };
  std::size_t d = 0;
  for (const LoopySlice& s : planned)
    for (std::uint64_t at = s.entries.begin; at < s.entries.end;) {
      while (d < done.size() && done[d].end <= at) ++d;
      if (d < done.size() && done[d].begin <= at) {
        at = std::min(done[d].end, s.entries.end);
        continue;
      }
      const std::uint64_t stop =
          d < done.size() ? std::min(done[d].begin, s.entries.end) : s.entries.end;
      left.push_back({block(at), block(stop), {at, stop}});
      at = stop;
    }
  return left;
}

}  // namespace tablebase
