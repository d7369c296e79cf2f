// The split proof tree (solver/split_proof_tree.h) driven as the MPI coordinator drives it, with
// simulated workers (each its own table and search) that finish their jobs in a random order and
// answer cancelled jobs sometimes with their value and sometimes not: the root's value and every
// first move's agree with one search of the whole tree and with the forward solver, and the
// proofs the workers record merge into a certificate the checker accepts, written with no search.
#include "solver/split_proof_tree.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <random>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/move_symmetry.h"
#include "rules/drop/solve/proof_checker.h"
#include "solver/forward_solver.h"
#include "solver/known_first_prover.h"
#include "solver/outcome.h"
#include "solver/proof_certificate.h"
#include "solver/proof_search.h"
#include "tablebase/proof_file.h"

namespace {

using Search = solver::ProofSearch<drop::Game, drop::MoveSymmetry>;
using Table = solver::ProofTable<drop::Key>;
using Tree = solver::SplitProofTree<drop::Game>;
using solver::Proof;

struct NullSink {
  void put(std::uint8_t) {}
};

struct Run {
  Proof value;
  std::vector<Proof> first_moves;  // known after the run, for the side that plays each
  std::size_t jobs = 0, cancelled = 0;
};

Proof first_move_value(const std::optional<bool>& reply) {
  return !reply ? Proof::kUnknown : *reply ? Proof::kLoss : Proof::kWin;
}

// The coordinator's loop of mpi/mpi_proof_search.h with `workers` simulated workers; writes the
// merged certificate to `file` when it is not empty.
Run run_split(const drop::Game& game, int split_plies, bool all_moves, int workers,
              std::uint32_t seed, const std::filesystem::path& file = {}) {
  std::mt19937 random(seed);
  Table own_table(8 << 20);
  Search own(game, own_table, {}, drop::MoveSymmetry(game));
  Tree tree(game, game.start(), split_plies, all_moves,
            [&](const drop::Position& p, std::optional<drop::Move> last) {
              return own.moves_in_order(p, last);
            });
  std::vector<std::unique_ptr<Table>> tables;
  for (int w = 0; w < workers; ++w) tables.push_back(std::make_unique<Table>(8 << 20));
  struct Running {
    int job, worker;
    bool cancelled;
  };
  std::vector<Running> running;
  std::vector<int> idle;
  for (int w = 0; w < workers; ++w) idle.push_back(w);
  absl::flat_hash_map<int, int> worker_of;
  Run run;
  while (!tree.decided() || !running.empty()) {
    while (!tree.decided() && !idle.empty()) {
      const auto job = tree.next_job();
      if (!job) break;
      running.push_back({*job, idle.back(), false});
      worker_of[*job] = idle.back();
      idle.pop_back();
      ++run.jobs;
    }
    for (const int job : tree.take_cancelled())
      for (Running& r : running)
        if (r.job == job) r.cancelled = true;
    if (running.empty()) {      // a position settled while expanding decided the root
      REQUIRE(tree.decided());  // else the tree waits for nothing
      break;
    }
    const std::size_t i = std::uniform_int_distribution<std::size_t>(0, running.size() - 1)(random);
    const Running r = running[i];
    running.erase(running.begin() + std::ptrdiff_t(i));
    Proof value = Proof::kUnknown;
    if (!r.cancelled || random() % 2) {
      Search search(game, *tables[r.worker], {}, drop::MoveSymmetry(game));
      const auto path = tree.path(r.job);
      value = path.empty() ? search.prove(tree.position(r.job))
                           : search.prove_after(tree.position(r.job), path.back());
    }
    run.cancelled += r.cancelled;
    tree.finish(r.job, value);
    idle.push_back(r.worker);
  }
  run.value = tree.value();
  tree.for_each_decided([&](const drop::Key& key, bool win) { own_table.store(key, win, 63); });
  drop::MoveList moves;
  game.generate(game.start(), moves);
  for (const drop::Move m : moves) {
    drop::Position child = game.start();
    game.make(child, m);
    run.first_moves.push_back(first_move_value(own.known(child)));
  }
  if (file.empty()) return run;

  const int leaf_hand = 2;
  auto is_leaf = [&](const drop::Position& q) { return q.pieces_in_hands() <= leaf_hand; };
  solver::KnownFirstProver chooser(game, own);
  const std::vector<int> jobs = tree.proof_jobs(
      is_leaf, [&](const drop::Position& p) { return chooser.known_winning_move(p); });
  for (const int job : jobs) {
    // The worker that answered the job writes its proof, keeping only the losses it chose.
    Search search(game, *tables[worker_of.at(job)], {}, drop::MoveSymmetry(game));
    solver::KnownFirstProver recorder(game, search, true);
    NullSink sink;
    solver::CertificateWriter walk(game, recorder, is_leaf, sink);
    const bool win = *search.known(tree.position(job));
    walk.write({game.variant().name(), "", win, leaf_hand}, tree.position(job));
    for (const drop::Key& key : recorder.losses()) own_table.store(key, false, 62);
  }
  tablebase::ProofFileWriter out(file);
  solver::KnownFirstProver merged(game, own);
  solver::CertificateWriter writer(game, merged, is_leaf, out);
  writer.write({game.variant().name(), drop::to_fen(game, game.start()), run.value == Proof::kWin,
                leaf_hand},
               game.start());
  out.finish();
  CHECK(merged.searched() == 0);  // every winning move came from the merged table
  return run;
}

}  // namespace

