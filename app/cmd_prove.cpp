// drop16 prove / check-proof: prove a position's value by parallel proof search, with progress,
// periodic checkpoints (resume by running the same command again), an optional time limit and a
// compressed certificate; and check such a certificate with the independent checker.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "app/command.h"
#include "app/resources.h"
#include "rules/drop/notation.h"
#include "solver/dfpn_search.h"
#include "solver/known_first_prover.h"
#include "solver/proof_certificate.h"
#include "solver/proof_checkpoint.h"
#include "solver/proof_search.h"
#include "tablebase/drop_move_symmetry.h"
#include "tablebase/endgame_oracle.h"
#include "tablebase/proof_checker.h"
#include "tablebase/proof_file.h"

#if DROP16_MPI
#include "mpi/mpi_proof_search.h"
#endif

namespace app {

namespace {

using Clock = std::chrono::steady_clock;

using tablebase::EndgameOracle;

using NegamaxSearch = solver::ProofSearch<drop::Game, tablebase::DropMoveSymmetry, EndgameOracle>;
using DfpnSearch = solver::DfpnSearch<drop::Game, tablebase::DropMoveSymmetry, EndgameOracle>;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Set by SIGINT/SIGTERM; the monitor turns it into Search::stop(). A lock-free atomic store is
// all a signal handler may do.
std::atomic<bool> interrupted{false};
void on_interrupt(int) {
  interrupted.store(true);
}

struct ProveOptions {
  PositionOptions position;
  std::uint64_t hash_mb = 1024;
  int threads = 1;
  std::string checkpoint;
  double checkpoint_seconds = 120;
  std::uint64_t checkpoint_entries = 32'000'000;
  double time_limit = 0;
  bool all_moves = false;
  std::string certificate;
  std::string tables;
  int leaf_hand_pieces = 4;
  int zstd_level = 12;
  bool no_immediate_wins = false, no_mirror_reply = false, no_symmetry_pruning = false,
       no_mobility = false;
  int split_plies = 2;
  bool mpi = false;  // the ranks of an mpirun prove it together (mpi/mpi_proof_search.h)
  int mpi_split_plies = 2;
  std::string algorithm = "negamax";
  double epsilon = 0.25;
  int deep = solver::DfpnOptions().deep;
};

// Prior runs' totals, carried by the checkpoint file.
struct History {
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::uint64_t resumed_entries = 0;
};

// Runs beside the search (either algorithm): prints progress, saves checkpoints, and stops the
// search on a signal or at the time limit.
template <typename Search>
class Monitor {
 public:
  Monitor(const ProveOptions& o, const drop::Game& game, const drop::Position& root, Search& search,
          solver::ProofTable<drop::Key>& table, const History& history)
      : o_(o),
        game_(game),
        root_(root),
        search_(search),
        table_(table),
        history_(history),
        start_(Clock::now()),
        thread_([this] { run(); }) {}

  ~Monitor() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  const char* stop_reason() const { return stop_reason_.load(); }
  double seconds() const { return seconds_since(start_); }

  // Saves the costliest entries, at most --checkpoint-entries of them; returns how many. Every
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
  void run() {
    using namespace std::chrono_literals;
    auto next_report = start_ + 3s;
    auto next_checkpoint = start_ + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(o_.checkpoint_seconds));
    std::unique_lock lock(mutex_);
    while (!cv_.wait_for(lock, 200ms, [this] { return done_; })) {
      if (!stop_reason_ && interrupted.load()) stop("interrupted");
      if (!stop_reason_ && o_.time_limit > 0 && seconds() >= o_.time_limit) stop("time limit");
      const auto now = Clock::now();
      if (!o_.position.quiet && now >= next_report) {
        report();
        next_report = now + (seconds() < 60 ? 5s : 30s);
      }
      if (!o_.checkpoint.empty() && now >= next_checkpoint) {
        const auto t = Clock::now();
        const std::uint64_t saved = save_checkpoint();
        if (!o_.position.quiet)
          std::fprintf(stderr, "prove: checkpoint of %llu entries saved to %s in %.1f s\n",
                       static_cast<unsigned long long>(saved), o_.checkpoint.c_str(),
                       seconds_since(t));
        next_checkpoint = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(o_.checkpoint_seconds));
      }
    }
  }

