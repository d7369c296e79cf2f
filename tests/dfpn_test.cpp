// df-pn (solver/dfpn_search.h) against two independent methods: the forward solver (a plain
// memoized negamax without cuts) and the boolean negamax prover (proof_search.h), on every
// reachable position of small variants; with endgame tables as its oracle; its certificates
// through the independent checker; and `prove --algorithm` through the command.
#include <absl/container/flat_hash_set.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/endgame_oracle.h"
#include "rules/drop/solve/move_symmetry.h"
#include "rules/drop/solve/proof_checker.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/dfpn_search.h"
#include "solver/forward_solver.h"
#include "solver/outcome.h"
#include "solver/proof_certificate.h"
#include "solver/proof_search.h"
#include "tablebase/proof_file.h"
#include "tablebase/tier_solver.h"
#include "tests/drop16_process.h"
#include "tests/test_support.h"
#include "tests/tier_oracle.h"

namespace {

using Dfpn = solver::DfpnSearch<drop::Game, drop::MoveSymmetry>;
using Negamax = solver::ProofSearch<drop::Game, drop::MoveSymmetry>;
using Table = solver::ProofTable<drop::Key>;
using Numbers = solver::DfpnTable<drop::Key>;

using test_support::proof_of;

// Every position reachable from the start, one per canonical key; a seeded sample of `most` of
// them when there are more.
std::vector<drop::Position> reachable(const drop::Game& game, std::size_t most) {
  absl::flat_hash_set<drop::Key> seen;
  std::vector<drop::Position> found, stack{game.start()};
  seen.insert(game.canonical_key(game.start()));
  while (!stack.empty()) {
    const drop::Position p = stack.back();
    stack.pop_back();
    found.push_back(p);
    drop::MoveList moves;
    game.generate(p, moves);
    for (drop::Move m : moves) {
      drop::Position child = p;
      game.make(child, m);
      if (seen.insert(game.canonical_key(child)).second) stack.push_back(child);
    }
  }
  if (found.size() > most) {
    std::mt19937_64 rng(22);
    std::shuffle(found.begin(), found.end(), rng);
    found.resize(most);
  }
  return found;
}

// The option sets every comparison runs: the default, plain df-pn (epsilon 0, deep 0), no mobility,
// no symmetry or mirror; `tiny` tables force the replacement rule and the re-search of evicted
// proofs.
struct Setting {
  const char* name;
  solver::DfpnOptions options;
  std::size_t proven_bytes, number_bytes;
};
std::vector<Setting> settings() {
  solver::DfpnOptions plain, no_mobility, no_symmetry;
  plain.epsilon = 0;
  plain.deep = 0;
  no_mobility.mobility = false;
  no_symmetry.symmetry_pruning = no_symmetry.mirror_reply = false;
  return {{"default", {}, 4 << 20, 4 << 20},
          {"epsilon 0, deep 0", plain, 4 << 20, 4 << 20},
          {"no mobility", no_mobility, 4 << 20, 4 << 20},
          {"no symmetry, no mirror", no_symmetry, 4 << 20, 4 << 20},
          {"tiny tables", {}, 64 * 16, 64 * 16}};
}

}  // namespace

TEST_CASE("df-pn agrees with the forward solver and the negamax on every reachable position",
          "[dfpn]") {
  for (const char* variant :
       {"2x2:NK", "2x2:BR/q", "2x3:RK", "3x2:NK", "3x3:NK", "3x3:BK/nr", "3x3:NBK"}) {
    const drop::Game game(drop::parse_variant(variant));
    const std::vector<drop::Position> positions = reachable(game, 3000);
    solver::ForwardSolver<drop::Game> reference(game, 1ull << 30);
    Table negamax_table(16 << 20);
    Negamax negamax(game, negamax_table, {}, drop::MoveSymmetry(game));
    for (const Setting& setting : settings()) {
      // One pair of tables for all the positions, as in a real search.
      Table proven(setting.proven_bytes);
      Numbers numbers(setting.number_bytes);
      Dfpn dfpn(game, proven, numbers, setting.options, drop::MoveSymmetry(game));
      int wins = 0;
      for (const drop::Position& p : positions) {
        INFO(variant << " " << setting.name << " " << drop::to_fen(game, p));
        drop::Position copy = p;
        const solver::Proof expected = proof_of(solver::is_win(reference.dte(copy)));
        const solver::Proof found = dfpn.prove(p);
        CHECK(found == expected);
        CHECK(negamax.prove(p) == found);
        wins += found == solver::Proof::kWin;
      }
      INFO(variant << " " << positions.size() << " positions, " << wins << " wins");
      CHECK(wins > 0);  // both values occur, so a constant answer would fail
      CHECK(wins < int(positions.size()));
      if (positions.size() > 100) CHECK(dfpn.stats().nodes > 0);
    }
  }
}

