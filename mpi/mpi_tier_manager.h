// Tiers handed out to MPI ranks, whatever solves them (GamesmanOne's tier manager): rank 0 is
// the manager that gives each tier whose children are all finished (tablebase/tier_schedule.h) to
// an idle rank; every rank, rank 0 too on a thread of its own, solves the tiers it gets and writes
// their files into one directory all ranks share (one machine, or a cluster's shared file
// system), so a child tier solved by another rank is read from its files and the messages carry
// only tier numbers and what each tier's solve reports. A tier of more than a threshold can go to
// every rank at once, as a team (tablebase/tier_team.h), once all of them are idle.
//
// Used by Drop 16's tier solver (mpi_tier_solver.h), the loopy tier solver (mpi_loopy_solver.h)
// and the coalition tier solver (mpi_coalition_solver.h): each says how a rank solves a tier and
// what rank 0 makes of the reports.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tablebase/directory_lock.h"
#include "tablebase/tier_schedule.h"
#include "tablebase/tier_team.h"

namespace mpi_solve {

// A rank's share of the run.
struct RankReport {
  int rank = 0;
  int tiers_solved = 0;  // whole
  int split_tiers = 0;   // tiers of which it solved a part
  int group_folds = 0;
  double solve_seconds = 0;  // inside tiers, its own
  double peak_memory_mb = 0;
  // Between ranks (rank 0's manager and its own solving thread share a process: not counted).
  std::uint64_t messages_sent = 0, messages_received = 0, bytes_sent = 0, bytes_received = 0;
  // The part of those that split tiers' members exchanged among themselves.
  std::uint64_t split_bytes_sent = 0, split_bytes_received = 0;
};

// A tier of more than this many entries is split over the ranks unless told otherwise
// (--mpi-split-entries). Splitting makes every rank wait for the split tier and each pass for
// its slowest part, so on one machine whole tiers were faster (results/mpi.md: 4x4:NBRK on 2
// ranks, 316 s whole against 438 s with its five largest tiers split); only tiers far larger
// than 4x4:NBRK's, whose chain would hold up a cluster, are split by default.
inline constexpr std::uint64_t kDefaultSplitEntries = std::uint64_t{1} << 32;

// A rank's tier failed (or was stopped by a signal): the message names the rank and tier;
// exit_status is what `drop16 solve` would exit with for that error in one process (2 for a
// damaged file or bad input, 1 otherwise).
class RankFailure : public std::runtime_error {
 public:
  RankFailure(const std::string& what, int exit_status)
      : std::runtime_error(what), exit_status(exit_status) {}
  int exit_status;
};

// How a rank solves a tier: solve(t, team, rank) solves tier t (alone when team is null, else as
// a member of every rank's team), adds what it did to its rank's report, and returns what rank 0
// is to hear of it (TierRun::finished reads it; the ranks run one build of drop16 on machines of
// one architecture, so plain bytes do). A failure is thrown.
struct TierWork {
  std::function<std::string(int tier, tablebase::TierTeam* team, RankReport& rank)> solve;
  std::function<std::string(int tier)> tier_name;  // for the messages that name a failed tier
};

// Rank 0's plan of the run, made by TierManager's `prepare` once every rank is listening (so that
// a refusal there still stops them all).
struct TierRun {
  std::string title;                 // of the progress line: "solve VARIANT"
  std::vector<std::uint64_t> sizes;  // per tier: its entries, what the progress counts
  std::unique_ptr<tablebase::TierSchedule> schedule;
  std::uint64_t split_entries = ~std::uint64_t{0};  // a tier of more is solved by every rank
  std::unique_ptr<tablebase::DirectoryLock> lock;   // held for the run: the ranks write under it
  // Rank 0, when a tier is finished, with what its solve returned (a split tier's: the part
  // reported last).
  std::function<void(int tier, std::string_view said)> finished;
};

// What every run's prepare starts with: the plan checked against each rank's cap (MemoryCapError
// naming the variant), DIR made and locked for the run, the progress line titled.
TierRun locked_run(const std::string& variant, const std::filesystem::path& dir,
                   std::uint64_t planned_bytes, std::uint64_t memory_bytes);

struct TierRunOptions {
  bool show_progress = false;
  std::function<bool()> stop_requested;  // asked between tiers: true stops handing them out
};

// Rank 0: calls prepare() (which may throw: every rank is then stopped and the error rethrown),
// then hands out the schedule's tiers, solving its own share on a thread beside, until every tier
// is finished or a rank fails or a stop is asked; returns every rank's report, by rank. Throws
// RankFailure for a rank's failed tier and tablebase::SolveInterrupted when stopped; tiers under
// way on other ranks are finished first.
std::vector<RankReport> manage_tiers(const std::function<TierRun()>& prepare, const TierWork& work,
                                     const TierRunOptions& options, int ranks, MPI_Comm team);

// Every other rank: solves what rank 0 hands it until told to stop, then reports to it. Errors go
// to rank 0 too.
void solve_assigned(const TierWork& work, int rank, MPI_Comm team);

}  // namespace mpi_solve
