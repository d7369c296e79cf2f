// Proof search over MPI ranks (`mpirun -np N drop16 prove --mpi`): rank 0 coordinates, holding
// the top `split_plies` plies of the tree (solver/split_proof_tree.h), and hands the positions at
// its bottom (jobs), best-ordered first, to the other ranks, each of which proves them with the
// shared-memory prover (proof_search.h) on its own table and threads; a rank keeps its table
// from job to job, so transpositions between its jobs are answered at once. The answers come
// back as values and rank 0 combines them by the AND/OR rule. A job whose answer stops mattering
// (a sibling already won its parent) is cancelled: rank 0 sends a cancel, the rank stops its
// search (its table keeps what it proved) and answers "unknown", or the value if it got there
// first, which rank 0 still uses for other jobs of the same position.
//
// The certificate: once the root is decided, rank 0 walks its top tree as the certificate's
// writer will and asks, for each job the proof needs, the rank that answered it to walk that
// job's proof (with its table: no search, as a rule) and send the keys of the losses it chose,
// 16 bytes each. Rank 0 stores them in its table, so its CertificateWriter (with
// KnownFirstProver) writes the one merged certificate from table hits, in the ordinary format
// (proof_format.h): the checker cannot tell it from a single process's.
//
// Messages: a job or proof request is 5 bytes and 2 a move from the root; an answer 16 bytes; a
// cancel 4; each rank's figures at the end; and the proof keys.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mpi/mpi_link.h"
#include "solver/known_first_prover.h"
#include "solver/process_resources.h"
#include "solver/proof_certificate.h"
#include "solver/proof_search.h"
#include "solver/split_proof_tree.h"

namespace mpi_solve {

// A rank's share of the run (rank 0: the coordinator, which searches nothing).
struct ProveRankReport {
  std::int32_t rank = 0;
  std::int32_t jobs = 0, jobs_cancelled = 0;  // searched; of them, stopped by a cancel
  std::int32_t proofs_walked = 0;             // jobs whose proof it walked for the certificate
  std::uint64_t nodes = 0, proven = 0, disproven = 0, table_hits = 0, oracle_hits = 0;
  std::uint64_t table_entries = 0;
  std::uint64_t proof_keys = 0;  // sent for the certificate
  double search_seconds = 0;     // in jobs
  double idle_seconds = 0;       // waiting for a job (or the stop)
  double cpu_seconds = 0, peak_memory_mb = 0;
  LinkCounts link;  // its own message's figures are not in it: rank 0 counts them as received
};

struct DistributedProofReport {
  solver::Proof value = solver::Proof::kUnknown;
  std::int64_t jobs = 0;               // handed out
  std::int64_t cancels = 0;            // sent
  std::int64_t tree_positions = 0;     // in rank 0's top tree
  std::int64_t proof_jobs = 0;         // whose proofs the certificate needed
  std::uint64_t proof_keys = 0;        // received for them, stored in rank 0's table
  double seconds = 0;                  // until the root was decided
  double gather_seconds = 0;           // then gathering the proofs
  std::vector<ProveRankReport> ranks;  // by rank
};

struct DistributedProofOptions {
  int split_plies = 2;  // plies rank 0 holds; the positions below are the jobs
  bool all_moves = false;
  bool gather_proof = false;  // gather what a certificate of the root needs into rank 0's table
  bool show_progress = false;
};

// Fewer than two ranks: nobody to search.
class TooFewRanks : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// G::Move must offer raw() (moves are sent as their codes, found again among the legal moves).
template <solver::KeyedGame G, typename Search>
class DistributedProof {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using Key = typename G::Key;
  using Table = solver::ProofTable<Key>;

  // make_search: a new search on this rank's table (one more after each cancel: a stopped search
  // stays stopped); oracle: what rank 0 knows of a top position before any job (endgame tables);
  // is_leaf: the certificate's leaf rule. Every rank gets the same arguments but its own table.
  DistributedProof(const G& game, const Position& root, Table& table,
                   std::function<std::unique_ptr<Search>()> make_search,
                   std::function<std::optional<bool>(const Position&)> oracle,
                   std::function<bool(const Position&)> is_leaf, DistributedProofOptions options)
      : game_(game),
        root_(root),
        table_(table),
        make_search_(std::move(make_search)),
        oracle_(std::move(oracle)),
        is_leaf_(std::move(is_leaf)),
        options_(options) {}

