// The tier solver's sweeps: one pass over a range of a tier's entries, in chunks, each chunk in
// parallel, every entry folding in its children from the tiers a sweep reads
// (rules/drop/solve/tier_layout.h, SOLVER.md). Three inner loops do the work:
//   sweep_range   DTEs: the children of a few entries located and prefetched, then folded;
//   fold_in_order DTEs, a group fold of a tier whose children span gigabytes: the children of a
//                 window of entries read in address order (address_ordered_reads.h);
//   sweep_values  value-only: an entry is a win once a child is a loss.
// A team member's sweep (tier_team_fetch.h) hands in the round of children fetched from the
// other members, folded beside those it reads itself.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "solver/outcome.h"
#include "solver/parallel_for.h"
#include "solver/progress.h"
#include "tablebase/address_ordered_reads.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_memory_plan.h"
#include "tablebase/tier_progress.h"
#include "tablebase/tier_residency.h"
#include "tablebase/tier_solve_options.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_team_fetch.h"
#include "tablebase/tier_team_seat.h"

namespace tablebase {

// What a sweep computes for each entry.
enum class Sweep {
  kSolve,        // every child read now: the entry's DTE
  kSolveFolded,  // the same, starting from the deciding child kept by the group sweeps
  kFoldGroup,    // moves into the `wanted` (child) tiers only: the new deciding child
};

// An entry that has no child folded in yet; DTEs never reach it.
inline constexpr std::uint8_t kNoChild = 0xFF;
static_assert(kMaxDte < kNoChild);

template <TierSpace S>
class TierSweeps {
 public:
  TierSweeps(const S& space, const TierSolveOptions& options, TierResidency<S>& tiers,
             const TierTeamSeat& seat)
      : space_(space), options_(options), tiers_(tiers), seat_(seat) {}

  // Whether tier t's fold sweeps read their children in address order (address_ordered_reads.h),
  // with windows of options.ordered_window_bytes: a tier alone, with DTEs and children of at
  // least options.ordered_reads_from bytes.
  bool folds_in_order(int t) const {
    return seat_.alone() && !tiers_.value_only() &&
           children_memory(space_, t, false) >= options_.ordered_reads_from;
  }

  // One sweep over entries [begin, end) of tier t, reading the children in the `wanted` tiers
  // (and a team's `round` of fetched ones): in chunks, each in parallel, calling
  // after_chunk(first entry not swept) after each but the last. The progress line names the
  // sweep, where it is and the time the tier has left (tier_progress.h): a fold finishes no
  // entry, so done/total does not move. Returns whether it read the children in address order.
  template <typename AfterChunk>
  bool sweep(int t, std::uint64_t begin, std::uint64_t end, const std::vector<char>& wanted,
             Sweep kind, const SweepLabel& label, TierClock& clock, solver::Progress& progress,
             const AfterChunk& after_chunk, const FetchedRound* round = nullptr) {
    const std::uint64_t chunk = std::max<std::uint64_t>(options_.chunk_entries, 1);
    // A big tier's folds read in address order, a window a thread (make_room counted them all).
    std::optional<tbb::enumerable_thread_specific<OrderedWindow>> windows;
    if (kind == Sweep::kFoldGroup && folds_in_order(t) && keys_fit(wanted)) {
      const std::uint64_t reads = options_.ordered_window_bytes / std::max(options_.threads, 1) /
                                  AddressOrderedReads::kBytesPerRead;
      windows.emplace([reads] { return OrderedWindow(reads); });
    }
    clock.start_sweep();
    for (std::uint64_t first = begin; first < end; first += chunk) {
      const std::uint64_t last = std::min(end, first + chunk);
      show_sweep(progress, space_.tier_name(t), space_.tier_size(t), label, clock, first,
                 end - first);
      solver::parallel_for(
          tbb::blocked_range<std::uint64_t>(first, last, 1024), [&](const auto& range) {
            if (tiers_.value_only())
              sweep_values(t, range.begin(), range.end(), wanted, round);
            else if (windows)
              fold_in_order(t, range.begin(), range.end(), wanted, windows->local());
            else
              sweep_range(t, range.begin(), range.end(), wanted, kind, round);
            progress.add_to_rate(range.size());
            // Each entry is finished by exactly one pass, never by a fold.
            if (kind != Sweep::kFoldGroup) progress.advance(range.size());
          });
      clock.swept(last - first);
      if (last < end) after_chunk(last);
    }
    return windows.has_value();
  }

