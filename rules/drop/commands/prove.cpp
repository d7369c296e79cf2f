// drop16 prove / check-proof: prove a position's value by parallel proof search, as a resumable
// session (rules/drop/solve/proof_session.h: progress, periodic checkpoints (resume by running the
// same command again), an optional time limit and a compressed certificate); and check such a
// certificate with the independent checker. This file maps the options to a search and a
// session, and prints what they found.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/games.h"
#include "app/resources.h"
#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/endgame_oracle.h"
#include "rules/drop/solve/move_symmetry.h"
#include "rules/drop/solve/proof_checker.h"
#include "rules/drop/solve/proof_session.h"
#include "solver/dfpn_search.h"
#include "solver/known_first_prover.h"
#include "solver/proof_search.h"

#if DROP16_MPI
#include "mpi/mpi_proof_search.h"
#endif

namespace drop {

namespace {

using Clock = std::chrono::steady_clock;

using Setup = registry::GameSetup<Game>;

using NegamaxSearch = solver::ProofSearch<Game, MoveSymmetry, EndgameOracle>;
using DfpnSearch = solver::DfpnSearch<Game, MoveSymmetry, EndgameOracle>;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct ProveOptions {
  app::PositionOptions position;
  std::uint64_t hash_mb = 1024;
  int threads = 1;
  ProofSessionOptions session;
  std::string tables;
  bool no_immediate_wins = false, no_mirror_reply = false, no_symmetry_pruning = false,
       no_mobility = false;
  int split_plies = 2;
  bool mpi = false;  // the ranks of an mpirun prove it together (mpi/mpi_proof_search.h)
  int mpi_split_plies = 2;
  std::string algorithm = "negamax";
  double epsilon = 0.25;
  int deep = solver::DfpnOptions().deep;
};

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

EndgameOracle endgame_oracle(const ProveOptions& o, const Game& game) {
  if (o.tables.empty()) return {};
  try {
    if (tablebase::tables_variant(o.tables) != game.variant().name())
      throw app::UsageError("--tables " + o.tables + " holds tables of variant " +
                            tablebase::tables_variant(o.tables) + ", not " + game.variant().name());
    return EndgameOracle(game, o.tables);
  } catch (const tablebase::TableError& e) {
    throw app::UsageError(e.what());
  }
}

// What is known of every first move, for the side that plays it, and the winning ones.
void first_moves_json(const FirstMoves& first, nlohmann::ordered_json& moves,
                      nlohmann::ordered_json& winning) {
  moves = nlohmann::ordered_json::array();
  winning = nlohmann::ordered_json::array();
  for (const FirstMove& m : first.moves) moves.push_back({{"move", m.move}, {"value", m.value}});
  for (const std::string& name : first.winning) winning.push_back(name);
}

nlohmann::ordered_json certificate_json(const CertificateReport& c) {
  return {{"file", c.file},
          {"bytes", c.bytes},
          {"uncompressed_bytes", c.uncompressed_bytes},
          {"positions", c.positions},
          {"leaves", c.leaves},
          {"back_references", c.back_references},
          {"leaf_hand_pieces", c.leaf_hand_pieces},
          {"leaf_pieces_in_play", c.leaf_pieces_in_play},
          {"seconds", c.seconds}};
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
void run_prove_mpi(const ProveOptions& o, const Game& game, const Position& root) {
  if (!o.session.checkpoint.empty() || o.session.time_limit > 0)
    throw app::UsageError("--mpi: --checkpoint and --time-limit are for a single process");
  solver::ProofTable<Key> table(o.hash_mb << 20);
  const solver::ProofOptions options = search_options(o);
  const EndgameOracle oracle = endgame_oracle(o, game);
  auto make_search = [&] {
    return std::make_unique<NegamaxSearch>(game, table, options, MoveSymmetry(game), oracle);
  };
  std::function<std::optional<bool>(const Position&)> decide;
  if (oracle.max_pieces() >= 0) decide = oracle;
  mpi_solve::DistributedProof<Game, NegamaxSearch> proof(
      game, root, table, make_search, decide, leaf_rule(o.session.leaf_hand_pieces, oracle),
      {o.mpi_split_plies, o.session.all_moves, !o.session.certificate.empty(), !o.position.quiet});
  std::optional<mpi_solve::DistributedProofReport> report;
  try {
    report = proof.run();
  } catch (const mpi_solve::TooFewRanks& e) {
    throw app::UsageError(e.what());
  }
  if (!report) return;  // a rank other than 0: rank 0 answers

  // Rank 0's table holds the top tree's values and the proofs gathered for the certificate.
  const std::unique_ptr<NegamaxSearch> search = make_search();
  nlohmann::ordered_json moves, winning;
  first_moves_json(first_moves(game, root, *search), moves, winning);
  nlohmann::ordered_json certificate;
  if (!o.session.certificate.empty() && report->value != solver::Proof::kUnknown) {
    solver::KnownFirstProver merged(game, *search);
    certificate = certificate_json(
        write_certificate(o.session, game, root, report->value, merged, *search, oracle));
    // Both 0 when the gathered proofs held every winning move the certificate needed.
    certificate["winning_moves_searched"] = merged.searched();
    certificate["nodes_searched"] = search->stats().nodes;
  }
  report->ranks[0].cpu_seconds = solver::cpu_seconds();
  report->ranks[0].peak_memory_mb = solver::peak_memory_mb();

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
  j["fen"] = to_fen(game, root);
  j["value"] = proof_name(report->value);
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
void run_prove_mpi(const ProveOptions&, const Game&, const Position&) {
  throw app::UsageError(
      "--mpi: this drop16 was built without MPI (install OpenMPI with "
      "bash scripts/install-deps.sh, then build again)");
}
#endif

// The run once its search is made, for either algorithm: the session
// (rules/drop/solve/proof_session.h), then its report. describe() returns the search's own fields
// of the JSON, at the end.
template <typename Search, typename Describe>
void prove_with(const ProveOptions& o, const Setup& s, solver::ProofTable<Key>& table,
                Search& search, const EndgameOracle& oracle, const ProofHistory& history,
                Describe describe) {
  const Game& game = *s.game;
  const ProofSessionResult r =
      run_proof_session(o.session, game, s.position, table, search, oracle, history);
  const double seconds = r.seconds;
  nlohmann::ordered_json moves, winning;
  first_moves_json(r.first, moves, winning);

  const solver::ProofStats stats = search.stats();
  nlohmann::ordered_json j;
  j["variant"] = game.variant().name();
  j["fen"] = to_fen(game, s.position);
  j["value"] = proof_name(r.value);
  j["winning_moves"] = winning;
  j["moves"] = moves;
  j["stopped"] = r.stopped ? nlohmann::ordered_json(r.stopped) : nlohmann::ordered_json();
  j["nodes"] = stats.nodes;
  j["seconds"] = seconds;
  j["nodes_per_second"] = seconds > 0 ? double(stats.nodes) / seconds : 0.0;
  // On a shared machine wall time says little: the CPU time the process got is reported too.
  j["cpu_seconds"] = solver::cpu_seconds();
  j["proven"] = stats.proven;
  j["disproven"] = stats.disproven;
  j["table_hits"] = stats.table_hits;
  j["endgame_table_hits"] = stats.oracle_hits;
  add_table_json(j, o, oracle, describe(), table.occupied(), solver::peak_memory_mb());
  const std::string& checkpoint = o.session.checkpoint;
  if (!checkpoint.empty())
    j["checkpoint"] = {{"file", checkpoint},
                       {"resumed_entries", history.resumed_entries},
                       {"saved_entries", r.saved_entries},
                       {"total_nodes", history.nodes + stats.nodes},
                       {"total_seconds", history.seconds + seconds}};
  if (r.certificate) j["certificate"] = certificate_json(*r.certificate);
  print_prove(j, o.position.json);
  if (r.stopped && std::string(r.stopped) == "interrupted")
    throw std::runtime_error(checkpoint.empty()
                                 ? "interrupted (no --checkpoint, so the work is lost)"
                                 : "interrupted; checkpoint saved to " + checkpoint +
                                       ": run the same command again to resume");
}

// The checkpoint's entries loaded into `table`; a checkpoint that cannot be resumed is bad input.
ProofHistory resume(const ProveOptions& o, const Setup& s, solver::ProofTable<Key>& table) {
  try {
    return resume_proof(o.session, *s.game, s.position, table);
  } catch (const ProofCheckpointRefused& e) {
    throw app::UsageError(e.what());
  }
}

void run_prove(const CLI::App& cmd, ProveOptions o) {
  o.session.quiet = o.position.quiet;
  const Setup s = app::own_setup<Entry>(cmd, o.position);
  const Game& game = *s.game;
  if (!game.keys_fit())
    throw app::UsageError("this variant's positions need " + std::to_string(game.key_bits()) +
                          " bits, more than the 128-bit exact keys of the proof table hold");
  if (o.hash_mb > solver::physical_memory_mb())
    throw app::UsageError("--hash " + std::to_string(o.hash_mb) +
                          " MB is more than this machine's " +
                          std::to_string(solver::physical_memory_mb()) + " MB of memory");
  const bool dfpn = o.algorithm == "dfpn";
  if (dfpn && o.no_immediate_wins)
    throw app::UsageError(
        "--no-immediate-wins is for --algorithm negamax: df-pn decides a move that leaves no "
        "reply from its leaf numbers");
  if (o.mpi) {
    if (dfpn) throw app::UsageError("--mpi: the ranks search with --algorithm negamax");
    return run_prove_mpi(o, game, s.position);
  }
  const EndgameOracle oracle = endgame_oracle(o, game);
  const nlohmann::ordered_json ordering = ordering_json(o);
  if (dfpn) {
    // The negamax's memory: half of --hash for the proven values, half for the numbers of the
    // positions not yet decided.
    solver::ProofTable<Key> table(o.hash_mb << 19);
    solver::DfpnTable<Key> numbers(o.hash_mb << 19);
    const ProofHistory history = resume(o, s, table);
    solver::DfpnOptions options;
    options.mirror_reply = !o.no_mirror_reply;
    options.symmetry_pruning = !o.no_symmetry_pruning;
    options.mobility = !o.no_mobility;
    options.epsilon = o.epsilon;
    options.deep = o.deep;
    options.threads = o.threads;
    options.split_plies = o.split_plies;
    DfpnSearch search(game, table, numbers, options, MoveSymmetry(game), oracle);
    prove_with(o, s, table, search, oracle, history, [&] {
      return nlohmann::ordered_json{{"algorithm", "dfpn"},
                                    {"epsilon", o.epsilon},
                                    {"deep", o.deep},
                                    {"ordering", ordering},
                                    {"number_table_entries", numbers.occupied()}};
    });
    return;
  }
  solver::ProofTable<Key> table(o.hash_mb << 20);
  const ProofHistory history = resume(o, s, table);
  const solver::ProofOptions options = search_options(o);
  NegamaxSearch search(game, table, options, MoveSymmetry(game), oracle);
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
  ProofCheck c;
  try {
    c = check_proof(o.file, o.tables, app::gigabytes_to_bytes(o.memory_gb), true);
  } catch (const solver::ProofFormatError& e) {
    throw app::UsageError(e.what());
  } catch (const tablebase::TableError& e) {
    throw app::UsageError(e.what());
  } catch (const CheckMemoryError& e) {
    throw app::UsageError(std::string(e.what()) + " (raise --memory)");
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
    j["peak_memory_mb"] = solver::peak_memory_mb();
    j["seconds"] = seconds;
    std::cout << j.dump() << std::endl;
  } else {
    std::cout << c.variant << " " << c.fen << ": proven " << (c.win ? "win" : "loss")
              << " for the side to move (" << c.positions << " positions checked, " << c.leaves
              << " leaves solved, " << c.memo_clears << " memo clears, " << seconds << " s)"
              << std::endl;
  }
}

void add_prove(CLI::App& app) {
  auto o = std::make_shared<ProveOptions>();
  CLI::App* cmd = app.add_subcommand(
      "prove",
      "prove the value of a position by parallel proof search (resumable with --checkpoint)");
  app::add_position_options(*cmd, o->position);
  app::add_threads_option(*cmd, o->threads);
  cmd->add_option("--hash", o->hash_mb, "transposition table size in MB")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30))
      ->capture_default_str();
  cmd->add_option("--checkpoint", o->session.checkpoint,
                  "checkpoint file: resumed from if it exists, saved periodically and at the end");
  cmd->add_option("--checkpoint-every", o->session.checkpoint_seconds,
                  "seconds between checkpoints")
      ->check(CLI::Range(1.0, 1e6))
      ->capture_default_str();
  cmd->add_option("--checkpoint-entries", o->session.checkpoint_entries,
                  "most table entries a checkpoint keeps (17 bytes each), the costliest first")
      ->capture_default_str();
  cmd->add_option("--time-limit", o->session.time_limit,
                  "stop after this many seconds (0: no limit)")
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_flag("--all-moves", o->session.all_moves,
                "prove every first move, not just one winning move");
  cmd->add_option("--certificate", o->session.certificate,
                  "write the proof tree to this file (zstd)");
  cmd->add_option("--tables", o->tables,
                  "endgame tables (drop16 solve --max-pieces) that decide positions with few "
                  "pieces in play")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--leaf-hand", o->session.leaf_hand_pieces,
                  "certificate leaves: positions with at most this many pieces in both hands, "
                  "which the checker solves itself")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--zstd-level", o->session.zstd_level, "certificate compression level")
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
  cmd->callback([cmd, o] { run_prove(*cmd, *o); });
}

void add_check_proof(CLI::App& app) {
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
  app::add_memory_option(*cmd, o->memory_gb);
  cmd->add_flag("--json", o->json, "print one JSON object on stdout");
  cmd->callback([o] { run_check_proof(*o); });
}

[[maybe_unused]] const bool kProveAdded = app::add_game_command({&Entry::info, "prove", add_prove});
[[maybe_unused]] const bool kCheckProofAdded =
    app::add_game_command({&Entry::info, "check-proof", add_check_proof});

}  // namespace

}  // namespace drop
