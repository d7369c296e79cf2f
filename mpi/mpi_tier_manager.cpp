#include "mpi/mpi_tier_manager.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <thread>

#include "mpi/mpi_link.h"
#include "solver/process_resources.h"
#include "solver/progress.h"
#include "tablebase/table_file.h"
#include "tablebase/tier_memory_plan.h"
#include "tablebase/tier_solve_options.h"

namespace mpi_solve {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kManager = 0;
// Manager to a rank; a rank to the manager. The two sets are disjoint, so rank 0's manager and
// its own solving thread, both receiving at rank 0, never take each other's messages.
enum Tag : int { kAssign = 1, kStop = 2, kDone = 11, kFailed = 12, kStats = 13 };

// The manager's word to a rank: solve this tier, alone or (split) with every other rank.
struct Assignment {
  std::int32_t tier = 0;
  std::int32_t split = 0;
};

// The exit status a rank reports for a split tier it stopped because another rank of the team
// failed: that rank's own report is the run's error.
constexpr std::int32_t kFailedElsewhere = -1;

// What a rank sends when it finished a tier, followed by what its solve said (TierWork::solve).
struct Done {
  std::int32_t tier = 0;
  double seconds = 0;
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Waits for a nonblocking MPI operation, polling with growing sleeps: OpenMPI's blocking calls
// spin a core, which the other ranks on a machine of few cores need (and, on rank 0, the
// manager's thread).
void wait_for(MPI_Request& request) {
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }
}

// The team of a split tier: every rank, over the session's team communicator. An exchange is
// an all-to-all of byte strings (their sizes first); the figures count each non-empty string to
// another rank as a message, and an agreement (any) as each member sending its 4-byte flag to
// each other.
class MpiTeam final : public tablebase::TierTeam {
 public:
  MpiTeam(MPI_Comm comm, RankReport& report) : comm_(comm), report_(report) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  int members() const override { return size_; }
  int member() const override { return rank_; }

  using TierTeam::exchange;
  void exchange(const std::vector<Bytes>& to_each, std::vector<Bytes>& from) override {
    std::vector<long long> send_sizes(size_), receive_sizes(size_);
    for (int m = 0; m < size_; ++m) send_sizes[m] = static_cast<long long>(to_each[m].size());
    MPI_Request request;
    MPI_Ialltoall(send_sizes.data(), 1, MPI_LONG_LONG, receive_sizes.data(), 1, MPI_LONG_LONG,
                  comm_, &request);
    wait_for(request);
    // MPI counts and offsets are ints: a round's requests and a write's batches stay far below.
    std::vector<int> send_counts(size_), send_offsets(size_), receive_counts(size_),
        receive_offsets(size_);
    sending_.clear();
    long long sent = 0, received = 0;
    for (int m = 0; m < size_; ++m) {
      send_offsets[m] = int(sent);
      send_counts[m] = int(send_sizes[m]);
      sent += send_sizes[m];
      receive_offsets[m] = int(received);
      receive_counts[m] = int(receive_sizes[m]);
      received += receive_sizes[m];
      sending_.insert(sending_.end(), to_each[m].begin(), to_each[m].end());
    }
    if (sent > kMaxExchangeBytes || received > kMaxExchangeBytes)
      throw std::runtime_error("a team exchange of more than 2 GB, which MPI counts cannot hold");
    receiving_.resize(static_cast<std::size_t>(received));
    MPI_Ialltoallv(sending_.data(), send_counts.data(), send_offsets.data(), MPI_BYTE,
                   receiving_.data(), receive_counts.data(), receive_offsets.data(), MPI_BYTE,
                   comm_, &request);
    wait_for(request);
    from.resize(size_);
    for (int m = 0; m < size_; ++m) {
      from[m].assign(receiving_.begin() + receive_offsets[m],
                     receiving_.begin() + receive_offsets[m] + receive_counts[m]);
      if (m == rank_) continue;
      if (send_counts[m] > 0) count(1, std::uint64_t(send_counts[m]), true);
      if (receive_counts[m] > 0) count(1, std::uint64_t(receive_counts[m]), false);
    }
  }

