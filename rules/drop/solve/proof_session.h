// A proof search run as a resumable session (drop16 prove): the search from its checkpoint, if it
// has one; beside it a monitor that prints progress, saves checkpoints and stops the search on
// SIGINT/SIGTERM or at a time limit; then what is known of every first move, the last
// checkpoint and the certificate. Any proof search of the Drop game (solver/proof_search.h,
// solver/dfpn_search.h) runs in it, with a table of exact keys (solver/proof_table.h).
//
// A checkpoint (solver/proof_checkpoint.h) holds the costliest proven entries and the runs'
// totals; a session resumed from it loads the entries and starts again from the root. The
// certificate (solver/proof_certificate.h, proof_file.h) is what check-proof verifies
// (proof_checker.h): the winning moves from the root down to leaves with few pieces in hand or
// decided by the endgame tables.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/endgame_oracle.h"
#include "solver/proof_certificate.h"
#include "solver/proof_checkpoint.h"
#include "solver/proof_counters.h"
#include "solver/proof_search.h"
#include "solver/proof_table.h"
#include "tablebase/proof_file.h"

namespace drop {

struct ProofSessionOptions {
  // Resumed from if it exists, saved every checkpoint_seconds and at the end; empty: none.
  std::string checkpoint;
  double checkpoint_seconds = 120;
  // Most table entries a checkpoint keeps, the costliest first.
  std::uint64_t checkpoint_entries = 32'000'000;
  double time_limit = 0;     // seconds; 0: none
  bool all_moves = false;    // prove every first move, not just one winning move
  std::string certificate;   // written when the value is known; empty: none
  int leaf_hand_pieces = 4;  // certificate leaves: at most this many pieces in both hands
  int zstd_level = 12;       // of the certificate
  bool quiet = false;        // no progress on stderr
};

// Prior runs' totals, carried by the checkpoint file.
struct ProofHistory {
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::uint64_t resumed_entries = 0;
};

// The checkpoint cannot be resumed (damaged, another key format, or another position); the
// message names the file and why.
class ProofCheckpointRefused : public std::runtime_error {
 public:
  explicit ProofCheckpointRefused(const std::string& what) : std::runtime_error(what) {}
};

// Loads options.checkpoint, if it exists, into `table` and returns the totals it carries.
ProofHistory resume_proof(const ProofSessionOptions& options, const drop::Game& game,
                          const drop::Position& root, solver::ProofTable<drop::Key>& table);

// "win", "loss" or "unknown".
const char* proof_name(solver::Proof p);

// What is known of every first move, for the side that plays it, and the winning ones.
struct FirstMove {
  std::string move;
  const char* value;  // proof_name's
};
struct FirstMoves {
  std::vector<FirstMove> moves;
  std::vector<std::string> winning;
};
template <typename Search>
FirstMoves first_moves(const drop::Game& game, const drop::Position& root, Search& search) {
  FirstMoves first;
  drop::MoveList root_moves;
  game.generate(root, root_moves);
  for (drop::Move m : root_moves) {
    drop::Position child = root;
    game.make(child, m);
    const auto reply = search.known(child);
    const char* v = !reply ? "unknown" : *reply ? "loss" : "win";
    const std::string name = drop::move_name(game.geometry(), m);
    first.moves.push_back({name, v});
    if (reply && !*reply) first.winning.push_back(name);
  }
  return first;
}

// The certificate's leaves: few pieces in hand (the checker solves them), or what the endgame
// tables decide.
std::function<bool(const drop::Position&)> leaf_rule(int leaf_hand_pieces,
                                                     const EndgameOracle& oracle);

struct CertificateReport {
  std::string file;
  std::uint64_t bytes = 0, uncompressed_bytes = 0;
  std::uint64_t positions = 0, leaves = 0, back_references = 0;
  int leaf_hand_pieces = 0, leaf_pieces_in_play = 0;
  double seconds = 0;
};

// Writes options.certificate with `prover`'s winning moves (CertificateWriter); `search` is the
// one it searches with, whose nodes the progress counts. Writing re-searches the winning moves
// the table no longer holds, which can take long: it says so every 10 s.
template <typename Prover, typename Search>
CertificateReport write_certificate(const ProofSessionOptions& o, const drop::Game& game,
                                    const drop::Position& root, solver::Proof value, Prover& prover,
                                    Search& search, const EndgameOracle& oracle) {
  using Clock = std::chrono::steady_clock;
  const auto t = Clock::now();
  const auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - t).count(); };
  const std::uint64_t nodes_before = search.stats().nodes;
  std::jthread reporter([&](std::stop_token stop) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    while (!stop.stop_requested()) {
      cv.wait_for(lock, stop, std::chrono::seconds(10), [] { return false; });
      if (!stop.stop_requested() && !o.quiet)
        std::fprintf(stderr, "prove: writing the certificate, %.4g nodes searched again, %.0f s\n",
                     double(search.stats().nodes - nodes_before), seconds());
    }
  });
  tablebase::ProofFileWriter out(o.certificate, o.zstd_level);
  const int leaf_in_play = std::max(0, oracle.max_pieces());
  solver::CertificateWriter writer(game, prover, leaf_rule(o.leaf_hand_pieces, oracle), out);
  const solver::CertificateStats stats =
      writer.write({game.variant().name(), drop::to_fen(game, root), value == solver::Proof::kWin,
                    o.leaf_hand_pieces, leaf_in_play},
                   root);
  CertificateReport report;
  report.file = o.certificate;
  report.uncompressed_bytes = out.bytes_in();
  report.bytes = out.finish();
  report.positions = stats.positions;
  report.leaves = stats.leaves;
  report.back_references = stats.back_references;
  report.leaf_hand_pieces = o.leaf_hand_pieces;
  report.leaf_pieces_in_play = leaf_in_play;
  report.seconds = seconds();
  return report;
}

