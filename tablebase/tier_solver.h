// The retrograde tier solver: every position of every tier, smallest tiers first, each tier in
// passes (rules/drop/solve/tier_layout.h), each pass in parallel with oneTBB. Class of game: two
// players taking turns (solver::TwoPlayerGame, which the TierSpace concept requires), win/loss,
// acyclic. Every child of a pass lies in an earlier pass or tier, so each position is computed
// exactly once from its children's DTEs (outcome.h): no counters, no iteration to a fixpoint.
//
// Every stored entry is solved (the space decides what it stores: symmetry representatives, for
// Drop 16), and a child is read where the space locates it.
//
// Value-only (options.value_only): an entry is one bit, its value, and a position is a win when
// some child is a loss. Bits start at 0 (loss) and only ever turn to 1, so folding children in
// groups, passes and checkpoints are all the same OR; a tier is an eighth of the bytes, so larger
// tiers fit and its children are read from a smaller, more cache-friendly array.
//
// This class composes the solver's concerns, each in its own header (tablebase/SOLVER.md):
//   tier_solve_options.h  what a solve is asked and reports
//   tier_memory_plan.h    the memory a solve needs, counted before the first tier
//   tier_residency.h      which tiers are held, eviction, reading finished tiers back
//   tier_sweep_plan.h     a tier's sweeps in order: groups of children folded in, then passes
//   tier_sweeps.h         one sweep over a range of entries (the inner loops)
//   tier_progress.h       the progress line and a tier's clock
//   tier_checkpoints.h    saving a tier part way, and resuming from it
//   tier_table_writer.h   writing a solved tier's files
//   tier_team_seat.h, tier_team_fetch.h, tier_team_gather.h
//                         a tier solved by a team of processes (the MPI solver, mpi/)
// Each finished tier is written at once (tier_files.h), so a run that is stopped and started
// again skips every finished tier.
#pragma once

#include <absl/strings/str_join.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "solver/outcome.h"
#include "solver/progress.h"
#include "tablebase/directory_lock.h"
#include "tablebase/tier_checkpoints.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_memory_plan.h"
#include "tablebase/tier_progress.h"
#include "tablebase/tier_residency.h"
#include "tablebase/tier_solve_options.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_sweep_plan.h"
#include "tablebase/tier_sweeps.h"
#include "tablebase/tier_table_writer.h"
#include "tablebase/tier_team.h"
#include "tablebase/tier_team_fetch.h"
#include "tablebase/tier_team_seat.h"

namespace tablebase {

template <TierSpace S>
class TierSolver {
 public:
  TierSolver(const S& space, TierSolveOptions options)
      : space_(space),
        options_(std::move(options)),
        tiers_(space_, options_, seat_),
        sweeps_(space_, options_, tiers_, seat_) {}
  TierSolver(const TierSolver&) = delete;
  TierSolver& operator=(const TierSolver&) = delete;

  // Solves every tier; with an empty options.dir nothing is written and every tier stays in
  // memory (for tests and benchmarks), so the memory plan is then the sum of all tiers.
  TierSolveReport run() {
    const auto start = std::chrono::steady_clock::now();
    const bool on_disk = !options_.dir.empty();
    TierSolveReport report;
    report.tiers = space_.tier_count();
    std::uint64_t every_tier = 0;
    for (int t = 0; t < space_.tier_count(); ++t) {
      report.positions += space_.tier_positions(t);
      report.stored += space_.tier_size(t);
      every_tier += tiers_.memory(t);
    }
    report.planned_bytes =
        on_disk ? planned_memory(space_, options_.value_only) : space_.memory_bytes() + every_tier;
    if (report.planned_bytes > options_.memory_bytes)
      throw over_memory_cap(space_.variant_name(), report.planned_bytes, options_.memory_bytes);
    std::optional<DirectoryLock> lock;
    if (on_disk) {
      std::filesystem::create_directories(options_.dir);
      lock.emplace(options_.dir);
    }
    solver::Progress progress("solve " + space_.variant_name(), report.stored, "positions",
                              options_.show_progress);
    tbb::task_arena arena(options_.threads);
    arena.execute([&] {
      for (int t = 0; t < space_.tier_count(); ++t) {
        const std::string& name = space_.tier_name(t);
        if (!on_disk) {
          solve(t, progress, report);
          ++report.tiers_solved;
        } else if (tier_files_present(options_.dir, space_.variant_name(), name,
                                      options_.value_only)) {
          ++report.tiers_resumed;
          progress.advance(space_.tier_size(t));
        } else {
          solve_and_write(t, progress, report);
        }
        // Asked after new work only, so a resumed run always gets further than the last one.
        if (report.tiers_solved > 0 && t + 1 < space_.tier_count() && options_.stop_requested &&
            options_.stop_requested())
          throw SolveInterrupted(
              "stopped after tier " + name +
              (on_disk ? "; finished tiers are saved, run again to continue" : ""));
        if (on_disk) add_file_sizes(t, report);
      }
    });
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
  }

