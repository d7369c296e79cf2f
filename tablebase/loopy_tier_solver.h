// The loopy tier solver: every entry of a loopy tier space (loopy_tier_space.h) solved, win, draw
// or loss with its distance (loopy_value.h), in a byte an entry, with no hash map and no stored
// edges. tablebase/LOOPY.md has the design and what it measured.
//
// - Reach: when asked (count_reached or solve_reached_only), the entries play reaches from the
//   roots are marked first, tiers last to first (loopy_reach.h), so the report counts the same
//   positions as solver/cyclic_retrograde.h does. On disk, each tier's marks are written when it
//   is done, and what is marked so far at checkpoints, so a stopped run resumes the reach.
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
//   largest tier with its children and its bits, or, on disk, for a tier that does not fit so,
//   a slice of its blocks at a time with its children or the parts of them the slice needs
//   (loopy_slices.h), each slice written as it finishes so that a stopped run resumes at the
//   next unfinished slice; on disk, a slice is no longer than slice_entries either (a tier
//   longer is sliced even where it fits whole), which bounds what a stopped run loses. Finished
//   tiers the current one does not need are evicted, oldest
//   first, and read back from their files if needed again.
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <list>
#include <optional>
#include <string>
#include <vector>

#include "solver/parallel_for.h"
#include "solver/process_resources.h"
#include "solver/progress.h"
#include "solver/zeroed_array.h"
#include "tablebase/directory_lock.h"
#include "tablebase/loopy_block.h"
#include "tablebase/loopy_reach.h"
#include "tablebase/loopy_slices.h"
#include "tablebase/loopy_tier_files.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/tier_files.h"  // copy_table_blocks
#include "tablebase/tier_memory_plan.h"

namespace tablebase {

struct LoopySolveOptions {
  std::filesystem::path dir;  // empty: nothing written, every tier kept in memory
  std::uint64_t memory_bytes = std::uint64_t{1} << 30;
  int threads = 1;
  bool show_progress = false;
  // 8, not the tier solver's 19: once the solve itself was fast, compressing at 12 took a third
  // of rookrace:8x8:1's CPU for 12% smaller files (LOOPY.md, "Compression").
  int zstd_level = 8;
  bool count_reached = true;  // mark and count the positions reached from the roots
  // Solve only the entries play reaches from the roots (marked first, as count_reached does) and
  // store the others as not in the row (kLoopyNotInRow): the space's choice when unset
  // (loopy_solves_reached_only), for a space that numbers many more entries than play reaches.
  std::optional<bool> solve_reached_only;
  // Blocks of at least this many entries are solved by all threads together (loopy_block.h).
  std::uint64_t shared_block_entries = kSharedBlockEntries;
  // Unmoves when the space has them and does not prefer sweeps (loopy_prefers_sweeps); else
  // loss_unmoves when it names its parents by class (LoopyParentCopySpace); sweeps for a space
  // with neither, or to compare.
  std::optional<LoopyPredecessors> predecessors;
  // On disk, a tier longer than this many entries is solved a slice at a time even when it fits
  // memory whole, and no slice is longer (but for a single block): a slice being the unit a
  // stopped run resumes at, this bounds the work it loses (loopy_slices.h; by default about
  // kLoopySliceCpuMinutes of CPU).
  std::uint64_t slice_entries = loopy_slice_entries(kLoopySliceCpuMinutes);
  // For tests of resuming: the run stops (LoopySolveReport::stopped) once it has written this
  // many slices of sliced tiers (0: never), as a run killed there would.
  std::uint64_t stop_after_slices = 0;
  // The reach on disk writes what it has marked (NAME.marks, loopy_tier_files.h) after each tier
  // and, inside a tier, after a run of blocks of about reach_run_entries entries once this long
  // has passed since its last write: a stopped reach loses at most about that much work (with a
  // run of blocks and a write). A run of blocks is what the threads share between two checks.
  double reach_checkpoint_seconds = 600;
  std::uint64_t reach_run_entries = std::uint64_t{1} << 26;
  // For tests of resuming: the run stops (LoopySolveReport::stopped) once the reach has written
  // its marks this many times (0: never).
  std::uint64_t stop_after_reach_checkpoints = 0;
};

struct LoopySolveReport {
  int tiers = 0, tiers_solved = 0, tiers_resumed = 0;
  std::uint64_t slices_solved = 0, slices_resumed = 0;  // of tiers solved a slice at a time
  // The reach's: tiers found done on disk, blocks of a tier found spread in its NAME.marks, and
  // the times it wrote its marks.
  int reach_tiers_resumed = 0;
  std::uint64_t reach_blocks_resumed = 0, reach_checkpoints = 0;
  bool stopped = false;  // by LoopySolveOptions::stop_after_slices or stop_after_reach_checkpoints
  LoopyTally entries;    // every stored entry (those left out as not_in_row)
  LoopyTally reached;    // the position classes reached from the roots (with count_reached)
  std::uint64_t planned_bytes = 0, table_bytes = 0;
  double reach_seconds = 0, solve_seconds = 0;  // wall
  // The process's CPU seconds (every thread's), in the reach and in the solve, and the most one
  // slice solved in this run took: what a stopped run loses at most, against what
  // LoopySolveOptions::slice_entries aims at.
  double reach_cpu_seconds = 0, solve_cpu_seconds = 0, longest_slice_cpu_seconds = 0;