  // Collective over MPI_COMM_WORLD: initialises MPI and finalises it before it returns or
  // throws. Rank 0 returns the report, with the top tree's values (and with gather_proof the
  // certificate's) in its table; the other ranks return nothing. Rank 0 throws TooFewRanks, or
  // std::runtime_error naming the rank whose job failed.
  std::optional<DistributedProofReport> run() {
    const Session session;
    if (session.rank() != 0) {
      work(session.rank());
      return std::nullopt;
    }
    if (session.size() < 2) {
      throw TooFewRanks("--mpi: rank 0 coordinates and the other ranks search: run at least 2");
    }
    return coordinate(session.size());
  }

 private:
  using Clock = std::chrono::steady_clock;
  // Rank 0 to a worker; a worker to rank 0.
  enum Tag : int { kJob = 21, kCancel = 22, kProofRequest = 23, kStop = 24 };
  enum Reply : int { kAnswer = 31, kProofKeys = 32, kStats = 33, kFailed = 34 };
  // The longest wait between polls for a message (mpi_link.h): a job's answer or a cancel waits
  // at most this long unseen. 5 ms, as in the tier solve: 4x4:NBRK's jobs at 2 split plies take
  // seconds, and rank 0 then used 0.6 CPU seconds of the run's 18.
  static constexpr auto kLongestPause = std::chrono::milliseconds(5);

  struct Answer {
    std::uint32_t job = 0;
    std::uint8_t value = 0;  // solver::Proof
    std::uint64_t nodes = 0;
  };

  struct NullSink {
    void put(std::uint8_t) {}
  };

  static double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  static void own_usage(ProveRankReport& report) {
    report.cpu_seconds = solver::cpu_seconds();
    report.peak_memory_mb = solver::peak_memory_mb();
  }

  // A job or proof request: u32 job, u8 flag (a request: the value to prove, 1 = win), then
  // the codes of the moves from the root.
  static std::vector<char> encode(std::uint32_t job, std::uint8_t flag,
                                  const std::vector<Move>& path) {
    std::vector<char> bytes(5 + 2 * path.size());
    std::memcpy(bytes.data(), &job, 4);
    bytes[4] = char(flag);
    for (std::size_t i = 0; i < path.size(); ++i) {
      const std::uint16_t code = path[i].raw();
      std::memcpy(bytes.data() + 5 + 2 * i, &code, 2);
    }
    return bytes;
  }

  struct Decoded {
    std::uint32_t job = 0;
    std::uint8_t flag = 0;
    Position position;
    std::optional<Move> last;
  };
  Decoded decode(const std::vector<char>& bytes) const {
    if (bytes.size() < 5 || (bytes.size() - 5) % 2)
      throw std::runtime_error("a job message of " + std::to_string(bytes.size()) + " bytes");
    Decoded d{0, std::uint8_t(bytes[4]), root_, std::nullopt};
    std::memcpy(&d.job, bytes.data(), 4);
    for (std::size_t at = 5; at < bytes.size(); at += 2) {
      std::uint16_t code;
      std::memcpy(&code, bytes.data() + at, 2);
      typename G::MoveList moves;
      game_.generate(d.position, moves);
      int i = 0;
      while (i < moves.size() && moves[i].raw() != code) ++i;
      if (i == moves.size()) throw std::runtime_error("a job's move is not legal on this rank");
      game_.make(d.position, moves[i]);
      d.last = moves[i];
    }
    return d;
  }

  static void add(ProveRankReport& report, const solver::ProofStats& s) {
    report.nodes += s.nodes;
    report.proven += s.proven;
    report.disproven += s.disproven;
    report.table_hits += s.table_hits;
    report.oracle_hits += s.oracle_hits;
  }

  // The worker's search, one for all its jobs, replaced only after a cancel stopped it (a stopped
  // search stays stopped): one a job would build a task arena a job, and oneTBB warns at each on
  // a rank that mpirun binds to one core. A replaced search's figures go into the report.
  Search& worker_search(ProveRankReport& report) {
    if (search_ && search_->stopped()) {
      add(report, search_->stats());
      search_.reset();
    }
    if (!search_) search_ = make_search_();
    return *search_;
  }

