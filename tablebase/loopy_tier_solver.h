// The loopy tier solver: every entry of a loopy tier space (loopy_tier_space.h) solved, win, draw
// or loss with its distance (loopy_value.h), in a byte an entry, with no hash map and no stored
// edges. tablebase/LOOPY.md has the design and what it measured.
//
// - Reach: when asked (count_reached or solve_reached_only), the entries play reaches from the
//   roots are marked first, tiers last to first (loopy_reach.h), so the report counts the same
//   positions as solver/cyclic_retrograde.h does.
// - Solve: tiers in order, each with its children in memory; a tier's small blocks are solved in
//   parallel, one to a thread, and its large ones one after another by all threads
//   (loopy_block.h). Every entry, or with solve_reached_only only those the reach marked (exact
//   for them: a reached entry's children are reached), the others stored as not in the row. Each
//   finished tier is written at once (loopy_tier_files.h), so a run stopped and started again skips
//   it.
// - Memory: planned before anything starts, and refused (MemoryCapError, naming what it needs)
//   when over the cap: the space's own tables, two bytes an entry of the largest small block a
//   thread and one of the largest large block, and the larger of the reach's and the solve's
//   peaks: for the reach, the bits of the tiers
//   marked and not yet finished (all of them, when nothing goes to disk); for the solve, the
//   largest tier with its children and its bits. Finished tiers the current one does not need are
//   evicted, oldest first, and read back from their files if needed again.
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <list>
#include <optional>
#include <string>
#include <vector>

#include "solver/parallel_for.h"
#include "solver/progress.h"
#include "solver/zeroed_array.h"
#include "tablebase/directory_lock.h"
#include "tablebase/loopy_block.h"
#include "tablebase/loopy_reach.h"
#include "tablebase/loopy_tier_files.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/tier_memory_plan.h"

namespace tablebase {

struct LoopySolveOptions {
  std::filesystem::path dir;  // empty: nothing written, every tier kept in memory
  std::uint64_t memory_bytes = std::uint64_t{1} << 30;
  int threads = 1;
  bool show_progress = false;
  // 12, not the tier solver's 19: on rookrace:8x8:1's largest tier (6.9e7 entries) 19 took 39.8
  // CPU s for 0.653 bits an entry, 12 took 6.8 s for 0.696 (LOOPY.md).
  int zstd_level = 12;
  bool count_reached = true;  // mark and count the positions reached from the roots
  // Solve only the entries play reaches from the roots (marked first, as count_reached does) and
  // store the others as not in the row (kLoopyNotInRow): the space's choice when unset
  // (loopy_solves_reached_only), for a space that numbers many more entries than play reaches.
  std::optional<bool> solve_reached_only;
  // Blocks of at least this many entries are solved by all threads together (loopy_block.h).
  std::uint64_t shared_block_entries = kSharedBlockEntries;
  // Unmoves when the space has them; sweeps for a space without, or to compare.
  std::optional<LoopyPredecessors> predecessors;
};

struct LoopySolveReport {
  int tiers = 0, tiers_solved = 0, tiers_resumed = 0;
  LoopyTally entries;  // every stored entry (those left out as not_in_row)
  LoopyTally reached;  // the position classes reached from the roots (with count_reached)
  std::uint64_t planned_bytes = 0, table_bytes = 0;
  double reach_seconds = 0, solve_seconds = 0;
};

template <LoopyTierSpace S>
class LoopyTierSolver {
 public:
  LoopyTierSolver(const S& space, LoopySolveOptions options)
      : space_(space),
        options_(std::move(options)),
        codes_(space.tier_count()),
        bits_(space.tier_count()) {
    predecessors_ = options_.predecessors.value_or(LoopyUnmoveSpace<S> ? LoopyPredecessors::unmoves
                                                                       : LoopyPredecessors::sweeps);
    reached_only_ = options_.solve_reached_only.value_or(loopy_solves_reached_only<S>());
    for (int t = 0; t < space.tier_count(); ++t)
      for (std::uint64_t b = 0; b < space.block_count(t); ++b) {
        const IndexRange r = space.block_range(t, b);
        std::uint64_t& largest = shared(r) ? largest_shared_ : largest_small_;
        largest = std::max(largest, r.end - r.begin);
      }
  }

  // The memory the solve needs (what run() checks against the cap).
  std::uint64_t planned_bytes() const {
    // The reach of a large block also keeps a bit an entry of it (loopy_reach.h).
    const std::uint64_t expanded = marks_reached() ? (largest_shared_ + 63) / 64 * 8 : 0;
    if (!on_disk()) {
      std::uint64_t all = fixed_bytes() + expanded;
      for (int t = 0; t < space_.tier_count(); ++t)
        all += code_bytes(t) + (marks_reached() ? bit_bytes(t) : 0);
      return all;
    }
    std::uint64_t solve = 0;
    for (int t = 0; t < space_.tier_count(); ++t) {
      std::uint64_t held = code_bytes(t) + (marks_reached() ? bit_bytes(t) : 0);
      for (int c : space_.tier_children(t)) held += code_bytes(c);
      solve = std::max(solve, held);
    }
    return fixed_bytes() + std::max(solve, marks_reached() ? reach_peak() + expanded : 0);
  }