// While alive, SIGINT and SIGTERM ask the session to stop (they set a lock-free atomic flag: all
// a signal handler may do); after, they are back to their default.
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;
  static bool requested();
};

// Runs beside the search (either algorithm): prints progress, saves checkpoints, and stops the
// search on a signal or at the time limit.
template <typename Search>
class ProofMonitor {
 public:
  using Clock = std::chrono::steady_clock;

  ProofMonitor(const ProofSessionOptions& o, const drop::Game& game, const drop::Position& root,
               Search& search, solver::ProofTable<drop::Key>& table, const ProofHistory& history)
      : o_(o),
        game_(game),
        root_(root),
        search_(search),
        table_(table),
        history_(history),
        start_(Clock::now()),
        thread_([this] { run(); }) {}

  ~ProofMonitor() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  const char* stop_reason() const { return stop_reason_.load(); }
  double seconds() const { return since(start_); }

  // Saves the costliest entries, at most checkpoint_entries of them; returns how many. Every
  // entry counts: most finished work sits in small subtrees below unfinished nodes, so only the
  // cheapest are left out, and only when the table holds more than the budget.
  std::uint64_t save_checkpoint() {
    std::uint64_t at_work[64] = {};
    table_.for_each(0, [&](const solver::ProvenEntry& e) { ++at_work[e.work_log2]; });
    int min_work = 63;
    for (std::uint64_t kept = at_work[63];
         min_work > 0 && kept + at_work[min_work - 1] <= o_.checkpoint_entries;)
      kept += at_work[--min_work];
    solver::Checkpoint c{drop::kKeyFormat,
                         game_.variant().name(),
                         drop::to_fen(game_, root_),
                         history_.nodes + search_.stats().nodes,
                         history_.seconds + seconds(),
                         {}};
    table_.for_each(min_work, [&](const solver::ProvenEntry& e) { c.entries.push_back(e); });
    solver::save_checkpoint(o_.checkpoint, c);
    return c.entries.size();
  }