  // A worker: jobs and proof requests from rank 0 until it says stop, then its figures.
  void work(int rank) {
    Link link(rank);
    ProveRankReport report;
    report.rank = rank;
    for (;;) {
      MPI_Status status;
      const auto waiting = Clock::now();
      const std::vector<char> message =
          link.receive(0, {kJob, kProofRequest, kCancel, kStop}, status, kLongestPause);
      report.idle_seconds += seconds_since(waiting);
      if (status.MPI_TAG == kStop) break;
      if (status.MPI_TAG == kCancel) continue;  // of a job answered already
      try {
        const Decoded d = decode(message);
        if (status.MPI_TAG == kJob) {
          search_job(link, d, report);
        } else {
          walk_proof(link, d, report);
        }
      } catch (const std::exception& e) {
        const std::string text = "rank " + std::to_string(rank) + ": " + e.what();
        link.send(0, kFailed, text.data(), text.size());
      }
    }
    if (search_) add(report, search_->stats());
    report.table_entries = table_.occupied();
    own_usage(report);
    report.link = link.counts();
    link.send_value(0, kStats, report);
  }

  // Searches on a thread of its own while this one watches for the job's cancel.
  void search_job(Link& link, const Decoded& d, ProveRankReport& report) {
    const auto start = Clock::now();
    Search& search = worker_search(report);
    const std::uint64_t nodes_before = search.stats().nodes;
    std::atomic<bool> finished{false};
    solver::Proof value = solver::Proof::kUnknown;
    std::thread searcher([&] {
      value = d.last ? search.prove_after(d.position, *d.last) : search.prove(d.position);
      finished.store(true);
    });
    bool cancelled = false;
    auto pause = std::chrono::microseconds(50);
    while (!finished.load()) {
      MPI_Status status;
      if (const auto cancel = link.try_receive(0, {kCancel}, status)) {
        if (value_of<std::uint32_t>(*cancel) == d.job && !cancelled) {
          search.stop();
          cancelled = true;
        }
        continue;
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(kLongestPause));
    }
    searcher.join();
    const std::uint64_t nodes = search.stats().nodes - nodes_before;
    ++report.jobs;
    report.jobs_cancelled += cancelled;
    report.search_seconds += seconds_since(start);
    link.send_value(0, kAnswer, Answer{d.job, std::uint8_t(value), nodes});
  }

  // Walks the proof of a job it answered as the certificate's writer would and sends the keys
  // of the losses chosen on the way (u32 job, then 16 bytes a key).
  void walk_proof(Link& link, const Decoded& d, ProveRankReport& report) {
    solver::KnownFirstProver recorder(game_, worker_search(report), true);
    NullSink sink;
    solver::CertificateWriter walk(game_, recorder, is_leaf_, sink);
    walk.write({"", "", d.flag == 1, 0, 0}, d.position);
    const std::vector<Key>& keys = recorder.losses();
    std::vector<char> bytes(4 + 16 * keys.size());
    std::memcpy(bytes.data(), &d.job, 4);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      std::memcpy(bytes.data() + 4 + 16 * i, &keys[i].lo, 8);
      std::memcpy(bytes.data() + 12 + 16 * i, &keys[i].hi, 8);
    }
    ++report.proofs_walked;
    report.proof_keys += keys.size();
    link.send(0, kProofKeys, bytes.data(), bytes.size());
  }