  // The DTE at a location of a tier still in memory (every tier, after an in-memory run; not
  // for value-only tables).
  int dte(Location at) const { return *tiers_.byte_at(at); }
  // The value there, for either kind of table.
  bool win(Location at) const {
    return options_.value_only ? tiers_.value_bit(at) : solver::is_win(*tiers_.byte_at(at));
  }

  // Solves tier t into its files in options.dir (from its checkpoint, if it has one): run()'s
  // step for one unfinished tier, for a caller that orders the tiers itself, holds the
  // directory's lock and has checked the memory plan (the MPI solver, mpi/). Every child of t
  // must be finished in options.dir; the ones this solver still holds are not read again.
  // With a team (tier_team.h), this process solves its part of the tier with the team's other
  // members, which call this at the same time; member 0 writes the files and checkpoints, and
  // no member holds the tier afterwards (a later tier reads it from its files).
  TierSolveReport solve_tier(int t, TierTeam* team = nullptr) {
    TierSolveReport report;
    solver::Progress quiet("", 0, "", false);
    if (team) {
      fetch_.emplace(space_, tiers_, seat_);
      tiers_.hold_parts_for(team->member(), team->members());
      seat_ = TierTeamSeat(*team, space_, t);
      seat_.read_children_in_parts(!tiers_.children_fit_whole(t));
    }
    struct Alone {  // the team is this call's only, and its tier is held in parts
      TierSolver& solver;
      int t;
      ~Alone() {
        solver.fetch_.reset();
        if (solver.seat_.alone()) return;
        solver.tiers_.release(t);
        solver.seat_ = {};
      }
    } alone{*this, t};
    tbb::task_arena(options_.threads).execute([&] { solve_and_write(t, quiet, report); });
    report.children_in_parts = seat_.reading_parts() ? 1 : 0;
    if (seat_.writes()) add_file_sizes(t, report);
    return report;
  }

 private:
  void solve_and_write(int t, solver::Progress& progress, TierSolveReport& report) {
    solve(t, progress, report);
    ++report.tiers_solved;
    write_solved_tier(space_, options_, tiers_, seat_, t, progress);
  }