TEST_CASE("df-pn on two threads agrees with the forward solver", "[dfpn][parallel]") {
  std::mt19937_64 rng(22);
  for (const char* variant : {"3x3:NBK", "3x3:NBRK", "4x4:NBK"}) {
    const drop::Game game(drop::parse_variant(variant));
    solver::ForwardSolver<drop::Game> reference(game, 1ull << 30);
    for (const int split_plies : {1, 2, 3}) {
      Table proven(16 << 20);
      Numbers numbers(16 << 20);
      solver::DfpnOptions o;
      o.threads = 2;
      o.split_plies = split_plies;
      Dfpn dfpn(game, proven, numbers, o, drop::MoveSymmetry(game));
      for (int n = 0; n < 15; ++n) {
        const drop::Position p =
            n == 0 ? game.start() : test_support::random_position(game, rng, 2 + int(rng() % 6));
        INFO(variant << " split " << split_plies << " " << drop::to_fen(game, p));
        drop::Position copy = p;
        CHECK(dfpn.prove(p) == proof_of(solver::is_win(reference.dte(copy))));
      }
    }
  }
}

TEST_CASE("df-pn's winning move leaves a position the forward solver calls a loss", "[dfpn]") {
  std::mt19937_64 rng(7);
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  solver::ForwardSolver<drop::Game> reference(game, 1ull << 30);
  // A proof table too small to keep the proofs: winning_move must search again.
  Table proven(64 * 16);
  Numbers numbers(1 << 20);
  Dfpn dfpn(game, proven, numbers, {}, drop::MoveSymmetry(game));
  int wins = 0;
  for (int n = 0; n < 60; ++n) {
    drop::Position p = test_support::random_position(game, rng, int(rng() % 7));
    INFO(drop::to_fen(game, p));
    const auto move = dfpn.winning_move(p);
    drop::Position copy = p;
    const bool win = solver::is_win(reference.dte(copy));
    REQUIRE(move.has_value() == win);
    if (!move) continue;
    ++wins;
    game.make(p, *move);
    CHECK_FALSE(solver::is_win(reference.dte(p)));
  }
  CHECK(wins > 5);
}

TEST_CASE("a stopped df-pn answers unknown and stores nothing", "[dfpn]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  Table proven(4 << 20);
  Numbers numbers(4 << 20);
  Dfpn dfpn(game, proven, numbers, {}, drop::MoveSymmetry(game));
  dfpn.stop();
  CHECK(dfpn.prove(game.start()) == solver::Proof::kUnknown);
  CHECK(proven.occupied() == 0);
  CHECK(numbers.occupied() == 0);
}

TEST_CASE("df-pn with endgame tables at the leaves agrees and searches less", "[dfpn]") {
  std::mt19937_64 rng(5);
  for (const char* variant : {"3x3:NBK", "4x4:NBK"}) {
    const drop::Game game(drop::parse_variant(variant));
    const test_support::SolvedEndgameTiers tables(game);
    Table plain_proven(16 << 20), oracle_proven(16 << 20);
    Numbers plain_numbers(16 << 20), oracle_numbers(16 << 20);
    Dfpn plain(game, plain_proven, plain_numbers, {}, drop::MoveSymmetry(game));
    solver::DfpnSearch<drop::Game, drop::MoveSymmetry, test_support::TierOracle> with_tables(
        game, oracle_proven, oracle_numbers, {}, drop::MoveSymmetry(game), tables.oracle());
    INFO(variant);
    test_support::check_search_with_tables(game, plain, with_tables, rng);
  }
}

TEST_CASE("df-pn with the value tables on disk (EndgameOracle) agrees", "[dfpn]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  test_support::TempDir tmp("dfpn_test");
  const drop::TierSpace space(game, true, 4);
  tablebase::TierSolveOptions options;
  options.dir = tmp / "tables";
  options.zstd_level = 3;
  options.value_only = true;
  tablebase::solve_tiers(space, options);
  const drop::EndgameOracle oracle(game, (tmp / "tables").string());
  Table proven(4 << 20);
  Numbers numbers(4 << 20);
  solver::DfpnSearch<drop::Game, drop::MoveSymmetry, drop::EndgameOracle> dfpn(
      game, proven, numbers, {}, drop::MoveSymmetry(game), oracle);
  solver::ForwardSolver<drop::Game> reference(game, 1ull << 30);
  for (const drop::Position& p : reachable(game, 400)) {
    INFO(drop::to_fen(game, p));
    drop::Position copy = p;
    CHECK(dfpn.prove(p) == proof_of(solver::is_win(reference.dte(copy))));
  }
  CHECK(dfpn.stats().oracle_hits > 0);
  CHECK(oracle.bytes_loaded() > 0);
}

