// A tier's checkpoints and their resumption (NAME.partial, tier_files.h): where a tier's sweeps
// stood when it was saved (passes finished, how far the next got, children folded in, a group
// being folded and how far), read back and checked against the tier before it is trusted, and
// saved while the tier is solved: when due (checkpoint_interval, at least ten times the last
// save's own time apart: writing a 14 GB tier takes a while) or asked to stop, between chunks.
//
// In a team (tier_team.h) every member reads the same checkpoint (each its own parts), member 0
// writes it with the others' entries gathered (tier_team_gather.h), its clock decides when, and a
// stop asked of any member stops all; one checkpoint so resumes any team or a process alone.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tablebase/table_file.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_residency.h"
#include "tablebase/tier_solve_options.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_team_gather.h"
#include "tablebase/tier_team_seat.h"

namespace tablebase {

// The first entry of tier t that the passes of a checkpoint have not finished: entries before it
// hold their DTE (or value); past it, the deciding child of the groups folded in so far.
template <TierSpace S>
std::uint64_t first_unfinished(const S& space, int t, const PartialTier& state) {
  const auto& passes = space.tier_passes(t);
  if (state.passes == int(passes.size())) return space.tier_size(t);
  return passes[state.passes].begin + state.next_pass_done;
}

// Reads tier t's checkpoint, if it has one, into its array in `tiers` (this member's parts of it,
// in a team, whose members all read it together) and returns its state; nothing without a tables
// directory. Refuses (TableError) a checkpoint that does not fit the tier, or whose file holds
// fewer bytes than its state counts on (every entry's, once a fold has begun).
template <TierSpace S>
PartialTier read_checkpoint(const S& space, const TierSolveOptions& options,
                            TierResidency<S>& tiers, TierTeamSeat& seat, int t) {
  PartialTier state;
  if (options.dir.empty()) return state;
  seat.together([&] {
    state = read_partial_tier(options.dir, space.variant_name(), space.tier_name(t), tiers.array(t),
                              tiers.entry_bits(), seat.owned());
    const auto& passes = space.tier_passes(t);
    const auto refuse = [&](const std::string& fault) {
      return TableError(partial_path(options.dir, space.tier_name(t)), fault);
    };
    if (state.passes > int(passes.size()) ||
        (state.passes == int(passes.size()) && state.next_pass_done > 0) ||
        (state.passes < int(passes.size()) &&
         state.next_pass_done > passes[state.passes].end - passes[state.passes].begin) ||
        state.folding_through > space.tier_size(t))
      throw refuse("does not fit tier " + space.tier_name(t));
    const bool folds = !state.folded.empty() || !state.folding.empty();
    if (state.saved_entries < (folds ? space.tier_size(t) : first_unfinished(space, t, state)))
      throw refuse("holds " + std::to_string(state.saved_entries) +
                   " entries, fewer than its state needs");
  });
  return state;
}

// Tier t's children called `names` (from its checkpoint); a name that is not one of them is a
// damaged checkpoint (TableError).
template <TierSpace S>
std::vector<int> children_named(const S& space, const TierSolveOptions& options, int t,
                                const std::vector<std::string>& names) {
  std::vector<int> children;
  for (const std::string& name : names) {
    const auto& all = space.tier_children(t);
    const auto found =
        std::find_if(all.begin(), all.end(), [&](int c) { return space.tier_name(c) == name; });
    if (found == all.end())
      throw TableError(partial_path(options.dir, space.tier_name(t)),
                       "names " + name + ", which is not a child tier of " + space.tier_name(t));
    children.push_back(*found);
  }
  return children;
}

// Saves a tier's checkpoints while it is solved, from the state its sweeps keep up to date.
template <TierSpace S>
class TierCheckpointer {
 public:
  // For tier t, whose sweeps start now and keep `state`; the first save is due after
  // options.checkpoint_interval.
  TierCheckpointer(const S& space, const TierSolveOptions& options, TierResidency<S>& tiers,
                   TierTeamSeat& seat, int t, const PartialTier& state)
      : space_(space),
        options_(options),
        tiers_(tiers),
        seat_(seat),
        t_(t),
        state_(state),
        next_save_(Clock::now() + options.checkpoint_interval) {}

  // After a chunk of work, a fold or a pass (`done` says which, for the message): saves when due
  // or asked to stop, then throws SolveInterrupted if asked to stop. Collective in a team.
  void after(const std::string& done) {
    const bool stop = seat_.agreed(options_.stop_requested && options_.stop_requested());
    const bool due = seat_.agreed(seat_.writes() && Clock::now() >= next_save_);
    if (!options_.dir.empty() && (stop || due)) save();
    if (stop)
      throw SolveInterrupted(
          "stopped in tier " + space_.tier_name(t_) + " " + done +
          (options_.dir.empty() ? "" : "; its work is saved, run again to continue"));
  }

 private:
  using Clock = std::chrono::steady_clock;

  // Every entry's byte matters once a fold has begun (each holds its deciding child so far);
  // before, only those the passes finished.
  void save() {
    const auto saving = Clock::now();
    const bool all_bytes_matter = !state_.folded.empty() || !state_.folding.empty();
    write_gathered(tiers_, seat_, t_, [&](const BeforeBatch& before_batch) {
      write_partial_tier(
          options_.dir, space_.variant_name(), space_.tier_name(t_), tiers_.array(t_),
          all_bytes_matter ? space_.tier_size(t_) : first_unfinished(space_, t_, state_), state_,
          tiers_.entry_bits(), before_batch);
    });
    const auto saved = Clock::now();
    next_save_ =
        saved + std::max<Clock::duration>(options_.checkpoint_interval, 10 * (saved - saving));
  }

  const S& space_;
  const TierSolveOptions& options_;
  TierResidency<S>& tiers_;
  TierTeamSeat& seat_;
  int t_;
  const PartialTier& state_;
  Clock::time_point next_save_;
};

}  // namespace tablebase