  // What another report's tiers add (a rank's tier of an MPI solve): their counts, files, slices
  // and solve CPU.
  void add_tiers(const LoopySolveReport& o) {
    tiers_solved += o.tiers_solved;
    tiers_resumed += o.tiers_resumed;
    slices_solved += o.slices_solved;
    slices_resumed += o.slices_resumed;
    entries.add(o.entries);
    reached.add(o.reached);
    table_bytes += o.table_bytes;
    solve_cpu_seconds += o.solve_cpu_seconds;
    longest_slice_cpu_seconds = std::max(longest_slice_cpu_seconds, o.longest_slice_cpu_seconds);
  }

  // The wall and CPU seconds of a run begun at `start` (`start_cpu`: solver::cpu_seconds()) whose
  // reach ended at `reached` (`reached_cpu`) and whose solve ends now.
  void time(std::chrono::steady_clock::time_point start, double start_cpu,
            std::chrono::steady_clock::time_point reached, double reached_cpu) {
    reach_seconds = std::chrono::duration<double>(reached - start).count();
    solve_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - reached).count();
    reach_cpu_seconds = reached_cpu - start_cpu;
    solve_cpu_seconds = solver::cpu_seconds() - reached_cpu;
  }
};

template <LoopyTierSpace S>
class LoopyTierSolver {
 public:
  LoopyTierSolver(const S& space, LoopySolveOptions options)
      : space_(space),
        options_(std::move(options)),
        codes_(space.tier_count()),
        bits_(space.tier_count()),
        parts_(space.tier_count()) {
    predecessors_ = options_.predecessors.value_or(
        LoopyUnmoveSpace<S> && !loopy_prefers_sweeps<S>() ? LoopyPredecessors::unmoves
        : LoopyParentCopySpace<S>                         ? LoopyPredecessors::loss_unmoves
                                                          : LoopyPredecessors::sweeps);
    reached_only_ = options_.solve_reached_only.value_or(loopy_solves_reached_only<S>());
    for (int t = 0; t < space.tier_count(); ++t)
      for (std::uint64_t b = 0; b < space.block_count(t); ++b) {
        const IndexRange r = space.block_range(t, b);
        std::uint64_t& largest = shared(r) ? largest_shared_ : largest_small_;
        largest = std::max(largest, r.end - r.begin);
      }
    if (on_disk()) {
      // What fixed_bytes leaves of the cap; a cap below it is refused by planned_bytes.
      const std::uint64_t budget =
          options_.memory_bytes - std::min(options_.memory_bytes, fixed_bytes());
      for (int t = 0; t < space.tier_count(); ++t)
        plans_.push_back(
            plan_loopy_tier(space, t, budget, marks_reached(), options_.slice_entries));
    }
  }

  // What the plan holds besides tiers: the space, each thread's block scratch (counters and
  // out_max, which only unmoves keep: loopy_block.h) and slack (the caller's thread too), the I/O
  // buffers.
  std::uint64_t fixed_bytes() const {
    const auto threads = std::uint64_t(std::max(1, options_.threads));
    const std::uint64_t scratch = predecessors_ == LoopyPredecessors::unmoves
                                      ? 2 * threads * largest_small_ + largest_shared_
                                      : 0;
    return space_.memory_bytes() + scratch + (threads + 1) * kThreadSlackBytes +
           (on_disk() ? loopy_io_bytes(largest_tier(space_), int(threads)) : 0);
  }
  // How each tier is solved (on disk; in memory every tier is whole and stays).
  const std::vector<LoopyTierPlan>& tier_plans() const { return plans_; }
  // The most the reach holds at once (the bits of the tiers marked and not yet spread, and those
  // of a large block's entries expanded, loopy_reach.h).
  std::uint64_t reach_bytes() const {
    if (!marks_reached()) return 0;
    return (on_disk() ? reach_peak() : 0) + (largest_shared_ + 63) / 64 * 8;
  }