TEST_CASE("the checker accepts df-pn's certificates", "[dfpn]") {
  for (const auto& [variant, leaf_hand] :
       {std::pair{"3x3:NBK", 0}, std::pair{"3x3:NBK", 2}, std::pair{"4x4:NBK", 4}}) {
    const drop::Game game(drop::parse_variant(variant));
    INFO(variant << " leaf_hand " << leaf_hand);
    // Small tables: the writer's winning_move calls have to search again.
    Table proven(64 << 10);
    Numbers numbers(64 << 10);
    Dfpn dfpn(game, proven, numbers, {}, drop::MoveSymmetry(game));
    const solver::Proof value = dfpn.prove(game.start());
    REQUIRE(value != solver::Proof::kUnknown);
    test_support::TempDir tmp("dfpn_test");
    const auto file = tmp / "certificate";
    tablebase::ProofFileWriter out(file);
    auto is_leaf = [&](const drop::Position& q) { return q.pieces_in_hands() <= leaf_hand; };
    solver::CertificateWriter writer(game, dfpn, is_leaf, out);
    const solver::CertificateStats stats =
        writer.write({game.variant().name(), drop::to_fen(game, game.start()),
                      value == solver::Proof::kWin, leaf_hand},
                     game.start());
    out.finish();
    CHECK(stats.positions > 1);
    const drop::ProofCheck c = drop::check_proof(file);
    drop::Position start = game.start();
    solver::ForwardSolver<drop::Game> reference(game, 1ull << 30);
    CHECK(c.win == solver::is_win(reference.dte(start)));
    CHECK(c.positions == stats.positions);
  }
}

TEST_CASE("prove --algorithm: dfpn proves what negamax proves and bad values exit 2",
          "[dfpn][cli]") {
  const auto value_of = [](const std::vector<std::string>& args) {
    const test_support::Run r = test_support::run_drop16(args);
    INFO("stderr: " << r.err);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out);
  };
  test_support::TempDir tmp("dfpn_test");
  const std::string certificate = (tmp / "nbk.proof").string();
  const auto negamax = value_of({"prove", "--variant", "3x3:NBK", "--all-moves", "--json"});
  const auto dfpn =
      value_of({"prove", "--variant", "3x3:NBK", "--all-moves", "--algorithm", "dfpn", "--threads",
                "2", "--certificate", certificate, "--leaf-hand", "2", "--json"});
  CHECK(dfpn.at("algorithm") == "dfpn");
  CHECK(negamax.at("algorithm") == "negamax");
  CHECK(dfpn.at("value") == negamax.at("value"));
  CHECK(dfpn.at("moves") == negamax.at("moves"));
  const auto check = value_of({"check-proof", certificate, "--json"});
  CHECK(check.at("value") == dfpn.at("value"));

  // A checkpoint written by df-pn resumes with nothing left to search.
  const std::string checkpoint = (tmp / "nbk.ckpt").string();
  const std::vector<std::string> resumable = {"prove",       "--variant", "3x3:NBK",
                                              "--algorithm", "dfpn",      "--checkpoint",
                                              checkpoint,    "--json",    "--quiet"};
  const auto first = value_of(resumable);
  const auto second = value_of(resumable);
  CHECK(second.at("value") == first.at("value"));
  CHECK(second.at("checkpoint").at("resumed_entries").get<int>() > 0);
  CHECK(second.at("nodes").get<std::uint64_t>() < first.at("nodes").get<std::uint64_t>());

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"prove", "--variant", "3x3:NK", "--algorithm", "pns"},
        {"prove", "--variant", "3x3:NK", "--algorithm", "dfpn", "--epsilon", "-1"},
        {"prove", "--variant", "3x3:NK", "--algorithm", "dfpn", "--deep", "x"},
        {"prove", "--variant", "3x3:NK", "--algorithm", "dfpn", "--no-immediate-wins"}}) {
    const test_support::Run r = test_support::run_drop16(args);
    INFO("stderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.empty());
  }
}