  DistributedProofReport coordinate(int ranks) {
    const auto start = Clock::now();
    Link link(0);
    DistributedProofReport report;
    const std::unique_ptr<Search> own = make_search_();  // its move order and table
    solver::SplitProofTree<G> tree(
        game_, root_, options_.split_plies, options_.all_moves,
        [&](const Position& p, std::optional<Move> last) { return own->moves_in_order(p, last); },
        oracle_);
    std::vector<int> idle;
    for (int r = ranks - 1; r >= 1; --r) idle.push_back(r);  // taken from the back: rank 1 first
    std::vector<int> job_of(ranks, -1);
    absl::flat_hash_map<int, int> rank_of;  // every job handed out: who answered it
    std::int64_t answered = 0;
    std::uint64_t nodes = 0;
    std::string failure;
    bool cancelled_all = false;  // after a failure, every job under way
    auto next_report = start + std::chrono::seconds(5);
    // The loop stops handing out jobs when the root is decided or a rank failed, and ends when
    // every job under way has answered (cancelled ones soon).
    for (;;) {
      while (failure.empty() && !tree.decided() && !idle.empty()) {
        const std::optional<int> job = tree.next_job();
        if (!job) break;
        const int r = idle.back();
        idle.pop_back();
        const std::vector<char> bytes = encode(std::uint32_t(*job), 0, tree.path(*job));
        link.send(r, kJob, bytes.data(), bytes.size());
        job_of[r] = *job;
        rank_of[*job] = r;
        ++report.jobs;
      }
      std::vector<int> cancelled = tree.take_cancelled();
      if (!failure.empty() && !cancelled_all) {
        cancelled_all = true;
        for (int r = 1; r < ranks; ++r)
          if (job_of[r] >= 0) cancelled.push_back(job_of[r]);
      }
      for (const int job : cancelled) {
        link.send_value(rank_of.at(job), kCancel, std::uint32_t(job));
        ++report.cancels;
      }
      if (int(idle.size()) == ranks - 1) {
        if (failure.empty() && !tree.decided())
          failure = "the top tree waits for no job (a bug in the split)";
        break;
      }
      MPI_Status status;
      const std::vector<char> message =
          link.receive(MPI_ANY_SOURCE, {kAnswer, kFailed}, status, kLongestPause);
      const int r = status.MPI_SOURCE;
      idle.push_back(r);
      job_of[r] = -1;
      if (status.MPI_TAG == kFailed) {
        if (failure.empty()) failure.assign(message.begin(), message.end());
        continue;
      }
      const Answer answer = value_of<Answer>(message);
      tree.finish(int(answer.job), solver::Proof(answer.value));
      ++answered;
      nodes += answer.nodes;
      if (options_.show_progress && Clock::now() >= next_report) {
        std::fprintf(stderr, "prove --mpi: %lld jobs answered, %d under way, %.4g nodes, %.0f s\n",
                     static_cast<long long>(answered), ranks - 1 - int(idle.size()), double(nodes),
                     seconds_since(start));
        next_report = Clock::now() + std::chrono::seconds(seconds_since(start) < 60 ? 5 : 30);
      }
    }
    report.value = tree.value();
    report.tree_positions = std::int64_t(tree.size());
    report.seconds = seconds_since(start);
    tree.for_each_decided([&](const Key& key, bool win) { table_.store(key, win, 63); });
    if (failure.empty() && options_.gather_proof && tree.decided())
      failure = gather_proof(link, tree, *own, rank_of, report);

    for (int r = 1; r < ranks; ++r) link.send(r, kStop);
    report.ranks.resize(ranks);
    for (int reported = 1; reported < ranks; ++reported) {
      MPI_Status status;
      const std::vector<char> message = link.receive(MPI_ANY_SOURCE, {kStats}, status);
      report.ranks[status.MPI_SOURCE] = value_of<ProveRankReport>(message);
    }
    ProveRankReport& self = report.ranks[0];
    own_usage(self);
    self.table_entries = table_.occupied();
    self.link = link.counts();
    if (!failure.empty()) throw std::runtime_error(failure);
    return report;
  }

  // The proofs of the jobs the certificate needs, from the ranks that answered them, into rank
  // 0's table; a failure's text, or empty.
  std::string gather_proof(Link& link, solver::SplitProofTree<G>& tree, Search& own,
                           const absl::flat_hash_map<int, int>& rank_of,
                           DistributedProofReport& report) {
    const auto start = Clock::now();
    const solver::KnownFirstProver<G, Search> chooser(game_, own);
    const std::vector<int> jobs =
        tree.proof_jobs(is_leaf_, [&](const Position& p) { return chooser.known_winning_move(p); });
    for (const int job : jobs) {
      const bool win = *own.known(tree.position(job));
      const std::vector<char> bytes = encode(std::uint32_t(job), win ? 1 : 0, tree.path(job));
      link.send(rank_of.at(job), kProofRequest, bytes.data(), bytes.size());
    }
    std::string failure;
    for (std::size_t received = 0; received < jobs.size(); ++received) {
      MPI_Status status;
      const std::vector<char> message =
          link.receive(MPI_ANY_SOURCE, {kProofKeys, kFailed}, status, kLongestPause);
      if (status.MPI_TAG == kFailed) {
        if (failure.empty()) failure.assign(message.begin(), message.end());
        continue;
      }
      for (std::size_t at = 4; at + 16 <= message.size(); at += 16) {
        Key key{};
        std::memcpy(&key.lo, message.data() + at, 8);
        std::memcpy(&key.hi, message.data() + at + 8, 8);
        table_.store(key, false, 62);  // below the top tree's 63: those stay first
        ++report.proof_keys;
      }
    }
    report.proof_jobs = std::int64_t(jobs.size());
    report.gather_seconds = seconds_since(start);
    return failure;
  }

  const G& game_;
  Position root_;
  Table& table_;
  std::function<std::unique_ptr<Search>()> make_search_;
  std::function<std::optional<bool>(const Position&)> oracle_;
  std::function<bool(const Position&)> is_leaf_;
  DistributedProofOptions options_;
  std::unique_ptr<Search> search_;  // a worker's (worker_search)
};

}  // namespace mpi_solve