  bool any(bool mine) override {
    const int in = mine ? 1 : 0;
    int out = 0;
    MPI_Request request;
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm_, &request);
    wait_for(request);
    count(std::uint64_t(size_ - 1), std::uint64_t(size_ - 1) * sizeof in, true);
    count(std::uint64_t(size_ - 1), std::uint64_t(size_ - 1) * sizeof in, false);
    return out != 0;
  }

 private:
  static constexpr long long kMaxExchangeBytes = 0x7fffffff;

  void count(std::uint64_t messages, std::uint64_t bytes, bool sent) {
    (sent ? report_.messages_sent : report_.messages_received) += messages;
    (sent ? report_.bytes_sent : report_.bytes_received) += bytes;
    (sent ? report_.split_bytes_sent : report_.split_bytes_received) += bytes;
  }

  MPI_Comm comm_;
  RankReport& report_;
  Bytes sending_, receiving_;  // kept from one exchange to the next, with their room
  int rank_ = 0, size_ = 1;
};

// The exit status `drop16 solve` gives an error of this kind in one process (cmd_solve.cpp).
int exit_status_of(const std::exception& e) {
  if (dynamic_cast<const tablebase::TableWriteError*>(&e)) return 1;  // the disk: the machine's
  if (dynamic_cast<const tablebase::TableError*>(&e) ||
      dynamic_cast<const tablebase::MemoryCapError*>(&e))
    return 2;
  return 1;
}

}  // namespace

TierRun locked_run(const std::string& variant, const std::filesystem::path& dir,
                   std::uint64_t planned_bytes, std::uint64_t memory_bytes) {
  if (planned_bytes > memory_bytes)
    throw tablebase::over_memory_cap(variant, planned_bytes, memory_bytes, " on every rank");
  TierRun run;
  run.title = "solve " + variant;
  std::filesystem::create_directories(dir);
  run.lock = std::make_unique<tablebase::DirectoryLock>(dir);
  return run;
}

// A rank's solving loop: tiers from the manager until it says stop, then its report. Any failure
// goes to the manager, which stops handing out tiers. A split tier is solved with every other
// rank over the team communicator.
void solve_assigned(const TierWork& work, int rank, MPI_Comm team_comm) {
  Link link(rank);
  RankReport report;
  report.rank = rank;
  for (;;) {
    MPI_Status status;
    const std::vector<char> message = link.receive(kManager, {kAssign, kStop}, status);
    if (status.MPI_TAG == kStop) break;
    const Assignment assigned = value_of<Assignment>(message);
    const int t = assigned.tier;
    const auto start = Clock::now();
    try {
      std::optional<MpiTeam> team;
      if (assigned.split) team.emplace(team_comm, report);
      const std::string said = work.solve(t, team ? &*team : nullptr, report);
      const Done done{t, seconds_since(start)};
      (assigned.split ? report.split_tiers : report.tiers_solved) += 1;
      report.solve_seconds += done.seconds;
      const std::string text = bytes_of(done) + said;
      link.send(kManager, kDone, text.data(), text.size());
    } catch (const std::exception& e) {
      report.solve_seconds += seconds_since(start);
      const std::int32_t code = dynamic_cast<const tablebase::TeamMemberFailed*>(&e)
                                    ? kFailedElsewhere
                                    : exit_status_of(e);
      const std::string text = bytes_of(code) + "rank " + std::to_string(rank) + ", tier " +
                               work.tier_name(t) + ": " + e.what();
      link.send(kManager, kFailed, text.data(), text.size());
    }
  }
  report.peak_memory_mb = solver::peak_memory_mb();
  // The report's own message is not in it: the manager counts it as received. The split tiers'
  // exchanges are in it already.
  report.messages_sent += link.counts().messages_sent;
  report.messages_received += link.counts().messages_received;
  report.bytes_sent += link.counts().bytes_sent;
  report.bytes_received += link.counts().bytes_received;
  link.send_value(kManager, kStats, report);
}

