// A coalition tier solve that starts in codes of a byte and goes on in two from the first tier
// that needs them (tablebase/COALITION.md, "A value in a byte, or two"): what one process runs
// over every tier and each MPI rank over the tiers it gets (mpi/mpi_coalition_solver.h). A tier
// needs two bytes when its own distances pass a byte's or when a child tier it reads was written
// in two; the tiers written in bytes before are read as they are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "tablebase/coalition_tier_solver.h"

namespace tablebase {

template <CoalitionTierSpace S>
class WideningCoalitionSolver {
 public:
  // The codes' budget of a solver in codes of `code_bytes` whose blocks' arrays hold up to
  // `block_work` bytes, asked as each width starts (CoalitionTierSolver::set_budget); throws to
  // refuse the solve.
  using Budget = std::function<std::uint64_t(std::size_t code_bytes, std::uint64_t block_work)>;
  // Told why, when the solve goes on in two bytes.
  using Widened = std::function<void(const std::string& why)>;

  WideningCoalitionSolver(const S& space, CoalitionTierSolveOptions options, Budget budget,
                          Widened widened = {})
      : space_(space),
        options_(std::move(options)),
        budget_(std::move(budget)),
        widened_(std::move(widened)) {}

  // Tier t solved, or read from its file (CoalitionTierSolver::solve_tier); each tier is given
  // after its children. Throws as CoalitionTierSolver::solve_tier does, but for codes too narrow.
  CoalitionTierSolved solve_tier(int t) {
    if (!narrow_ && !wide_) start(narrow_);
    if (narrow_) {
      try {
        return narrow_->solve_tier(t);
      } catch (const CoalitionCodesTooNarrow& e) {
        keep_peaks(narrow_->report());
        narrow_.reset();
        if (widened_) widened_(e.what());
        start(wide_);
      }
    }
    return wide_->solve_tier(t);
  }

  std::size_t code_bytes() const { return wide_ ? sizeof(WideCoalitionCode) : 1; }
  // Over both widths: the most codes held at once, the most a block's arrays held, the tier
  // files read back after their codes were dropped.
  CoalitionTierReport peaks() const {
    CoalitionTierReport now = kept_;
    if (narrow_) add_peaks(now, narrow_->report());
    if (wide_) add_peaks(now, wide_->report());
    return now;
  }

 private:
  template <typename Solver>
  void start(std::optional<Solver>& solver) {
    solver.emplace(space_, options_);
    solver->set_budget(budget_(sizeof(typename Solver::code_type), solver->block_work_bound()));
    solver->begin();
  }
  static void add_peaks(CoalitionTierReport& to, const CoalitionTierReport& from) {
    to.peak_held_bytes = std::max(to.peak_held_bytes, from.peak_held_bytes);
    to.block_work_bytes = std::max(to.block_work_bytes, from.block_work_bytes);
    to.tiers_reread += from.tiers_reread;
  }
  void keep_peaks(const CoalitionTierReport& from) { add_peaks(kept_, from); }

  const S& space_;
  CoalitionTierSolveOptions options_;
  Budget budget_;
  Widened widened_;
  std::optional<CoalitionTierSolver<S>> narrow_;
  std::optional<CoalitionTierSolver<S, WideCoalitionCode>> wide_;
  CoalitionTierReport kept_;  // the byte solver's peaks, once it is gone
};

}  // namespace tablebase