 private:
  static double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  void run() {
    using namespace std::chrono_literals;
    auto next_report = start_ + 3s;
    auto next_checkpoint = start_ + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(o_.checkpoint_seconds));
    std::unique_lock lock(mutex_);
    while (!cv_.wait_for(lock, 200ms, [this] { return done_; })) {
      if (!stop_reason_ && StopOnSignals::requested()) stop("interrupted");
      if (!stop_reason_ && o_.time_limit > 0 && seconds() >= o_.time_limit) stop("time limit");
      const auto now = Clock::now();
      if (!o_.quiet && now >= next_report) {
        report();
        next_report = now + (seconds() < 60 ? 5s : 30s);
      }
      if (!o_.checkpoint.empty() && now >= next_checkpoint) {
        const auto t = Clock::now();
        const std::uint64_t saved = save_checkpoint();
        if (!o_.quiet)
          std::fprintf(stderr, "prove: checkpoint of %llu entries saved to %s in %.1f s\n",
                       static_cast<unsigned long long>(saved), o_.checkpoint.c_str(), since(t));
        next_checkpoint = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(o_.checkpoint_seconds));
      }
    }
  }

  void stop(const char* reason) {
    stop_reason_.store(reason);
    search_.stop();
    if (!o_.quiet) std::fprintf(stderr, "prove: stopping (%s)\n", reason);
  }

  void report() {
    const solver::ProofStats s = search_.stats();
    const double t = seconds();
    std::fprintf(stderr,
                 "prove: %.4g nodes, %.3g nodes/s, proven %.4g, disproven %.4g, table hits %.4g, "
                 "endgame table hits %.4g, table %.1f%% full, %.0f s\n",
                 double(s.nodes), t > 0 ? double(s.nodes) / t : 0.0, double(s.proven),
                 double(s.disproven), double(s.table_hits), double(s.oracle_hits),
                 100.0 * double(table_.occupied()) / double(table_.capacity()), t);
    std::fflush(stderr);
  }

  const ProofSessionOptions& o_;
  const drop::Game& game_;
  const drop::Position& root_;
  Search& search_;
  solver::ProofTable<drop::Key>& table_;
  ProofHistory history_;
  Clock::time_point start_;
  std::atomic<const char*> stop_reason_{nullptr};
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

struct ProofSessionResult {
  solver::Proof value = solver::Proof::kUnknown;  // of the root
  const char* stopped = nullptr;    // "interrupted" or "time limit"; none when it ran to the end
  double seconds = 0;               // the search's
  std::uint64_t saved_entries = 0;  // by the last checkpoint, if any
  FirstMoves first;
  std::optional<CertificateReport> certificate;  // when asked for and the value is known
};

// Runs `search` (over `table`, which resume_proof has loaded) from `root` as options say: every
// first move in turn with all threads (all_moves; the root's value follows from theirs) or the
// root; saves the last checkpoint; then the first moves and the certificate.
template <typename Search>
ProofSessionResult run_proof_session(const ProofSessionOptions& o, const drop::Game& game,
                                     const drop::Position& root,
                                     solver::ProofTable<drop::Key>& table, Search& search,
                                     const EndgameOracle& oracle, const ProofHistory& history) {
  ProofSessionResult result;
  {
    StopOnSignals signals;
    drop::MoveList root_moves;
    game.generate(root, root_moves);
    ProofMonitor<Search> monitor(o, game, root, search, table, history);
    if (o.all_moves) {
      bool all_known = true, any_win = false;
      for (drop::Move m : root_moves) {
        drop::Position child = root;
        game.make(child, m);
        const solver::Proof reply = search.prove(child);
        all_known &= reply != solver::Proof::kUnknown;
        any_win |= reply == solver::Proof::kLoss;
      }
      result.value = any_win     ? solver::Proof::kWin
                     : all_known ? solver::Proof::kLoss
                                 : solver::Proof::kUnknown;
    } else {
      result.value = search.prove(root);
    }
    result.seconds = monitor.seconds();
    result.stopped = monitor.stop_reason();
    if (!o.checkpoint.empty()) result.saved_entries = monitor.save_checkpoint();
  }
  result.first = first_moves(game, root, search);
  if (!o.certificate.empty() && result.value != solver::Proof::kUnknown)
    result.certificate = write_certificate(o, game, root, result.value, search, search, oracle);
  return result;
}

}  // namespace drop