  LoopySolveReport run() {
    LoopySolveReport report;
    report.tiers = space_.tier_count();
    report.planned_bytes = planned_bytes();
    if (report.planned_bytes > options_.memory_bytes)
      throw over_memory_cap(space_.variant_name(), report.planned_bytes, options_.memory_bytes);
    std::optional<DirectoryLock> lock;
    if (on_disk()) {
      std::filesystem::create_directories(options_.dir);
      lock.emplace(options_.dir);
    }
    tbb::task_arena arena(std::max(1, options_.threads));
    arena.execute([&] {
      const auto start = std::chrono::steady_clock::now();
      if (marks_reached()) reach();
      const auto reached = std::chrono::steady_clock::now();
      solve_all(report);
      report.reach_seconds = std::chrono::duration<double>(reached - start).count();
      report.solve_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - reached).count();
    });
    return report;
  }

  // After an in-memory run: the code at a location, and whether play reaches it.
  // (kLoopyNotInRow for one left out: loopy_class_code reads a twin's).
  LoopyCode code(Location at) const {
    return reached_only_ && !reached(at) ? kLoopyNotInRow : codes_[at.tier][at.index];
  }
  bool reached(Location at) const { return reached_bit(bits_[at.tier].data(), at.index); }

 private:
  bool on_disk() const { return !options_.dir.empty(); }
  bool marks_reached() const { return options_.count_reached || reached_only_; }
  // Tier t's reached bits when its unreached entries are left out (their codes then mean
  // nothing: loopy_block.h), else nullptr.
  const std::uint64_t* left_out(int t) const { return reached_only_ ? bits_[t].data() : nullptr; }
  // What the plan holds besides tiers: the space, each thread's block scratch, the I/O buffers.
  std::uint64_t fixed_bytes() const {
    const auto threads = std::uint64_t(std::max(1, options_.threads));
    return space_.memory_bytes() + 2 * threads * largest_small_ + largest_shared_ +
           (on_disk() ? kIoBufferBytes : 0);
  }
  LoopyTableName table_name(int t) const {
    return {options_.dir, space_.variant_name(), space_.index_scheme(), space_.tier_name(t)};
  }
  std::uint64_t code_bytes(int t) const { return solver::mapped_bytes(space_.tier_size(t)); }
  std::uint64_t bit_words(int t) const { return (space_.tier_size(t) + 63) / 64; }
  std::uint64_t bit_bytes(int t) const { return solver::mapped_bytes(bit_words(t) * 8); }

  // The most bits held at once by the reach on disk: tiers from the roots' down, each tier's
  // bits taken when a parent (or a root) first marks it and given back once it is spread.
  std::uint64_t reach_peak() const {
    std::vector<char> held(space_.tier_count(), 0);
    std::uint64_t now = 0, most = 0;
    const auto take = [&](int t) {
      if (!held[t]) now += bit_bytes(t);
      held[t] = 1;
    };
    for (const LocationRange& r : space_.roots()) take(r.tier);
    for (int t = space_.tier_count() - 1; t >= 0; --t) {
      if (!held[t]) continue;  // nothing reaches it
      for (int c : space_.tier_children(t)) take(c);
      most = std::max(most, now);
      now -= bit_bytes(t);
      held[t] = 0;
    }
    return most;
  }

  // --- reach ---
  void reach() {
    const int n = space_.tier_count();
    bool all_on_disk = on_disk();
    for (int t = 0; all_on_disk && t < n; ++t)
      all_on_disk = loopy_reached_present(table_name(t), space_.tier_size(t));
    if (all_on_disk) return;  // a run before this one marked them: read tier by tier when solved
    std::uint64_t total = 0;
    for (int t = 0; t < n; ++t) total += space_.tier_size(t);
    solver::Progress progress("reach " + space_.variant_name(), total, "positions",
                              options_.show_progress);
    std::vector<std::uint64_t*> words(n, nullptr);
    const auto hold = [&](int t) {
      if (bits_[t].empty()) bits_[t] = solver::ZeroedArray<std::uint64_t>(bit_words(t));
      words[t] = bits_[t].data();
    };
    for (const LocationRange& r : space_.roots()) {
      hold(r.tier);
      for (std::uint64_t i = r.range.begin; i < r.range.end; ++i) mark_reached(words[r.tier], i);
    }
    for (int t = n - 1; t >= 0; --t) {
      if (!bits_[t].empty()) {
        progress.set_stage(space_.tier_name(t));
        for (int c : space_.tier_children(t)) hold(c);
        spread_reached(space_, t, words, options_.shared_block_entries, &progress);
      } else {
        hold(t);  // nothing reaches it: its bits are all 0, and say so on disk too
        progress.advance(space_.tier_size(t));
      }
      if (!on_disk()) continue;
      if (!loopy_reached_present(table_name(t), space_.tier_size(t)))
        write_loopy_reached(table_name(t), bits_[t], space_.tier_size(t), options_.zstd_level);
      bits_[t] = {};
      words[t] = nullptr;
    }
  }