// Rank 0: the run's bookkeeping and the tiers' schedule, with a solving thread of its own. A tier
// of more than split_entries entries waits until every rank is idle and then goes to all of
// them at once (tier_team.h); it is finished when every rank has reported its part done.
std::vector<RankReport> manage_tiers(const std::function<TierRun()>& prepare, const TierWork& work,
                                     const TierRunOptions& options, int ranks, MPI_Comm team_comm) {
  std::thread own_solver([&] { solve_assigned(work, kManager, team_comm); });
  Link link(kManager);
  std::exception_ptr failure;
  bool failure_elsewhere = false;  // only a rank stopped by its team's failure has reported
  try {
    TierRun run = prepare();
    tablebase::TierSchedule& schedule = *run.schedule;
    std::uint64_t total = 0;
    for (const std::uint64_t n : run.sizes) total += n;
    solver::Progress progress(run.title + " on " + std::to_string(ranks) + " ranks", total,
                              "positions", options.show_progress);
    for (int t = 0; t < schedule.tier_count(); ++t)
      if (schedule.is_finished(t)) progress.advance(run.sizes[t]);
    std::vector<int> idle(ranks), solving(ranks, -1);
    for (int r = 0; r < ranks; ++r)
      idle[r] = r;  // taken from the back: rank 0, which also manages, last
    int busy = 0;
    int split_waiting = -1;  // a split tier taken, waiting for every rank to be idle
    std::vector<int> parts_left(schedule.tier_count(), 0);  // per split tier under way
    const auto stopping = [&] {
      return failure || (options.stop_requested && options.stop_requested());
    };
    while (!schedule.all_finished()) {
      while (!stopping() && !idle.empty()) {
        if (split_waiting >= 0) {
          if (busy > 0) break;
          for (int r = 0; r < ranks; ++r) {
            solving[r] = split_waiting;
            link.send_value(r, kAssign, Assignment{std::int32_t(split_waiting), 1});
          }
          parts_left[split_waiting] = ranks;
          busy = ranks;
          idle.clear();
          split_waiting = -1;
          break;
        }
        const std::optional<int> t = schedule.take();
        if (!t) break;
        if (ranks > 1 && run.sizes[*t] > run.split_entries) {
          split_waiting = *t;
          continue;
        }
        const int r = idle.back();
        idle.pop_back();
        solving[r] = *t;
        ++busy;
        link.send_value(r, kAssign, Assignment{std::int32_t(*t), 0});
      }
      if (busy == 0) break;  // stopping, with every tier under way finished
      std::string under_way;
      for (int r = 0; r < ranks; ++r)
        if (solving[r] >= 0)
          under_way += (under_way.empty() ? "" : ", ") + work.tier_name(solving[r]) + " (rank " +
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
        const auto code = value_of<std::int32_t>(message);
        if (!failure || (failure_elsewhere && code != kFailedElsewhere)) {
          failure = std::make_exception_ptr(
              RankFailure(std::string(message.begin() + sizeof code, message.end()),
                          code == kFailedElsewhere ? 1 : int(code)));
          failure_elsewhere = code == kFailedElsewhere;
        }
        continue;
      }
      if (parts_left[t] > 0 && --parts_left[t] > 0) continue;  // a split tier's other parts
      run.finished(t,
                   std::string_view(message.data() + sizeof(Done), message.size() - sizeof(Done)));
      schedule.finish(t);
      progress.advance(run.sizes[t]);
      progress.add_to_rate(run.sizes[t]);
    }
    if (!failure && !schedule.all_finished())
      throw tablebase::SolveInterrupted(
          "stopped with " + std::to_string(schedule.finished_count()) + " of " +
          std::to_string(schedule.tier_count()) +
          " tiers finished; finished tiers are saved, run again to continue");
  } catch (...) {
    if (!failure) failure = std::current_exception();
  }
  // Every rank stops and reports; a tier still under way after a failure in the manager is
  // finished first (its Done is read and dropped here).
  for (int r = 0; r < ranks; ++r) link.send(r, kStop);
  std::vector<RankReport> reports(ranks);
  for (int reported = 0; reported < ranks;) {
    MPI_Status status;
    const std::vector<char> message =
        link.receive(MPI_ANY_SOURCE, {kStats, kDone, kFailed}, status);
    if (status.MPI_TAG != kStats) continue;
    reports[status.MPI_SOURCE] = value_of<RankReport>(message);
    ++reported;
  }
  own_solver.join();
  RankReport& own = reports[kManager];
  own.messages_sent += link.counts().messages_sent;
  own.messages_received += link.counts().messages_received;
  own.bytes_sent += link.counts().bytes_sent;
  own.bytes_received += link.counts().bytes_received;
  own.peak_memory_mb = solver::peak_memory_mb();
  if (failure) std::rethrow_exception(failure);
  return reports;
}

}  // namespace mpi_solve
