// What the progress line says while a tier is solved: which sweep runs, where it is in the tier,
// and about how long the tier's remaining sweeps take. A big tier that folds its children in
// groups sweeps several times without finishing an entry, so done/total alone would stand still;
// the time left comes from the rate of the sweeps so far (TierClock).
#pragma once

#include <absl/strings/str_cat.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "solver/progress.h"

namespace tablebase {

// The progress line's view of a sweep: what it does, and how many entries the tier's sweeps
// after it will cover.
struct SweepLabel {
  std::string doing;
  std::uint64_t entries_after = 0;
};

// A tier's sweeps so far in this run, whose rate estimates the time its remaining ones take.
// The current sweep's own rate is used once it has run a while: a fold (captures only) runs
// faster than a pass, 2% against 0.75% of the top tier of 4x4:NBRQK a minute (SOLVER.md).
class TierClock {
 public:
  using Clock = std::chrono::steady_clock;

  // A sweep starts.
  void start_sweep() {
    sweep_start_ = Clock::now();
    sweep_swept_ = 0;
  }
  // The sweep under way has swept `entries` more.
  void swept(std::uint64_t entries) {
    swept_ += entries;
    sweep_swept_ += entries;
  }
  // Seconds for `entries` more at the current sweep's rate, or the tier's, or nullopt this
  // early in the tier (a few seconds' rate says little).
  std::optional<double> seconds_for(std::uint64_t entries) const {
    constexpr double kSettled = 10;
    const auto now = Clock::now();
    const double in_sweep = std::chrono::duration<double>(now - sweep_start_).count();
    const double in_tier = std::chrono::duration<double>(now - start_).count();
    if (in_sweep >= kSettled && sweep_swept_ > 0) return entries * in_sweep / sweep_swept_;
    if (in_tier >= kSettled && swept_ > 0) return entries * in_tier / swept_;
    return std::nullopt;
  }

 private:
  Clock::time_point start_ = Clock::now(), sweep_start_ = start_;
  std::uint64_t swept_ = 0, sweep_swept_ = 0;
};

// Sets the progress line's stage for a sweep of tier `name` (of `size` entries) that has reached
// entry `at` and has `left` entries to go: what it does, how far into the tier, and the time the
// tier has left once the clock can tell.
inline void show_sweep(solver::Progress& progress, const std::string& name, std::uint64_t size,
                       const SweepLabel& label, const TierClock& clock, std::uint64_t at,
                       std::uint64_t left) {
  std::string stage =
      absl::StrCat(name, " ", label.doing, ", at ", 100 * at / size, "% of the tier");
  if (const auto seconds = clock.seconds_for(left + label.entries_after))
    absl::StrAppend(&stage, ", about ", solver::duration_text(*seconds), " left in it");
  progress.set_stage(std::move(stage));
}

}  // namespace tablebase