  // --- solve ---
  void solve_all(LoopySolveReport& report) {
    std::uint64_t total = 0;
    for (int t = 0; t < space_.tier_count(); ++t) total += space_.tier_size(t);
    solver::Progress progress("solve " + space_.variant_name(), total, "positions",
                              options_.show_progress);
    for (int t = 0; t < space_.tier_count(); ++t) {
      progress.set_stage(space_.tier_name(t));
      const bool present = on_disk() && loopy_tier_present(table_name(t), space_.tier_size(t));
      make_room(t, present ? std::vector<int>{} : space_.tier_children(t));
      if (marks_reached() && on_disk()) {
        bits_[t] = solver::ZeroedArray<std::uint64_t>(bit_words(t));
        read_loopy_reached(table_name(t), bits_[t], space_.tier_size(t));
      }
      if (present) {
        ++report.tiers_resumed;
        load(t);
        progress.advance(space_.tier_size(t));
      } else {
        for (int c : space_.tier_children(t)) load(c);
        codes_[t] = solver::ZeroedArray<LoopyCode>(space_.tier_size(t));
        solve_tier(t, progress);
        ++report.tiers_solved;
        if (on_disk()) write_loopy_tier(table_name(t), codes_[t], options_.zstd_level, left_out(t));
      }
      touch(t);
      const LoopyCode* codes = codes_[t].data();
      report.entries.add(tally_entries(codes, space_.tier_size(t), left_out(t)));
      if (marks_reached()) {
        report.reached.add(tally_reached(space_, t, codes, bits_[t].data()));
        if (on_disk()) bits_[t] = {};
      }
      if (on_disk())
        report.table_bytes += std::filesystem::file_size(loopy_wdl_path(table_name(t)));
    }
  }

  // Small blocks one to a thread, in parallel; large ones one after another, each by all threads.
  void solve_tier(int t, solver::Progress& progress) {
    std::vector<const LoopyCode*> tiers(space_.tier_count(), nullptr);
    tiers[t] = codes_[t].data();
    const std::uint64_t* reached = left_out(t);
    for (int c : space_.tier_children(t)) tiers[c] = codes_[c].data();
    struct Scratch {
      LoopyBlockScratch block;
      LoopyWorker<S> worker;
    };
    tbb::enumerable_thread_specific<Scratch> scratch;
    solver::parallel_for(std::uint64_t{0}, space_.block_count(t), [&](std::uint64_t b) {
      const IndexRange block = space_.block_range(t, b);
      if (shared(block)) return;
      Scratch& s = scratch.local();
      solve_loopy_block(space_, t, block, tiers, reached, predecessors_, s.block, s.worker);
      progress.advance(block.end - block.begin);
      progress.add_to_rate(block.end - block.begin);
    });
    for (std::uint64_t b = 0; b < space_.block_count(t); ++b) {
      const IndexRange block = space_.block_range(t, b);
      if (!shared(block)) continue;
      solve_shared_loopy_block(space_, t, block, tiers, reached, predecessors_, shared_scratch_);
      progress.advance(block.end - block.begin);
      progress.add_to_rate(block.end - block.begin);
    }
  }
  bool shared(IndexRange block) const {
    return block.end - block.begin >= options_.shared_block_entries;
  }

  // --- residency (on disk only: in memory every tier stays) ---
  void load(int t) {
    if (!codes_[t].empty()) return;
    codes_[t] = solver::ZeroedArray<LoopyCode>(space_.tier_size(t));
    read_loopy_tier(table_name(t), codes_[t]);
  }
  void touch(int t) {
    resident_.remove(t);
    resident_.push_back(t);
  }
  // Evicts tiers other than t and `needed`, least recently used first, until t (with its bits)
  // and `needed` fit the cap beside the plan's fixed part.
  void make_room(int t, const std::vector<int>& needed) {
    if (!on_disk()) return;
    std::vector<char> keep(space_.tier_count(), 0);
    keep[t] = 1;
    std::uint64_t held = code_bytes(t) + (marks_reached() ? bit_bytes(t) : 0);
    for (int c : needed) {
      keep[c] = 1;
      held += code_bytes(c);
    }
    for (int r : resident_)
      if (!keep[r]) held += code_bytes(r);
    for (auto it = resident_.begin();
         it != resident_.end() && fixed_bytes() + held > options_.memory_bytes;) {
      if (keep[*it]) {
        ++it;
        continue;
      }
      held -= code_bytes(*it);
      codes_[*it] = {};
      it = resident_.erase(it);
    }
  }

  const S& space_;
  LoopySolveOptions options_;
  LoopyPredecessors predecessors_;
  bool reached_only_ = false;
  std::uint64_t largest_small_ = 0, largest_shared_ = 0;  // the largest blocks of each kind
  LoopyBlockScratch shared_scratch_;                      // for the large blocks
  std::vector<solver::ZeroedArray<LoopyCode>> codes_;     // per tier, empty when not held
  std::vector<solver::ZeroedArray<std::uint64_t>> bits_;  // per tier, the reached bits
  std::list<int> resident_;                               // tiers held, least recently used first
};

}  // namespace tablebase