TEST_CASE("a split proof tree finds the value of one search, in any order of answers",
          "[split_proof]") {
  for (const char* variant : {"2x2:NBRK", "3x3:NK", "3x3:NBK", "2x4:NBK", "4x4:NK"}) {
    const drop::Game game(drop::parse_variant(variant));
    solver::ForwardSolver<drop::Game> forward(game, 1ull << 30);
    drop::Position start = game.start();
    const Proof expected = solver::is_win(forward.dte(start)) ? Proof::kWin : Proof::kLoss;
    // Every first move by the forward solver, for the side that plays it.
    std::vector<Proof> first_moves;
    drop::MoveList moves;
    game.generate(game.start(), moves);
    for (const drop::Move m : moves) {
      drop::Position child = game.start();
      game.make(child, m);
      first_moves.push_back(game.is_terminal(child) || !solver::is_win(forward.dte(child))
                                ? Proof::kWin
                                : Proof::kLoss);
    }
    for (int split_plies : {1, 2, 3})
      for (int workers : {1, 2, 3})
        for (std::uint32_t seed : {1u, 2u}) {
          INFO(variant << ", split at " << split_plies << " plies, " << workers << " workers, seed "
                       << seed);
          const Run one = run_split(game, split_plies, false, workers, seed);
          CHECK(one.value == expected);
          const Run all = run_split(game, split_plies, true, workers, seed);
          CHECK(all.value == expected);
          CHECK(all.first_moves == first_moves);
        }
  }
}

TEST_CASE("the proofs of a split tree's jobs merge into a certificate the checker accepts",
          "[split_proof]") {
  const auto file = std::filesystem::temp_directory_path() /
                    ("drop16_split_proof_test_" + std::to_string(::getpid()) + ".proof");
  for (const char* variant : {"3x3:NBK", "2x4:NBRK", "4x4:NK"})
    for (int split_plies : {1, 2, 3}) {
      INFO(variant << ", split at " << split_plies << " plies");
      const drop::Game game(drop::parse_variant(variant));
      const Run run = run_split(game, split_plies, false, 2, 7, file);
      const drop::ProofCheck check = drop::check_proof(file);
      CHECK(check.win == (run.value == Proof::kWin));
      CHECK(check.positions > 1);
      std::filesystem::remove(file);
    }
}