  void stop(const char* reason) {
    stop_reason_.store(reason);
    search_.stop();
    if (!o_.position.quiet) std::fprintf(stderr, "prove: stopping (%s)\n", reason);
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

  const ProveOptions& o_;
  const drop::Game& game_;
  const drop::Position& root_;
  Search& search_;
  solver::ProofTable<drop::Key>& table_;
  History history_;
  Clock::time_point start_;
  std::atomic<const char*> stop_reason_{nullptr};
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

History resume(const ProveOptions& o, const drop::Game& game, const drop::Position& root,
               solver::ProofTable<drop::Key>& table) {
  History h;
  if (o.checkpoint.empty() || !std::filesystem::exists(o.checkpoint)) return h;
  solver::Checkpoint c;
  try {
    c = solver::load_checkpoint(o.checkpoint);
  } catch (const solver::CheckpointError& e) {
    throw UsageError(e.what());
  }
  if (c.key_format != drop::kKeyFormat)
    throw UsageError("--checkpoint " + o.checkpoint + " holds keys of format " +
                     std::to_string(c.key_format) + ", this binary packs them in format " +
                     std::to_string(drop::kKeyFormat) +
                     ": its entries would name other positions; remove it, or resume with the "
                     "binary that wrote it");
  if (c.variant != game.variant().name() || c.fen != drop::to_fen(game, root))
    throw UsageError("--checkpoint " + o.checkpoint + " belongs to " + c.variant + " at " + c.fen +
                     ", not to this position");
  for (const solver::ProvenEntry& e : c.entries)
    table.store(drop::Key{e.lo, e.hi}, e.win, e.work_log2);
  return {c.nodes, c.seconds, c.entries.size()};
}

const char* value_name(solver::Proof p) {
  return p == solver::Proof::kWin ? "win" : p == solver::Proof::kLoss ? "loss" : "unknown";
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

solver::ProofOptions search_options(const ProveOptions& o) {
  solver::ProofOptions options;
  options.immediate_wins = !o.no_immediate_wins;
  options.mirror_reply = !o.no_mirror_reply;
  options.symmetry_pruning = !o.no_symmetry_pruning;
  options.mobility = !o.no_mobility;
  options.threads = o.threads;
  options.split_plies = o.split_plies;
  return options;
}

EndgameOracle endgame_oracle(const ProveOptions& o, const drop::Game& game) {
  if (o.tables.empty()) return {};
  try {
    if (tablebase::tables_variant(o.tables) != game.variant().name())
      throw UsageError("--tables " + o.tables + " holds tables of variant " +
                       tablebase::tables_variant(o.tables) + ", not " + game.variant().name());
    return EndgameOracle(game, o.tables);
  } catch (const tablebase::TableError& e) {
    throw UsageError(e.what());
  }
}

// The certificate's leaves: few pieces in hand (the checker solves them), or what the endgame
// tables decide.
std::function<bool(const drop::Position&)> leaf_rule(const ProveOptions& o,
                                                     const EndgameOracle& oracle) {
  const int leaf_in_play = std::max(0, oracle.max_pieces());
  return [leaf_hand = o.leaf_hand_pieces, leaf_in_play](const drop::Position& p) {
    return p.pieces_in_hands() <= leaf_hand || p.pieces_in_play() <= leaf_in_play;
  };
}

// What is known of every first move, for the side that plays it.
template <typename Search>
void first_moves(const drop::Game& game, const drop::Position& root, Search& search,
                 nlohmann::ordered_json& moves, nlohmann::ordered_json& winning) {
  moves = nlohmann::ordered_json::array();
  winning = nlohmann::ordered_json::array();
  drop::MoveList root_moves;
  game.generate(root, root_moves);
  for (drop::Move m : root_moves) {
    drop::Position child = root;
    game.make(child, m);
    const auto reply = search.known(child);
    const char* v = !reply ? "unknown" : *reply ? "loss" : "win";
    const std::string name = drop::move_name(game.geometry(), m);
    moves.push_back({{"move", name}, {"value", v}});
    if (reply && !*reply) winning.push_back(name);
  }
}

// Writes --certificate with `prover`'s winning moves (CertificateWriter); `search` is the one
// it searches with, whose nodes the progress counts.
template <typename Prover, typename Search>
nlohmann::ordered_json write_certificate(const ProveOptions& o, const drop::Game& game,
                                         const drop::Position& root, solver::Proof value,
                                         Prover& prover, Search& search,
                                         const EndgameOracle& oracle) {
  const auto t = Clock::now();
  // Writing re-searches the winning moves the table no longer holds, which can take long:
  // say so every 10 s.
  const std::uint64_t nodes_before = search.stats().nodes;
  std::jthread reporter([&](std::stop_token stop) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    while (!stop.stop_requested()) {
      cv.wait_for(lock, stop, std::chrono::seconds(10), [] { return false; });
      if (!stop.stop_requested() && !o.position.quiet)
        std::fprintf(stderr, "prove: writing the certificate, %.4g nodes searched again, %.0f s\n",
                     double(search.stats().nodes - nodes_before), seconds_since(t));
    }
  });
  tablebase::ProofFileWriter out(o.certificate, o.zstd_level);
  const int leaf_in_play = std::max(0, oracle.max_pieces());
  solver::CertificateWriter writer(game, prover, leaf_rule(o, oracle), out);
  const solver::CertificateStats stats =
      writer.write({game.variant().name(), drop::to_fen(game, root), value == solver::Proof::kWin,
                    o.leaf_hand_pieces, leaf_in_play},
                   root);
  const std::uint64_t raw_bytes = out.bytes_in();
  const std::uint64_t bytes = out.finish();
  return {{"file", o.certificate},
          {"bytes", bytes},
          {"uncompressed_bytes", raw_bytes},
          {"positions", stats.positions},
          {"leaves", stats.leaves},
          {"back_references", stats.back_references},
          {"leaf_hand_pieces", o.leaf_hand_pieces},
          {"leaf_pieces_in_play", leaf_in_play},
          {"seconds", seconds_since(t)}};
}

// The fields after the search's figures: the endgame tables, the table, threads, and what the
// search says of itself (its algorithm and ordering).
void add_table_json(nlohmann::ordered_json& j, const ProveOptions& o, const EndgameOracle& oracle,
                    const nlohmann::ordered_json& described, std::uint64_t table_entries,
                    double peak_mb) {
  j["endgame_value_bytes_loaded"] = oracle.bytes_loaded();
  j["endgame_max_pieces"] = oracle.max_pieces() >= 0 ? nlohmann::ordered_json(oracle.max_pieces())
                                                     : nlohmann::ordered_json();
  j["table_entries"] = table_entries;
  j["threads"] = o.threads;
  j["hash_mb"] = o.hash_mb;
  for (const auto& [name, v] : described.items()) j[name] = v;
  j["peak_memory_mb"] = peak_mb;
}

nlohmann::ordered_json ordering_json(const ProveOptions& o) {
  return {{"immediate_wins", !o.no_immediate_wins},
          {"mirror_reply", !o.no_mirror_reply},
          {"symmetry_pruning", !o.no_symmetry_pruning},
          {"mobility", !o.no_mobility}};
}

void print_prove(const nlohmann::ordered_json& j, bool json) {
  if (json) {
    std::cout << j.dump() << std::endl;
    return;
  }
  std::cout << j["fen"].get<std::string>() << ": " << j["value"].get<std::string>();
  if (!j["winning_moves"].empty())
    std::cout << " (winning first moves: " << j["winning_moves"].dump() << ")";
  std::cout << "\n  " << j["nodes"].get<std::uint64_t>() << " nodes in "
            << j["seconds"].get<double>() << " s, " << j["table_entries"].get<std::uint64_t>()
            << " table entries, peak " << j["peak_memory_mb"].get<double>() << " MB\n";
  if (j.contains("certificate"))
    std::cout << "  certificate " << j["certificate"]["file"].get<std::string>() << ": "
              << j["certificate"]["bytes"] << " bytes, " << j["certificate"]["positions"]
              << " positions\n";
  std::cout << std::flush;
}

#if DROP16_MPI
// --mpi: every rank of the mpirun runs this with the same options; rank 0 coordinates and
// answers, the others search (mpi/mpi_proof_search.h).
void run_prove_mpi(const ProveOptions& o, const drop::Game& game, const drop::Position& root) {
  if (!o.checkpoint.empty() || o.time_limit > 0)
    throw UsageError("--mpi: --checkpoint and --time-limit are for a single process");
  solver::ProofTable<drop::Key> table(o.hash_mb << 20);
  const solver::ProofOptions options = search_options(o);
  const EndgameOracle oracle = endgame_oracle(o, game);
  auto make_search = [&] {
    return std::make_unique<NegamaxSearch>(game, table, options, tablebase::DropMoveSymmetry(game),
                                           oracle);
  };
  std::function<std::optional<bool>(const drop::Position&)> decide;
  if (oracle.max_pieces() >= 0) decide = oracle;
  mpi_solve::DistributedProof<drop::Game, NegamaxSearch> proof(
      game, root, table, make_search, decide, leaf_rule(o, oracle),
      {o.mpi_split_plies, o.all_moves, !o.certificate.empty(), !o.position.quiet});
  std::optional<mpi_solve::DistributedProofReport> report;
  try {
    report = proof.run();
  } catch (const mpi_solve::TooFewRanks& e) {
    throw UsageError(e.what());
  }
  if (!report) return;  // a rank other than 0: rank 0 answers

  // Rank 0's table holds the top tree's values and the proofs gathered for the certificate.
  const std::unique_ptr<NegamaxSearch> search = make_search();
  nlohmann::ordered_json moves, winning;
  first_moves(game, root, *search, moves, winning);
  nlohmann::ordered_json certificate;
  if (!o.certificate.empty() && report->value != solver::Proof::kUnknown) {
    solver::KnownFirstProver merged(game, *search);
    certificate = write_certificate(o, game, root, report->value, merged, *search, oracle);
    // Both 0 when the gathered proofs held every winning move the certificate needed.
    certificate["winning_moves_searched"] = merged.searched();
    certificate["nodes_searched"] = search->stats().nodes;
  }
  report->ranks[0].cpu_seconds = cpu_seconds();
  report->ranks[0].peak_memory_mb = peak_memory_mb();

  mpi_solve::ProveRankReport sum;
  double peak_mb = 0;
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const mpi_solve::ProveRankReport& r : report->ranks) {
    sum.nodes += r.nodes;
    sum.proven += r.proven;
    sum.disproven += r.disproven;
    sum.table_hits += r.table_hits;
    sum.oracle_hits += r.oracle_hits;
    sum.table_entries += r.rank == 0 ? 0 : r.table_entries;
    sum.cpu_seconds += r.cpu_seconds;
    peak_mb = std::max(peak_mb, r.peak_memory_mb);
    ranks.push_back({{"rank", r.rank},
                     {"jobs", r.jobs},
                     {"jobs_cancelled", r.jobs_cancelled},
                     {"proofs_walked", r.proofs_walked},
                     {"nodes", r.nodes},
                     {"table_entries", r.table_entries},
                     {"proof_keys_sent", r.proof_keys},
                     {"search_seconds", r.search_seconds},
                     {"idle_seconds", r.idle_seconds},
                     {"cpu_seconds", r.cpu_seconds},
                     {"peak_memory_mb", r.peak_memory_mb},
                     {"messages_sent", r.link.messages_sent},
                     {"messages_received", r.link.messages_received},
                     {"bytes_sent", r.link.bytes_sent},
                     {"bytes_received", r.link.bytes_received}});
  }
  const double seconds = report->seconds;
  nlohmann::ordered_json j;
  j["variant"] = game.variant().name();
  j["fen"] = drop::to_fen(game, root);
  j["value"] = value_name(report->value);
  j["winning_moves"] = winning;
  j["moves"] = moves;
  j["stopped"] = nlohmann::ordered_json();
  j["nodes"] = sum.nodes;  // the workers' searches (rank 0 searches none)
  j["seconds"] = seconds;
  j["nodes_per_second"] = seconds > 0 ? double(sum.nodes) / seconds : 0.0;
  j["cpu_seconds"] = sum.cpu_seconds;  // every rank's
  j["proven"] = sum.proven;
  j["disproven"] = sum.disproven;
  j["table_hits"] = sum.table_hits;
  j["endgame_table_hits"] = sum.oracle_hits;
  add_table_json(j, o, oracle, {{"algorithm", "negamax"}, {"ordering", ordering_json(o)}},
                 sum.table_entries, peak_mb);  // the largest rank's
  if (!certificate.is_null()) j["certificate"] = certificate;
  j["mpi"] = {{"ranks", report->ranks.size()},
              {"split_plies", o.mpi_split_plies},
              {"jobs", report->jobs},
              {"cancels", report->cancels},
              {"top_tree_positions", report->tree_positions},
              {"proof_jobs", report->proof_jobs},
              {"proof_keys", report->proof_keys},
              {"gather_seconds", report->gather_seconds},
              {"per_rank", ranks}};
  print_prove(j, o.position.json);
}
#else
void run_prove_mpi(const ProveOptions&, const drop::Game&, const drop::Position&) {
  throw UsageError(
      "--mpi: this drop16 was built without MPI (install OpenMPI with "
      "bash scripts/install-deps.sh, then build again)");
}
#endif

// The run once its search is made, for either algorithm: every first move or the root, the
// report and the certificate. describe() returns the search's own fields of the JSON, at the end.
template <typename Search, typename Describe>
void prove_with(const ProveOptions& o, const Setup& s, solver::ProofTable<drop::Key>& table,
                Search& search, const EndgameOracle& oracle, const History& history,
                Describe describe) {
  const drop::Game& game = *s.game;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  drop::MoveList root_moves;
  game.generate(s.position, root_moves);
  solver::Proof value;
  double seconds = 0;
  const char* stop_reason = nullptr;
  std::uint64_t checkpoint_entries = 0;
  {
    Monitor<Search> monitor(o, game, s.position, search, table, history);
    if (o.all_moves) {
      // Every first move in turn, each proven with all threads; the root follows from them.
      bool all_known = true, any_win = false;
      for (drop::Move m : root_moves) {
        drop::Position child = s.position;
        game.make(child, m);
        const solver::Proof reply = search.prove(child);
        all_known &= reply != solver::Proof::kUnknown;
        any_win |= reply == solver::Proof::kLoss;
      }
      value = any_win     ? solver::Proof::kWin
              : all_known ? solver::Proof::kLoss
                          : solver::Proof::kUnknown;
    } else {
      value = search.prove(s.position);
    }
    seconds = monitor.seconds();
    stop_reason = monitor.stop_reason();
    if (!o.checkpoint.empty()) checkpoint_entries = monitor.save_checkpoint();
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);

  nlohmann::ordered_json moves, winning;
  first_moves(game, s.position, search, moves, winning);
  nlohmann::ordered_json certificate;
  if (!o.certificate.empty() && value != solver::Proof::kUnknown)
    certificate = write_certificate(o, game, s.position, value, search, search, oracle);

  const solver::ProofStats stats = search.stats();
  nlohmann::ordered_json j;
  j["variant"] = game.variant().name();
  j["fen"] = drop::to_fen(game, s.position);
  j["value"] = value_name(value);
  j["winning_moves"] = winning;
  j["moves"] = moves;
  j["stopped"] = stop_reason ? nlohmann::ordered_json(stop_reason) : nlohmann::ordered_json();
  j["nodes"] = stats.nodes;
  j["seconds"] = seconds;
  j["nodes_per_second"] = seconds > 0 ? double(stats.nodes) / seconds : 0.0;
  // On a shared machine wall time says little: the CPU time the process got is reported too.
  j["cpu_seconds"] = cpu_seconds();
  j["proven"] = stats.proven;
  j["disproven"] = stats.disproven;
  j["table_hits"] = stats.table_hits;
  j["endgame_table_hits"] = stats.oracle_hits;
  add_table_json(j, o, oracle, describe(), table.occupied(), peak_memory_mb());
  if (!o.checkpoint.empty())
    j["checkpoint"] = {{"file", o.checkpoint},
                       {"resumed_entries", history.resumed_entries},
                       {"saved_entries", checkpoint_entries},
                       {"total_nodes", history.nodes + stats.nodes},
                       {"total_seconds", history.seconds + seconds}};
  if (!certificate.is_null()) j["certificate"] = certificate;
  print_prove(j, o.position.json);
  if (stop_reason && std::string(stop_reason) == "interrupted")
    throw std::runtime_error(o.checkpoint.empty()
                                 ? "interrupted (no --checkpoint, so the work is lost)"
                                 : "interrupted; checkpoint saved to " + o.checkpoint +
                                       ": run the same command again to resume");
}

void run_prove(const ProveOptions& o) {
  const Setup s = make_setup(o.position, "prove");
  const drop::Game& game = *s.game;
  if (!game.keys_fit())
    throw UsageError("this variant's positions need " + std::to_string(game.key_bits()) +
                     " bits, more than the 128-bit exact keys of the proof table hold");
  if (o.hash_mb > physical_memory_mb())
    throw UsageError("--hash " + std::to_string(o.hash_mb) + " MB is more than this machine's " +
                     std::to_string(physical_memory_mb()) + " MB of memory");
  const bool dfpn = o.algorithm == "dfpn";
  if (dfpn && o.no_immediate_wins)
    throw UsageError(
        "--no-immediate-wins is for --algorithm negamax: df-pn decides a move that leaves no "
        "reply from its leaf numbers");
  if (o.mpi) {
    if (dfpn) throw UsageError("--mpi: the ranks search with --algorithm negamax");
    return run_prove_mpi(o, game, s.position);
  }
  const EndgameOracle oracle = endgame_oracle(o, game);
  const nlohmann::ordered_json ordering = ordering_json(o);
  if (dfpn) {
    // The negamax's memory: half of --hash for the proven values, half for the numbers of the
    // positions not yet decided.
    solver::ProofTable<drop::Key> table(o.hash_mb << 19);
    solver::DfpnTable<drop::Key> numbers(o.hash_mb << 19);
    const History history = resume(o, game, s.position, table);
    solver::DfpnOptions options;
    options.mirror_reply = !o.no_mirror_reply;
    options.symmetry_pruning = !o.no_symmetry_pruning;
    options.mobility = !o.no_mobility;
    options.epsilon = o.epsilon;
    options.deep = o.deep;
    options.threads = o.threads;
    options.split_plies = o.split_plies;
    DfpnSearch search(game, table, numbers, options, tablebase::DropMoveSymmetry(game), oracle);
    prove_with(o, s, table, search, oracle, history, [&] {
      return nlohmann::ordered_json{{"algorithm", "dfpn"},
                                    {"epsilon", o.epsilon},
                                    {"deep", o.deep},
                                    {"ordering", ordering},
                                    {"number_table_entries", numbers.occupied()}};
    });
    return;
  }
  solver::ProofTable<drop::Key> table(o.hash_mb << 20);
  const History history = resume(o, game, s.position, table);
  const solver::ProofOptions options = search_options(o);
  NegamaxSearch search(game, table, options, tablebase::DropMoveSymmetry(game), oracle);
  prove_with(o, s, table, search, oracle, history, [&] {
    return nlohmann::ordered_json{{"algorithm", "negamax"}, {"ordering", ordering}};
  });
}

struct CheckProofOptions {
  std::string file;
  std::string tables;
  double memory_gb = 0;
  bool json = false;
};

void run_check_proof(const CheckProofOptions& o) {
  const auto start = Clock::now();
  tablebase::ProofCheck c;
  try {
    c = tablebase::check_proof(o.file, o.tables, gigabytes_to_bytes(o.memory_gb), true);
  } catch (const solver::ProofFormatError& e) {
    throw UsageError(e.what());
  } catch (const tablebase::TableError& e) {
    throw UsageError(e.what());
  } catch (const tablebase::CheckMemoryError& e) {
    throw UsageError(std::string(e.what()) + " (raise --memory)");
  }
  const double seconds = seconds_since(start);
  if (o.json) {
    nlohmann::ordered_json j;
    j["file"] = o.file;
    j["variant"] = c.variant;
    j["fen"] = c.fen;
    j["value"] = c.win ? "win" : "loss";
    j["positions"] = c.positions;
    j["leaves"] = c.leaves;
    j["back_references"] = c.back_references;
    j["leaf_hand_pieces"] = c.leaf_hand_pieces;
    j["leaf_pieces_in_play"] = c.leaf_pieces_in_play;
    j["table_leaves"] = c.table_leaves;
    j["leaf_search_positions"] = c.leaf_search_positions;
    j["leaf_search_table_probes"] = c.leaf_search_table_probes;
    j["memo_clears"] = c.memo_clears;
    j["table_value_bytes_loaded"] = c.table_bytes_loaded;
    j["memory_gb"] = o.memory_gb;
    j["peak_memory_mb"] = peak_memory_mb();
    j["seconds"] = seconds;
    std::cout << j.dump() << std::endl;
  } else {
    std::cout << c.variant << " " << c.fen << ": proven " << (c.win ? "win" : "loss")
              << " for the side to move (" << c.positions << " positions checked, " << c.leaves
              << " leaves solved, " << c.memo_clears << " memo clears, " << seconds << " s)"
              << std::endl;
  }
}

}  // namespace