  // Solves tier t from its children (tier_sweep_plan.h), continuing from its checkpoint if there
  // is one, and saving checkpoints between chunks of its sweeps.
  void solve(int t, solver::Progress& progress, TierSolveReport& report) {
    const std::uint64_t size = space_.tier_size(t);
    tiers_.make_room(t, {});
    tiers_.allocate(t);
    const auto& passes = space_.tier_passes(t);
    PartialTier state = read_checkpoint(space_, options_, tiers_, seat_, t);
    const std::uint64_t unfinished = first_unfinished(space_, t, state);
    progress.advance(unfinished);
    if (unfinished == size) return;  // saved after its last pass: only its files are left

    const std::uint64_t window = sweeps_.folds_in_order(t) ? options_.ordered_window_bytes : 0;
    const std::vector<int> folded = children_named(space_, options_, t, state.folded);
    const std::vector<int> folding = children_named(space_, options_, t, state.folding);
    const TierSweepPlan plan = plan_tier_sweeps(
        space_, t, folded, folding,
        [&](const std::vector<int>& unread) { return tiers_.child_groups(t, unread, window); });
    TierCheckpointer<S> checkpoints(space_, options_, tiers_, seat_, t, state);

    std::uint8_t* tier_bytes = tiers_.bytes(t).data();
    // Each sweep left covers the entries from `unfinished` on (a stopped fold, from where it got).
    const std::uint64_t per_sweep = size - unfinished;
    TierClock clock;
    for (std::size_t g = 0; g < plan.folds(); ++g) {
      tiers_.make_room(t, plan.groups[g], window);
      read_children(plan.groups[g]);
      // Value bits need no marker: 0 until a losing child is found.
      if (state.folded.empty() && state.folding.empty() && !options_.value_only)
        for (const IndexRange& r : seat_.held_ranges(t, {unfinished, size}))
          std::fill(tier_bytes + r.begin, tier_bytes + r.end, kNoChild);
      state.folding.clear();
      for (int c : plan.groups[g]) state.folding.push_back(space_.tier_name(c));
      const std::string doing = "folding in " + absl::StrJoin(state.folding, ",");
      const std::uint64_t sweeps_after = plan.folds() - g;  // folds after this, the passes
      const bool in_order =
          sweep(t, {std::max(unfinished, state.folding_through), size}, plan.fold_reads(g),
                Sweep::kFoldGroup, {doing, sweeps_after * per_sweep}, clock, progress,
                [&](std::uint64_t through) {
                  state.folding_through = through;
                  checkpoints.after(doing);
                });
      ++report.group_folds;
      report.ordered_folds += in_order;
      state.folded.insert(state.folded.end(), state.folding.begin(), state.folding.end());
      state.folding.clear();
      state.folding_through = 0;
      checkpoints.after("after " + doing);
    }
    tiers_.make_room(t, plan.groups.back());
    read_children(plan.groups.back());
    const std::vector<char> wanted = plan.pass_reads();
    const Sweep kind = state.folded.empty() ? Sweep::kSolve : Sweep::kSolveFolded;
    for (int k = state.passes; k < int(passes.size()); ++k) {
      const std::string doing =
          "in pass " + std::to_string(k + 1) + " of " + std::to_string(passes.size());
      sweep(t, {std::max(unfinished, passes[k].begin), passes[k].end}, wanted, kind,
            {doing, size - passes[k].end}, clock, progress, [&](std::uint64_t through) {
              state.next_pass_done = through - passes[k].begin;
              checkpoints.after(doing);
            });
      state.passes = k + 1;
      state.next_pass_done = 0;
      // Also after the last pass: writing a large tier's files takes long enough (the 14e9-entry
      // tier of 4x4:NBRQK: 19 minutes) that the passes must not hang on it.
      checkpoints.after("after pass " + std::to_string(k + 1));
    }
  }

  // Reads child tiers (those not held as this solve reads them); a team's members agree that
  // none failed.
  void read_children(const std::vector<int>& children) {
    seat_.together([&] {
      for (int c : children) tiers_.load(c);
    });
  }

  // One sweep over entries `range` of tier t: alone, all of it, calling after_chunk between
  // chunks; in a team, this member's parts pass by pass, fetching from their owners a round at a
  // time (tier_team_fetch.h) the entries of earlier passes that a pass reads and the children in
  // tiers it holds in part, and no checkpoint inside it (the members' chunks do not line up).
  // Returns whether it read the children in address order.
  template <typename AfterChunk>
  bool sweep(int t, IndexRange range, const std::vector<char>& wanted, Sweep kind,
             const SweepLabel& label, TierClock& clock, solver::Progress& progress,
             const AfterChunk& after_chunk) {
    if (seat_.alone())
      return sweeps_.sweep(t, range.begin, range.end, wanted, kind, label, clock, progress,
                           after_chunk);
    for (const IndexRange& pass : space_.tier_passes(t))
      if (const IndexRange r = intersection(pass, range); r.begin < r.end)
        fetch_->sweep_in_rounds(t, r, wanted,
                                [&](std::uint64_t begin, std::uint64_t end,
                                    const std::vector<char>& elsewhere, const FetchedRound* round) {
                                  sweeps_.sweep(
                                      t, begin, end, elsewhere, kind, label, clock, progress,
                                      [](std::uint64_t) {}, round);
                                });
    return false;
  }

  void add_file_sizes(int t, TierSolveReport& report) const {
    const TierFileSizes sizes = tier_file_sizes(options_.dir, space_.tier_name(t));
    report.value_bytes += sizes.value_bytes;
    report.dte_bytes += sizes.dte_bytes;
  }

  const S& space_;
  TierSolveOptions options_;
  // During solve_tier with a team: this member's seat in it (tier_team_seat.h); else alone.
  TierTeamSeat seat_;
  TierResidency<S> tiers_;
  TierSweeps<S> sweeps_;
  // During solve_tier with a team: its rounds of fetched children and their buffers.
  std::optional<TeamFetch<S>> fetch_;
};

template <TierSpace S>
TierSolveReport solve_tiers(const S& space, const TierSolveOptions& options) {
  return TierSolver<S>(space, options).run();
}

}  // namespace tablebase