  // The memory the solve needs (what run() checks against the cap).
  std::uint64_t planned_bytes() const {
    if (!on_disk()) {
      std::uint64_t all = fixed_bytes() + reach_bytes();
      for (int t = 0; t < space_.tier_count(); ++t)
        all += code_bytes(t) + (marks_reached() ? bit_bytes(t) : 0);
      return all;
    }
    std::uint64_t solve = 0;
    for (const LoopyTierPlan& p : plans_) solve = std::max(solve, p.peak_bytes);
    return fixed_bytes() + std::max(solve, reach_bytes());
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
      const double start_cpu = solver::cpu_seconds();
      if (marks_reached() && !reach(report)) {
        report.stopped = true;
        return;
      }
      const auto reached = std::chrono::steady_clock::now();
      const double reached_cpu = solver::cpu_seconds();
      solve_all(report);
      report.time(start, start_cpu, reached, reached_cpu);
    });
    return report;
  }

  // run()'s two parts apart, for the ranks of an MPI solve (mpi/mpi_loopy_solver.h): rank 0 marks
  // what the roots reach before any tier is handed out, and a rank solves each tier it gets. On
  // disk only; neither checks the plan against the cap nor takes the directory's lock, which the
  // caller does. reach_tiers is false when stopped (stop_after_reach_checkpoints).
  bool reach_tiers(LoopySolveReport& report) {
    bool reached = true;
    if (marks_reached())
      tbb::task_arena(std::max(1, options_.threads)).execute([&] { reached = reach(report); });
    return reached;
  }
  // Tier t, every child of it finished on disk: solved and written, or found there; its counts
  // and file added to the report (with no progress line: the caller keeps the run's). False when
  // stopped (stop_after_slices).
  bool solve_tier(int t, LoopySolveReport& report) {
    solver::Progress quiet(space_.tier_name(t), space_.tier_size(t), "positions", false);
    bool solved = true;
    tbb::task_arena(std::max(1, options_.threads)).execute([&] {
      solved = solve_one(t, report, quiet);
    });
    return solved;
  }

  // After an in-memory run: the code at a location, and whether play reaches it.
  // (kLoopyNotInRow for one left out: loopy_class_code reads a twin's).
  LoopyCode code(Location at) const {
    return reached_only_ && !reached(at) ? kLoopyNotInRow : codes_[at.tier][at.index];
  }
  bool reached(Location at) const { return reached_bit(bits_[at.tier].data(), at.index); }

 private:
  // The marks a stopped reach resumes from are rewritten at each checkpoint and removed once a
  // tier is done: written fast rather than small.
  static constexpr int kMarksZstdLevel = 1;
  // A slice's file is read once, by the merge, which compresses its records again at the
  // tables' level: written fast rather than small too.
  static constexpr int kSliceZstdLevel = 1;

  bool on_disk() const { return !options_.dir.empty(); }
  // Whether the reach runs: for the counts, or for a solve of the reached entries only, which
  // holds a tier's reached bits while it solves it (the plan counts them either way).
  bool marks_reached() const { return options_.count_reached || reached_only_; }
  // Tier t's reached bits when its unreached entries are left out (their codes then mean
  // nothing: loopy_block.h), else nullptr. For a tier solved a slice at a time, the bits of the
  // slice being solved or counted only.
  const std::uint64_t* left_out(int t) const { return reached_only_ ? bits_[t].data() : nullptr; }
  LoopyTableName table_name(int t) const {
    return {options_.dir, space_.variant_name(), space_.index_scheme(), space_.tier_name(t)};
  }
  std::uint64_t code_bytes(int t) const { return loopy_code_bytes(space_, t); }
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
  // Tiers last to first, each spread a run of blocks at a time (loopy_reach.h). On disk, the last
  // tiers whose NAME.reached is there are done, and what the others had marked is read back from
  // their NAME.marks when their bits are first taken, as a run not stopped takes them. The marks
  // are written at checkpoints: after a tier, its children's and then its NAME.reached; inside a
  // tier (reach_checkpoint_seconds), its children's and then its own with the blocks spread. The
  // children's first: a file read back may be newer than the others, holding more marks, never
  // fewer than the blocks counted spread put there, and every mark is of a reached entry, so a
  // resume from any mix of them comes to the same bits. False when stopped by
  // stop_after_reach_checkpoints.
  bool reach(LoopySolveReport& report) {
    const int n = space_.tier_count();
    std::uint64_t total = 0;
    for (int t = 0; t < n; ++t) total += space_.tier_size(t);
    solver::Progress progress("reach " + space_.variant_name(), total, "positions",
                              options_.show_progress);
    int top = n - 1;
    for (; on_disk() && top >= 0 && loopy_reached_present(table_name(top), space_.tier_size(top));
         --top) {
      remove_loopy_marks(table_name(top));  // of a run stopped between the writes
      ++report.reach_tiers_resumed;
      progress.advance(space_.tier_size(top));
    }
    refuse_lost_marks(top);
    std::vector<std::uint64_t*> words(n, nullptr);
    std::vector<std::uint64_t> spread(n, 0);  // each tier's blocks spread, from its NAME.marks
    const auto hold = [&](int t) {
      if (!bits_[t].empty()) return;
      bits_[t] = solver::ZeroedArray<std::uint64_t>(bit_words(t));
      words[t] = bits_[t].data();
      if (on_disk())
        spread[t] =
            read_loopy_marks(table_name(t), bits_[t], space_.tier_size(t), space_.block_count(t))
                .value_or(0);
    };
    for (const LocationRange& r : space_.roots()) {
      if (r.tier > top) continue;
      hold(r.tier);
      for (std::uint64_t i = r.range.begin; i < r.range.end; ++i) mark_reached(words[r.tier], i);
    }
    auto last_write = std::chrono::steady_clock::now();
    // Writes the marks of t's children, then, unless t is done, t's own with `done` blocks
    // spread; false when the run is to stop here.
    const auto checkpoint = [&](int t, std::optional<std::uint64_t> done) {
      for (int c : space_.tier_children(t))
        write_loopy_marks(table_name(c), bits_[c], space_.tier_size(c), 0, kMarksZstdLevel);
      if (done)
        write_loopy_marks(table_name(t), bits_[t], space_.tier_size(t), *done, kMarksZstdLevel);
      last_write = std::chrono::steady_clock::now();
      return ++report.reach_checkpoints != options_.stop_after_reach_checkpoints;
    };
    for (int t = top; t >= 0; --t) {
      const LoopyTableName name = table_name(t);
      const std::uint64_t blocks = space_.block_count(t);
      // Reached when a root or a parent marked it (in this run, or in one before: its marks).
      const bool marked =
          !bits_[t].empty() || (on_disk() && std::filesystem::exists(loopy_marks_path(name)));
      hold(t);
      if (marked) {
        progress.set_stage(space_.tier_name(t));
        for (int c : space_.tier_children(t)) hold(c);
        if (spread[t] > 0) {
          report.reach_blocks_resumed += spread[t];
          progress.advance(space_.block_range(t, spread[t] - 1).end);
        }
        for (std::uint64_t b = spread[t]; b < blocks;) {
          std::uint64_t end = b, entries = 0;
          while (end < blocks && entries < options_.reach_run_entries) {
            const IndexRange r = space_.block_range(t, end++);
            entries += r.end - r.begin;
          }
          spread_reached(space_, t, words, options_.shared_block_entries, &progress, b, end);
          b = end;
          const std::chrono::duration<double> since = std::chrono::steady_clock::now() - last_write;
          if (on_disk() && b < blocks && since.count() >= options_.reach_checkpoint_seconds &&
              !checkpoint(t, b))
            return false;
        }
      } else {
        progress.advance(space_.tier_size(t));  // nothing reaches it: its bits are all 0
      }
      if (!on_disk()) continue;
      const bool go_on = !marked || checkpoint(t, std::nullopt);
      if (!loopy_reached_present(name, space_.tier_size(t)))
        write_loopy_reached(name, bits_[t], space_.tier_size(t), options_.zstd_level);
      remove_loopy_marks(name);
      bits_[t] = {};
      words[t] = nullptr;
      if (!go_on) return false;
    }
    return true;
  }

  // A tier done on disk above `top` wrote its children's marks before its NAME.reached, unless
  // it reached nothing; a child without them (NAME.reached written by a build whose reach did not
  // resume) would be taken for unreached, so the run is refused instead.
  void refuse_lost_marks(int top) const {
    for (int t = top + 1; t < space_.tier_count(); ++t)
      for (int c : space_.tier_children(t)) {
        if (c > top || std::filesystem::exists(loopy_marks_path(table_name(c)))) continue;
        TableReader done = open_loopy_reached(table_name(t), space_.tier_size(t));
        std::atomic<bool> any{false};
        done.for_each_block([&](std::uint64_t, std::span<const std::uint64_t> words) {
          if (std::any_of(words.begin(), words.end(), [](std::uint64_t w) { return w != 0; }))
            any.store(true, std::memory_order_relaxed);
        });
        if (any.load())
          throw TableError(loopy_reached_path(table_name(t)),
                           "is a reached tier, but its child " + space_.tier_name(c) +
                               " has no marks on disk to resume the reach from (a build before "
                               "the reach resumed?): move the .reached files aside and run again");
      }
  }

  // --- solve ---
  void solve_all(LoopySolveReport& report) {
    std::uint64_t total = 0;
    for (int t = 0; t < space_.tier_count(); ++t) total += space_.tier_size(t);
    solver::Progress progress("solve " + space_.variant_name(), total, "positions",
                              options_.show_progress);
    for (int t = 0; t < space_.tier_count(); ++t)
      if (!solve_one(t, report, progress)) return;
  }

  // Tier t, its children solved: found on disk, or solved (whole, or a slice at a time) and
  // written; its counts and file added to the report. False when stopped by stop_after_slices.
  bool solve_one(int t, LoopySolveReport& report, solver::Progress& progress) {
    progress.set_stage(space_.tier_name(t));
    if (on_disk() && plans_[t].sliced()) return solve_sliced(t, report, progress);
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
      codes_[t] = solver::ZeroedArray<LoopyCode>(space_.tier_size(t));
      if (loopy_tier_without_moves(space_, t)) {
        progress.advance(space_.tier_size(t));  // every entry lost in 0: the zeros say so
      } else {
        for (int c : space_.tier_children(t)) load(c);
        solve_blocks(t, 0, space_.block_count(t), tier_codes(t), progress);
      }
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
    if (on_disk()) report.table_bytes += std::filesystem::file_size(loopy_wdl_path(table_name(t)));
    return true;
  }

  // Where the block solve finds tier t's codes and its children's.
  std::vector<const LoopyCode*> tier_codes(int t) const {
    std::vector<const LoopyCode*> tiers(space_.tier_count(), nullptr);
    tiers[t] = codes_[t].data();
    for (int c : space_.tier_children(t))
      tiers[c] = codes_[c].empty() ? parts_[c].data() : codes_[c].data();
    return tiers;
  }

  // Tier t a slice at a time (plans_[t]): each slice solved unless its file is there, then
  // written; the slices then merged into the tier's file, and its counts taken a slice at a time.
  // The slice files on disk are taken as they are, whatever plan made them (a run resumed with
  // another --memory, --threads or slice length): what the plan's slices leave of them is solved,
  // in parts of the plan's slices, and the files no merge needs (overlapping ones kept) removed.
  // The reached bits are read a slice at a time too, into a sparse bits_[t]: the slice's, for a
  // solve of the reached entries only, while it is solved and written, and for the counts.
  // False when stopped by stop_after_slices.
  bool solve_sliced(int t, LoopySolveReport& report, solver::Progress& progress) {
    const LoopyTierPlan& plan = plans_[t];
    const LoopyTableName name = table_name(t);
    make_room(-1, plan.children_whole ? space_.tier_children(t) : std::vector<int>{},
              plan.peak_bytes);
    std::optional<TableReader> reached;
    if (marks_reached()) {
      reached.emplace(open_loopy_reached(name, space_.tier_size(t)));
      bits_[t] = solver::ZeroedArray<std::uint64_t>::sparse(bit_words(t));
    }
    // Slice s's bits into bits_[t], the slice before's given back.
    const auto read_bits = [&](const LoopySlice& s) {
      if (!reached) return;
      bits_[t].discard(0, bits_[t].size() * 8);
      copy_table_blocks(*reached, 1, bits_[t], std::span<const IndexRange>(&s.entries, 1));
    };
    const std::vector<IndexRange> found = loopy_slices_on_disk(name);
    // The counts are taken as each slice is solved, while its codes are in memory; a tier this
    // run did not solve every slice of is counted from its file, a slice at a time.
    bool counted = false;
    if (loopy_tier_present(name, space_.tier_size(t))) {
      ++report.tiers_resumed;
      progress.advance(space_.tier_size(t));
      // A run stopped between the merge and the removal of the slices it merged.
      for (const IndexRange& r : found) std::filesystem::remove(loopy_slice_path(name, r));
    } else {
      const std::vector<IndexRange> done = slices_done(t, found);
      codes_[t] = solver::ZeroedArray<LoopyCode>::sparse(space_.tier_size(t));
      for (int c : space_.tier_children(t)) {
        if (plan.children_whole)
          load(c);
        else if (codes_[c].empty())
          parts_[c] = solver::ZeroedArray<LoopyCode>::sparse(space_.tier_size(c));
      }
      for (const IndexRange& r : done) progress.advance(r.end - r.begin);
      report.slices_resumed += done.size();
      counted = done.empty();
      const std::vector<const LoopyCode*> tiers = tier_codes(t);
      std::vector<IndexRange> merged = done;
      const std::vector<LoopySlice> left = loopy_slices_left(space_, t, plan.slices, done);
      for (const LoopySlice& s : left) {
        progress.set_stage(space_.tier_name(t) + ", slice " + std::to_string(merged.size() + 1) +
                           " of " + std::to_string(done.size() + left.size()));
        const std::uint64_t n = s.entries.end - s.entries.begin;
        const double slice_cpu = solver::cpu_seconds();
        if (!plan.children_whole) read_child_parts(t, s);
        read_bits(s);
        solve_blocks(t, s.first_block, s.end_block, tiers, progress);
        write_loopy_slice(name, s.entries, {codes_[t].data() + s.entries.begin, n}, kSliceZstdLevel,
                          left_out(t));
        if (counted) tally_slice(t, codes_[t].data(), s, report);
        merged.push_back(s.entries);
        report.longest_slice_cpu_seconds =
            std::max(report.longest_slice_cpu_seconds, solver::cpu_seconds() - slice_cpu);
        // Every page the slice touched: the next slice's entries on a page it shares are still
        // the fresh zeros a slice starts from.
        codes_[t].discard(s.entries.begin / 4096 * 4096, (s.entries.end + 4095) / 4096 * 4096);
        for (auto& p : parts_) p.discard(0, p.size());
        ++report.slices_solved;
        if (options_.stop_after_slices && report.slices_solved >= options_.stop_after_slices) {
          report.stopped = true;
          return false;
        }
      }
      codes_[t] = {};
      for (auto& p : parts_) p = {};
      std::sort(merged.begin(), merged.end(),
                [](IndexRange a, IndexRange b) { return a.begin < b.begin; });
      progress.set_stage(space_.tier_name(t) + ", merging its slices");
      merge_loopy_slices(name, space_.tier_size(t), merged, options_.zstd_level);
      for (const IndexRange& r : found) std::filesystem::remove(loopy_slice_path(name, r));
      ++report.tiers_solved;
    }
    if (!counted) {
      auto codes = solver::ZeroedArray<LoopyCode>::sparse(space_.tier_size(t));
      for (const LoopySlice& s : plan.slices) {
        read_loopy_tier(name, codes, std::span<const IndexRange>(&s.entries, 1));
        read_bits(s);
        tally_slice(t, codes.data(), s, report);
        codes.discard(0, codes.size());
      }
    }
    bits_[t] = {};
    report.table_bytes += std::filesystem::file_size(loopy_wdl_path(name));
    return true;
  }

  // Slice s of tier t counted from `codes` (the tier's, by index) and bits_[t] (the slice's
  // reached bits, when the reach ran).
  void tally_slice(int t, const LoopyCode* codes, const LoopySlice& s, LoopySolveReport& report) {
    report.entries.add(tally_entries(codes, s.entries.end, left_out(t), s.entries.begin));
    if (marks_reached())
      report.reached.add(
          tally_reached(space_, t, codes, bits_[t].data(), s.first_block, s.end_block));
  }

  // Of tier t's slice files on disk (`found`, loopy_slices_on_disk), those the solve takes as
  // solved: each checked (a damaged or foreign one refused by name), one not a run of whole blocks
  // of the tier refused, and of those that overlap (left by runs of different plans) the first
  // kept. Sorted and disjoint: any one of them holds the same codes for its entries, as a block's
  // codes depend on the block and its children alone.
  std::vector<IndexRange> slices_done(int t, const std::vector<IndexRange>& found) const {
    const LoopyTableName name = table_name(t);
    std::vector<IndexRange> done;
    for (const IndexRange& r : found) {
      if (r.end > space_.tier_size(t) || !loopy_block_at(space_, t, r.begin) ||
          !loopy_block_at(space_, t, r.end))
        throw TableError(loopy_slice_path(name, r),
                         "is not a run of whole blocks of tier " + name.tier + " (" +
                             std::to_string(space_.tier_size(t)) +
                             " entries): not a slice this space makes; move it aside");
      if ((done.empty() || r.begin >= done.back().end) && loopy_slice_present(name, r))
        done.push_back(r);
    }
    return done;
  }

  // The parts of tier t's children that slice s leads to, read from their files into parts_.
  void read_child_parts(int t, const LoopySlice& s) {
    if constexpr (LoopyChildBlockSpace<S>) {
      const auto ranges = loopy_child_ranges(space_, t, s.first_block, s.end_block);
      for (int c : space_.tier_children(t))
        if (!parts_[c].empty() && !loopy_tier_without_moves(space_, c))
          read_loopy_tier(table_name(c), parts_[c], ranges[c]);
    }
  }

  // Blocks [first, end) of tier t, into tiers[t] (its children's codes at tiers[c]): small ones
  // one to a thread, in parallel; large ones one after another, each by all threads.
  void solve_blocks(int t, std::uint64_t first, std::uint64_t end,
                    const std::vector<const LoopyCode*>& tiers, solver::Progress& progress) {
    const std::uint64_t* reached = left_out(t);
    struct Scratch {
      LoopyBlockScratch block;
      LoopyWorker<S> worker;
    };
    tbb::enumerable_thread_specific<Scratch> scratch;
    solver::parallel_for(first, end, [&](std::uint64_t b) {
      const IndexRange block = space_.block_range(t, b);
      if (shared(block)) return;
      Scratch& s = scratch.local();
      solve_loopy_block(space_, t, block, tiers, reached, predecessors_, s.block, s.worker);
      progress.advance(block.end - block.begin);
      progress.add_to_rate(block.end - block.begin);
    });
    for (std::uint64_t b = first; b < end; ++b) {
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
    touch(t);  // held, so that make_room may evict it again
    if (!codes_[t].empty()) return;
    codes_[t] = solver::ZeroedArray<LoopyCode>(space_.tier_size(t));
    // A tier without moves is its fresh zeros (each entry lost in 0), which hold no memory.
    if (!loopy_tier_without_moves(space_, t)) read_loopy_tier(table_name(t), codes_[t]);
  }
  void touch(int t) {
    resident_.remove(t);
    resident_.push_back(t);
  }
  // Evicts tiers other than t and `needed`, least recently used first, until t (with its bits)
  // and `needed` fit the cap beside the plan's fixed part; with t -1, `own` bytes and `needed`
  // (a tier solved a slice at a time: `own` its plan's peak, which counts `needed`).
  void make_room(int t, const std::vector<int>& needed, std::uint64_t own = 0) {
    if (!on_disk()) return;
    std::vector<char> keep(space_.tier_count(), 0);
    std::uint64_t held = own;
    if (t >= 0) {
      keep[t] = 1;
      held = code_bytes(t) + (marks_reached() ? bit_bytes(t) : 0);
    }
    for (int c : needed) {
      keep[c] = 1;
      if (t >= 0) held += code_bytes(c);
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
  std::vector<LoopyTierPlan> plans_;                      // per tier, on disk
  std::vector<solver::ZeroedArray<LoopyCode>> codes_;     // per tier, empty when not held
  std::vector<solver::ZeroedArray<std::uint64_t>> bits_;  // per tier, the reached bits
  std::list<int> resident_;                               // tiers held, least recently used first
  // Per child tier of a tier solved a slice at a time, the parts of it each slice needs (sparse).
  std::vector<solver::ZeroedArray<LoopyCode>> parts_;
};

}  // namespace tablebase