void register_prove(CLI::App& app) {
  auto o = std::make_shared<ProveOptions>();
  CLI::App* cmd = app.add_subcommand(
      "prove",
      "prove the value of a position by parallel proof search (resumable with --checkpoint)");
  add_position_options(*cmd, o->position);
  add_threads_option(*cmd, o->threads);
  cmd->add_option("--hash", o->hash_mb, "transposition table size in MB")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30))
      ->capture_default_str();
  cmd->add_option("--checkpoint", o->checkpoint,
                  "checkpoint file: resumed from if it exists, saved periodically and at the end");
  cmd->add_option("--checkpoint-every", o->checkpoint_seconds, "seconds between checkpoints")
      ->check(CLI::Range(1.0, 1e6))
      ->capture_default_str();
  cmd->add_option("--checkpoint-entries", o->checkpoint_entries,
                  "most table entries a checkpoint keeps (17 bytes each), the costliest first")
      ->capture_default_str();
  cmd->add_option("--time-limit", o->time_limit, "stop after this many seconds (0: no limit)")
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_flag("--all-moves", o->all_moves, "prove every first move, not just one winning move");
  cmd->add_option("--certificate", o->certificate, "write the proof tree to this file (zstd)");
  cmd->add_option("--tables", o->tables,
                  "endgame tables (drop16 solve --max-pieces) that decide positions with few "
                  "pieces in play")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--leaf-hand", o->leaf_hand_pieces,
                  "certificate leaves: positions with at most this many pieces in both hands, "
                  "which the checker solves itself")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--zstd-level", o->zstd_level, "certificate compression level")
      ->check(CLI::Range(1, 22))
      ->capture_default_str();
  cmd->add_flag("--no-immediate-wins", o->no_immediate_wins, "ordering off: immediate wins first");
  cmd->add_flag("--no-mirror", o->no_mirror_reply, "ordering off: half-turn mirror reply first");
  cmd->add_flag("--no-symmetry", o->no_symmetry_pruning, "ordering off: skip symmetric moves");
  cmd->add_flag("--no-mobility", o->no_mobility, "ordering off: fewest opponent replies first");
  cmd->add_option("--algorithm", o->algorithm,
                  "negamax (boolean negamax with move ordering) or dfpn (depth-first "
                  "proof-number search; --hash is split between proven values and numbers)")
      ->check(CLI::IsMember({"negamax", "dfpn"}))
      ->capture_default_str();
  cmd->add_option("--epsilon", o->epsilon,
                  "dfpn: the 1+epsilon threshold against thrashing (0: plain df-pn)")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  cmd->add_option("--deep", o->deep,
                  "dfpn: unexplored moves this many plies from the root or fewer look dearer the "
                  "nearer the root (deep df-pn; 0: off)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--split-plies", o->split_plies, "plies from the root searched in parallel")
      ->check(CLI::Range(0, 32))
      ->capture_default_str();
  cmd->add_flag("--mpi", o->mpi,
                "under mpirun: rank 0 holds the top of the tree and hands the subtrees below it to "
                "the other ranks (--hash and --threads are each rank's)");
  cmd->add_option("--mpi-split-plies", o->mpi_split_plies,
                  "with --mpi: plies rank 0 holds; the positions below them are the ranks' jobs")
      ->check(CLI::Range(1, 8))
      ->needs("--mpi")
      ->capture_default_str();
  cmd->callback([o] { run_prove(*o); });
}

void register_check_proof(CLI::App& app) {
  auto o = std::make_shared<CheckProofOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check-proof",
      "verify a proof certificate with the rules engine (and endgame tables, if given); prints "
      "the value");
  cmd->add_option("file", o->file, "certificate written by drop16 prove --certificate")->required();
  cmd->add_option("--tables", o->tables,
                  "tables that decide the positions they cover, at the leaves and inside their "
                  "search (else the checker solves every leaf)")
      ->check(CLI::ExistingDirectory);
  add_memory_option(*cmd, o->memory_gb);
  cmd->add_flag("--json", o->json, "print one JSON object on stdout");
  cmd->callback([o] { run_check_proof(*o); });
}

}  // namespace app
