#include "mpi/mpi_tier_solver.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <thread>

#include "mpi/mpi_link.h"
#include "solver/progress.h"
#include "tablebase/directory_lock.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_schedule.h"

namespace mpi_solve {

namespace {

using tablebase::DropTierSpace;
using tablebase::TierSolveOptions;
using Clock = std::chrono::steady_clock;

constexpr int kManager = 0;
// Manager to a rank; a rank to the manager. The two sets are disjoint, so rank 0's manager and
// its own solving thread, both receiving at rank 0, never take each other's messages.
enum Tag : int { kAssign = 1, kStop = 2, kDone = 11, kFailed = 12, kStats = 13 };

// What a rank sends when it finished a tier. Sent as bytes: the ranks run one build of drop16 on
// machines of one architecture.
struct Done {
  std::int32_t tier = 0;
  std::int32_t group_folds = 0;
  double seconds = 0;
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double peak_memory_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;
}

// The exit status `drop16 solve` gives an error of this kind in one process (cmd_solve.cpp).
int exit_status_of(const std::exception& e) {
  if (dynamic_cast<const tablebase::TableWriteError*>(&e)) return 1;  // the disk: the machine's
  if (dynamic_cast<const tablebase::TableError*>(&e) ||
      dynamic_cast<const tablebase::MemoryCapError*>(&e))
    return 2;
  return 1;
}

// A rank's solving loop: tiers from the manager until it says stop, then its report. Any failure
// goes to the manager, which stops handing out tiers.
void solve_assigned(const DropTierSpace& space, TierSolveOptions options, int rank) {
  options.show_progress = false;  // rank 0 shows the run's progress
  Link link(rank);
  RankReport report;
  report.rank = rank;
  tablebase::TierSolver<DropTierSpace> solver(space, options);
  for (;;) {
    MPI_Status status;
    const std::vector<char> message = link.receive(kManager, {kAssign, kStop}, status);
    if (status.MPI_TAG == kStop) break;
    const int t = value_of<std::int32_t>(message);
    const auto start = Clock::now();
    try {
      const tablebase::TierSolveReport solved = solver.solve_tier(t);
      const Done done{t, solved.group_folds, seconds_since(start)};
      report.tiers_solved += 1;
      report.group_folds += solved.group_folds;
      report.solve_seconds += done.seconds;
      link.send_value(kManager, kDone, done);
    } catch (const std::exception& e) {
      report.solve_seconds += seconds_since(start);
      const std::int32_t code = exit_status_of(e);
      std::string text(sizeof code, '\0');
      std::memcpy(text.data(), &code, sizeof code);
      text += "rank " + std::to_string(rank) + ", tier " + space.tier_name(t) + ": " + e.what();
      link.send(kManager, kFailed, text.data(), text.size());
    }
  }
  report.peak_memory_mb = peak_memory_mb();
  // The report's own message is not in it: the manager counts it as received.
  report.messages_sent = link.counts().messages_sent;
  report.messages_received = link.counts().messages_received;
  report.bytes_sent = link.counts().bytes_sent;
  report.bytes_received = link.counts().bytes_received;
  link.send_value(kManager, kStats, report);
}

// Rank 0: the run's bookkeeping and the tiers' schedule, with a solving thread of its own.
DistributedReport manage(const DropTierSpace& space, const TierSolveOptions& options, int ranks) {
  const auto start = Clock::now();
  DistributedReport result;
  tablebase::TierSolveReport& report = result.tiers;
  report.tiers = space.tier_count();
  for (int t = 0; t < space.tier_count(); ++t) {
    report.positions += space.tier_positions(t);
    report.stored += space.tier_size(t);
  }
  report.planned_bytes = tablebase::planned_memory(space, options.value_only);
  std::thread own_solver([&] { solve_assigned(space, options, kManager); });
  Link link(kManager);
  std::exception_ptr failure;
  try {
    if (report.planned_bytes > options.memory_bytes)
      throw tablebase::MemoryCapError("solving " + space.variant_name() + " needs " +
                                      solver::size_text(report.planned_bytes) +
                                      " of memory on every rank, more than the cap of " +
                                      solver::size_text(options.memory_bytes) + " (--memory)");
    std::filesystem::create_directories(options.dir);
    tablebase::DirectoryLock lock(options.dir);  // the ranks write under rank 0's lock
    std::vector<char> finished(space.tier_count(), 0);
    for (int t = 0; t < space.tier_count(); ++t)
      finished[t] = tablebase::tier_files_present(options.dir, space.variant_name(),
                                                  space.tier_name(t), options.value_only);
    tablebase::TierSchedule schedule(space, finished);
    report.tiers_resumed = schedule.finished_count();
    solver::Progress progress(
        "solve " + space.variant_name() + " on " + std::to_string(ranks) + " ranks", report.stored,
        "positions", options.show_progress);
    for (int t = 0; t < space.tier_count(); ++t)
      if (finished[t]) progress.advance(space.tier_size(t));
    std::vector<int> idle(ranks), solving(ranks, -1);
    for (int r = 0; r < ranks; ++r)
      idle[r] = r;  // taken from the back: rank 0, which also manages, last
    int busy = 0;
    const auto stopping = [&] {
      return failure || (options.stop_requested && options.stop_requested());
    };
    while (!schedule.all_finished()) {
      while (!stopping() && !idle.empty()) {
        const std::optional<int> t = schedule.take();
        if (!t) break;
        const int r = idle.back();
        idle.pop_back();
        solving[r] = *t;
        ++busy;
        link.send_value(r, kAssign, std::int32_t(*t));
      }
      if (busy == 0) break;  // stopping, with every tier under way finished
      std::string under_way;
      for (int r = 0; r < ranks; ++r)
        if (solving[r] >= 0)
          under_way += (under_way.empty() ? "" : ", ") + space.tier_name(solving[r]) + " (rank " +
                       std::to_string(r) + ")";
      progress.set_stage(std::to_string(schedule.finished_count()) + " of " +
                         std::to_string(schedule.tier_count()) + " tiers; solving " + under_way);
      MPI_Status status;
      const std::vector<char> message = link.receive(MPI_ANY_SOURCE, {kDone, kFailed}, status);
      const int r = status.MPI_SOURCE;
      const int t = solving[r];
      solving[r] = -1;
      idle.push_back(r);
      --busy;
      if (status.MPI_TAG == kFailed) {
        if (!failure) {
          const auto code = value_of<std::int32_t>(message);
          failure = std::make_exception_ptr(
              RankFailure(std::string(message.begin() + sizeof code, message.end()), int(code)));
        }
        continue;
      }
      const Done done = value_of<Done>(message);
      schedule.finish(t);
      progress.advance(space.tier_size(done.tier));
      progress.add_to_rate(space.tier_size(done.tier));
      report.tiers_solved += 1;
      report.group_folds += done.group_folds;
    }
    if (!failure && !schedule.all_finished())
      throw tablebase::SolveInterrupted(
          "stopped with " + std::to_string(schedule.finished_count()) + " of " +
          std::to_string(schedule.tier_count()) +
          " tiers finished; finished tiers are saved, run again to continue");
    if (!failure)
      for (int t = 0; t < space.tier_count(); ++t) {
        const auto sizes = tablebase::tier_file_sizes(options.dir, space.tier_name(t));
        report.value_bytes += sizes.value_bytes;
        report.dte_bytes += sizes.dte_bytes;
      }
  } catch (...) {
    if (!failure) failure = std::current_exception();
  }
  // Every rank stops and reports; a tier still under way after a failure in the manager is
  // finished first (its Done is read and dropped here).
  for (int r = 0; r < ranks; ++r) link.send(r, kStop);
  result.ranks.resize(ranks);
  for (int reported = 0; reported < ranks;) {
    MPI_Status status;
    const std::vector<char> message =
        link.receive(MPI_ANY_SOURCE, {kStats, kDone, kFailed}, status);
    if (status.MPI_TAG != kStats) continue;
    result.ranks[status.MPI_SOURCE] = value_of<RankReport>(message);
    ++reported;
  }
  own_solver.join();
  RankReport& own = result.ranks[kManager];
  own.messages_sent += link.counts().messages_sent;
  own.messages_received += link.counts().messages_received;
  own.bytes_sent += link.counts().bytes_sent;
  own.bytes_received += link.counts().bytes_received;
  own.peak_memory_mb = peak_memory_mb();
  report.seconds = seconds_since(start);
  if (failure) std::rethrow_exception(failure);
  return result;
}

}  // namespace

std::optional<DistributedReport> solve_tiers_mpi(const DropTierSpace& space,
                                                 const TierSolveOptions& options) {
  const Session session;
  if (session.rank() != kManager) {
    solve_assigned(space, options, session.rank());
    return std::nullopt;
  }
  return manage(space, options, session.size());
}

}  // namespace mpi_solve