 private:
  // A few entries at a time: first every child of the batch is located and its byte prefetched,
  // then each entry folds its children. Children of a big tier are scattered over gigabytes, so
  // a solver that reads each child as it finds it waits on memory most of the time (two thirds
  // of it on 4x4:NBRQK's eight-piece tiers, by perf); this way the reads of a batch overlap each
  // other and the ranking of the next children.
  void sweep_range(int t, std::uint64_t begin, std::uint64_t end, const std::vector<char>& wanted,
                   Sweep kind, const FetchedRound* round) {
    constexpr std::uint64_t kBatch = 8;
    std::uint8_t* tier_bytes = tiers_.bytes(t).data();
    const HeldEntries held = tiers_.entries();
    std::vector<const std::uint8_t*> children;
    std::array<std::size_t, kBatch + 1> first_child{};
    const auto gather = [&](Location c) {
      const std::uint8_t* byte = held.byte_at(c);
      __builtin_prefetch(byte);
      children.push_back(byte);
    };
    typename S::Cursor cursor;
    for (std::uint64_t i = begin; i < end; i += kBatch) {
      const std::uint64_t n = std::min(kBatch, end - i);
      children.clear();
      for (std::uint64_t k = 0; k < n; ++k) {
        first_child[k] = children.size();
        space_.for_each_child(cursor, t, i + k, wanted, gather);
        if (round)  // a team's round: the children fetched from their owners
          for (const std::uint8_t& byte : round->of(i + k)) children.push_back(&byte);
      }
      first_child[n] = children.size();
      for (std::uint64_t k = 0; k < n; ++k) {
        solver::DteFold fold;
        if (kind != Sweep::kSolve && tier_bytes[i + k] != kNoChild) fold.add(tier_bytes[i + k]);
        for (std::size_t c = first_child[k]; c < first_child[k + 1]; ++c) fold.add(*children[c]);
        if (kind == Sweep::kFoldGroup) {
          const int child = fold.deciding_child();
          tier_bytes[i + k] = child < 0 ? kNoChild : std::uint8_t(child);
        } else {
          tier_bytes[i + k] = std::uint8_t(fold.dte());
        }
      }
    }
  }

  // A thread's window for fold_in_order: its reads, and the deciding child of each entry of it.
  struct OrderedWindow {
    explicit OrderedWindow(std::size_t reads) : reads(reads), deciding(this->reads.slots()) {}
    AddressOrderedReads reads;
    std::vector<std::uint8_t> deciding;
  };
  // Whether every wanted tier's bytes have addresses that fit the window's keys.
  bool keys_fit(const std::vector<char>& wanted) const {
    for (int c = 0; c < space_.tier_count(); ++c)
      if (wanted[c] && tiers_.held(c) &&
          !AddressOrderedReads::fits(tiers_.byte_at({c, space_.tier_size(c)})))
        return false;
    return true;
  }

  // A group fold (sweep_range's kFoldGroup) for a tier whose children span gigabytes: a window
  // of entries locates all its children first, then reads them in address order, each folded
  // into its entry's deciding child (the same fold in another order of the children).
  void fold_in_order(int t, std::uint64_t begin, std::uint64_t end, const std::vector<char>& wanted,
                     OrderedWindow& window) {
    std::uint8_t* tier_bytes = tiers_.bytes(t).data();
    const HeldEntries held = tiers_.entries();
    std::uint8_t* deciding = window.deciding.data();
    typename S::Cursor cursor;
    for (std::uint64_t i = begin; i < end;) {
      std::uint64_t n = 0;
      for (; i + n < end && !window.reads.full(n); ++n) {
        deciding[n] = tier_bytes[i + n];
        space_.for_each_child(cursor, t, i + n, wanted,
                              [&](Location c) { window.reads.add(held.byte_at(c), n); });
      }
      window.reads.read([&](std::uint64_t slot, std::uint8_t child) {
        std::uint8_t& d = deciding[slot];
        d = std::uint8_t(solver::deciding_after(d == kNoChild ? -1 : d, child));
      });
      std::copy(deciding, deciding + n, tier_bytes + i);
      i += n;
    }
  }

  // Value-only: an entry becomes a win (its bit set) when a child in the wanted tiers is a loss;
  // its moves stop at the first such child, and an entry a fold already won is skipped. Parallel
  // ranges may share a word, so each word's new bits go in with one atomic OR.
  void sweep_values(int t, std::uint64_t begin, std::uint64_t end, const std::vector<char>& wanted,
                    const FetchedRound* round) {
    std::uint64_t* words = tiers_.words(t);
    const HeldEntries held = tiers_.entries();
    std::uint64_t won = 0, word = begin >> 6;
    const auto flush = [&] {
      if (won) std::atomic_ref<std::uint64_t>(words[word]).fetch_or(won, std::memory_order_relaxed);
      won = 0;
    };
    typename S::Cursor cursor;
    for (std::uint64_t i = begin; i < end; ++i) {
      if (i >> 6 != word) {
        flush();
        word = i >> 6;
      }
      if (held.value_bit({t, i})) continue;
      bool win = false;
      if (round)  // a team's round: the children fetched from their owners
        for (const std::uint8_t value : round->of(i)) win = win || value == 0;
      if (!win)
        space_.for_each_child(cursor, t, i, wanted, [&](Location c) {
          win = !held.value_bit(c);
          return !win;
        });
      if (win) won |= std::uint64_t{1} << (i & 63);
    }
    flush();
  }

  const S& space_;
  const TierSolveOptions& options_;
  TierResidency<S>& tiers_;
  const TierTeamSeat& seat_;
};

}  // namespace tablebase
